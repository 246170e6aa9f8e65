import type { Database } from "bun:sqlite";

/**
 * Returns the stored value of `key`, creating it with `make()` the first time. INSERT OR
 * IGNORE then SELECT: when two processes start together both read the one value that won.
 */
export function getOrCreateSetting(sqlite: Database, key: string, make: () => string): string {
  sqlite.prepare("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)").run(key, make());
  const row = sqlite.prepare<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?").get(key);
  if (!row) throw new Error(`setting ${key} vanished after insert`);
  return row.value;
}

export function getSetting(sqlite: Database, key: string): string | null {
  return sqlite.prepare<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?").get(key)?.value ?? null;
}

export function putSetting(sqlite: Database, key: string, value: string): void {
  sqlite.prepare("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
}
