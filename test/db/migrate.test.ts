import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CACHE_SIZE_KIB, JOURNAL_SIZE_LIMIT_BYTES, openDatabase } from "../../src/db/client.ts";
import { EMBEDDED_MIGRATIONS, MIGRATION_JOURNAL } from "../../src/db/embedded-migrations.ts";
import { applyMigrations } from "../../src/db/migrate.ts";

const tables = (handle: ReturnType<typeof openDatabase>) =>
  handle.sqlite.prepare<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((row) => row.name);

describe("migrations", () => {
  test("every migration drizzle-kit wrote is embedded, in journal order", () => {
    const files = readdirSync(join(import.meta.dir, "../../migrations")).filter((name) => name.endsWith(".sql")).map((name) => name.replace(/\.sql$/, ""));
    expect(EMBEDDED_MIGRATIONS.map((migration) => migration.tag)).toEqual(MIGRATION_JOURNAL.entries.map((entry) => entry.tag));
    expect(EMBEDDED_MIGRATIONS.map((migration) => migration.tag)).toEqual(files.sort());
  });

  test("a fresh database gets every table", () => {
    const handle = openDatabase(":memory:");
    const result = applyMigrations(handle.sqlite, 1);
    expect(result.applied.length).toBe(EMBEDDED_MIGRATIONS.length);
    expect(tables(handle)).toEqual(expect.arrayContaining(["tenants", "chatbots", "users", "memberships", "api_keys", "refresh_tokens", "settings", "parley_migrations"]));
    handle.close();
  });

  test("applying again is a no-op and keeps the data", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-migrate-"));
    const path = join(dir, "p.db");
    const first = openDatabase(path);
    applyMigrations(first.sqlite, 1);
    first.sqlite.exec("INSERT INTO settings (key, value) VALUES ('k', 'v')");
    first.close();
    const second = openDatabase(path);
    const result = applyMigrations(second.sqlite, 2);
    expect(result.applied).toEqual([]);
    expect(result.alreadyApplied).toBe(EMBEDDED_MIGRATIONS.length);
    expect(second.sqlite.prepare<{ value: string }, []>("SELECT value FROM settings WHERE key = 'k'").get()?.value).toBe("v");
    second.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a file database runs in WAL mode with foreign keys on and a busy timeout", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-pragma-"));
    const handle = openDatabase(join(dir, "p.db"));
    const pragma = (name: string) => Object.values(handle.sqlite.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("foreign_keys")).toBe(1);
    expect(pragma("busy_timeout")).toBe(5000);
    expect(pragma("synchronous")).toBe(1);
    // Set on purpose (src/db/client.ts says why), not SQLite's defaults (-2000 and -1, no limit).
    expect(CACHE_SIZE_KIB).toBe(-65_536);
    expect(pragma("cache_size")).toBe(CACHE_SIZE_KIB);
    expect(JOURNAL_SIZE_LIMIT_BYTES).toBe(64 * 1024 * 1024);
    expect(pragma("journal_size_limit")).toBe(JOURNAL_SIZE_LIMIT_BYTES);
    handle.close();
    const full = openDatabase(join(dir, "p.db"), { sync: "full" });
    expect(Object.values(full.sqlite.prepare("PRAGMA synchronous").get() as Record<string, unknown>)[0]).toBe(2);
    full.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
