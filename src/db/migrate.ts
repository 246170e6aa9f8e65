import type { Database } from "bun:sqlite";
import { EMBEDDED_MIGRATIONS } from "./embedded-migrations.ts";

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

/** Each in its own BEGIN IMMEDIATE, so two processes starting together cannot both apply one. */
export function applyMigrations(sqlite: Database, nowMs: number): MigrationResult {
  sqlite.exec(
    "CREATE TABLE IF NOT EXISTS parley_migrations (tag TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)",
  );
  const isApplied = sqlite.prepare<{ tag: string }, [string]>("SELECT tag FROM parley_migrations WHERE tag = ?");
  const record = sqlite.prepare("INSERT INTO parley_migrations (tag, applied_at) VALUES (?, ?)");
  const applied: string[] = [];
  let alreadyApplied = 0;
  for (const migration of EMBEDDED_MIGRATIONS) {
    const didApply = sqlite
      .transaction(() => {
        if (isApplied.get(migration.tag)) return false;
        for (const statement of migration.sql.split("--> statement-breakpoint")) {
          if (statement.trim()) sqlite.exec(statement);
        }
        record.run(migration.tag, nowMs);
        return true;
      })
      .immediate();
    if (didApply) applied.push(migration.tag);
    else alreadyApplied++;
  }
  return { applied, alreadyApplied };
}
