import { describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CACHE_SIZE_KIB,
  JOURNAL_SIZE_LIMIT_BYTES,
  MMAP_SIZE_BYTES,
  openDatabase,
  WAL_AUTOCHECKPOINT_PAGES,
} from "../../src/db/client.ts";
import { EMBEDDED_MIGRATIONS, MIGRATION_JOURNAL } from "../../src/db/embedded-migrations.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { applyPgMigrations, PG_MIGRATION_JOURNAL, PG_MIGRATIONS } from "../../src/db/postgres/migrations.ts";
import * as pgSchema from "../../src/db/postgres/schema.ts";
import * as sqliteSchema from "../../src/db/schema.ts";
import { testPostgresUrl } from "../pg/test-store.ts";

const tables = (handle: ReturnType<typeof openDatabase>) =>
  handle.sqlite
    .prepare<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name);

describe("migrations", () => {
  test("every migration drizzle-kit wrote is embedded, in journal order", () => {
    const files = readdirSync(join(import.meta.dir, "../../migrations"))
      .filter((name) => name.endsWith(".sql"))
      .map((name) => name.replace(/\.sql$/, ""));
    expect(EMBEDDED_MIGRATIONS.map((migration) => migration.tag)).toEqual(
      MIGRATION_JOURNAL.entries.map((entry) => entry.tag),
    );
    expect(EMBEDDED_MIGRATIONS.map((migration) => migration.tag)).toEqual(files.sort());
  });

  test("a fresh database gets every table", () => {
    const handle = openDatabase(":memory:");
    const result = applyMigrations(handle.sqlite, 1);
    expect(result.applied.length).toBe(EMBEDDED_MIGRATIONS.length);
    expect(tables(handle)).toEqual(
      expect.arrayContaining([
        "tenants",
        "chatbots",
        "users",
        "memberships",
        "api_keys",
        "refresh_tokens",
        "settings",
        "parley_migrations",
      ]),
    );
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
    expect(
      second.sqlite.prepare<{ value: string }, []>("SELECT value FROM settings WHERE key = 'k'").get()?.value,
    ).toBe("v");
    second.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a file database runs in WAL mode with foreign keys on and a busy timeout", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-pragma-"));
    const handle = openDatabase(join(dir, "p.db"));
    const pragma = (name: string) =>
      Object.values(handle.sqlite.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("foreign_keys")).toBe(1);
    expect(pragma("busy_timeout")).toBe(5000);
    expect(pragma("synchronous")).toBe(1);
    // Set on purpose (src/db/client.ts says why), not SQLite's defaults (-2000, no map, -1 = no limit).
    expect(CACHE_SIZE_KIB).toBe(-8_192);
    expect(pragma("cache_size")).toBe(CACHE_SIZE_KIB);
    expect(MMAP_SIZE_BYTES).toBe(1024 * 1024 * 1024);
    expect(pragma("mmap_size")).toBe(MMAP_SIZE_BYTES);
    expect(JOURNAL_SIZE_LIMIT_BYTES).toBe(64 * 1024 * 1024);
    expect(pragma("journal_size_limit")).toBe(JOURNAL_SIZE_LIMIT_BYTES);
    // Well above what one checkpoint cycle writes at full load (10,000 fired in normal running).
    expect(WAL_AUTOCHECKPOINT_PAGES).toBe(40_000);
    expect(pragma("wal_autocheckpoint")).toBe(WAL_AUTOCHECKPOINT_PAGES);
    handle.close();
    const full = openDatabase(join(dir, "p.db"), { sync: "full" });
    expect(Object.values(full.sqlite.prepare("PRAGMA synchronous").get() as Record<string, unknown>)[0]).toBe(2);
    full.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a group's savepoints keep their sub-journal in memory: no temporary file is written", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-subjournal-"));
    const handle = openDatabase(join(dir, "p.db"));
    // Files this process has open that were deleted at once: SQLite's temporary files (O_TMPFILE).
    const deletedFiles = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).endsWith(" (deleted)");
        } catch {
          return false;
        }
      });
    const before = deletedFiles().length;
    const { sqlite } = handle;
    sqlite.exec("CREATE TABLE pages (id INTEGER PRIMARY KEY, v TEXT)");
    const upsert = sqlite.prepare("INSERT OR REPLACE INTO pages (id, v) VALUES (?, ?)");
    sqlite.exec("BEGIN IMMEDIATE");
    // 100 rows of 3 KB: each on its own page, all changed before the savepoints, so each
    // savepoint must save ~300 KB of them, far past SQLite's 64 KiB spill threshold.
    for (let id = 0; id < 100; id++) upsert.run(id, "x".repeat(3_000));
    let during = 0;
    for (let round = 0; round < 3; round++) {
      sqlite.exec("SAVEPOINT parley_tx");
      sqlite.run("UPDATE pages SET v = ?", ["y".repeat(3_000 + round)]);
      during = Math.max(during, deletedFiles().length);
      sqlite.exec(round === 1 ? "ROLLBACK TO parley_tx" : "RELEASE parley_tx");
      if (round === 1) sqlite.exec("RELEASE parley_tx");
    }
    sqlite.exec("COMMIT");
    expect(during).toBe(before);
    expect(pragmaOf(handle, "temp_store")).toBe(2);
    // Round 1 was rolled back from that memory: every row holds round 2's value.
    expect(
      sqlite.prepare<{ n: number }, [string]>("SELECT count(*) AS n FROM pages WHERE v = ?").get("y".repeat(3_002))?.n,
    ).toBe(100);
    handle.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

function pragmaOf(handle: ReturnType<typeof openDatabase>, name: string): unknown {
  return Object.values(handle.sqlite.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];
}

// The PostgreSQL twin: its own drizzle-kit migration set (migrations/postgres), embedded in
// src/db/postgres/migrations.ts, from a pg-core schema (src/db/postgres/schema.ts) that must
// describe the same tables, columns and row types as the SQLite one.

/** The tables a schema module exports, by export name. */
function tablesOf<T>(schema: Record<string, unknown>, kind: abstract new (...args: never[]) => T): Map<string, T> {
  return new Map(Object.entries(schema).filter((entry): entry is [string, T] => is(entry[1], kind as never)));
}

// Type level: every table's row type is the same on both stores (tsc fails otherwise, naming the table).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
type TablesIn<S> = { [K in keyof S as S[K] extends { $inferSelect: unknown; _: { name: string } } ? K : never]: S[K] };
type SqliteTables = TablesIn<typeof sqliteSchema>;
type PgTables = TablesIn<typeof pgSchema>;
type RowOf<T> = T extends { $inferSelect: infer Row } ? Row : never;
type SameRows = {
  [K in keyof SqliteTables]: K extends keyof PgTables ? Equal<RowOf<SqliteTables[K]>, RowOf<PgTables[K]>> : false;
};
export type SameTableNames = Expect<Equal<keyof SqliteTables, keyof PgTables>>;
export type SameRowTypes = Expect<Equal<SameRows, { [K in keyof SqliteTables]: true }>>;

describe("PostgreSQL migrations", () => {
  test("every migration drizzle-kit wrote for PostgreSQL is embedded, in journal order", () => {
    const files = readdirSync(join(import.meta.dir, "../../migrations/postgres"))
      .filter((name) => name.endsWith(".sql"))
      .map((name) => name.replace(/\.sql$/, ""));
    expect(PG_MIGRATION_JOURNAL.dialect).toBe("postgresql");
    expect(PG_MIGRATIONS.map((migration) => migration.tag)).toEqual(
      PG_MIGRATION_JOURNAL.entries.map((entry) => entry.tag),
    );
    expect(PG_MIGRATIONS.map((migration) => migration.tag)).toEqual(files.sort());
    for (const migration of PG_MIGRATIONS) expect(migration.sql.length).toBeGreaterThan(0);
  });

  test("the pg-core schema exports the same tables as the SQLite schema, with the same columns", () => {
    const sqliteTables = tablesOf(sqliteSchema, SQLiteTable);
    const pgTables = tablesOf(pgSchema, PgTable);
    expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
    for (const [name, table] of sqliteTables) {
      const pgTable = pgTables.get(name) as unknown as { [key: symbol]: unknown };
      const sqliteColumns = Object.fromEntries(
        getTableConfig(table).columns.map((column) => [column.name, column.notNull]),
      );
      const pgColumns = Object.fromEntries(
        Object.values(pgTable[Symbol.for("drizzle:Columns")] as Record<string, { name: string; notNull: boolean }>).map(
          (column) => [column.name, column.notNull],
        ),
      );
      expect({ table: getTableConfig(table).name, columns: pgColumns }).toEqual({
        table: getTableConfig(table).name,
        columns: sqliteColumns,
      });
    }
  });
});

describe.skipIf(!testPostgresUrl())("PostgreSQL migrations against a server (PARLEY_TEST_DB)", () => {
  const url = testPostgresUrl() ?? "";

  /** A fresh, empty schema of its own, and a client whose search_path is it. */
  async function freshSchema() {
    const schema = `migrate_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new SQL({ url, max: 1 });
    await admin.unsafe(`CREATE SCHEMA ${schema}`);
    const sql = new SQL({ url, max: 2, connection: { search_path: schema } });
    return {
      schema,
      sql,
      async drop() {
        await sql.close();
        await admin.unsafe(`DROP SCHEMA ${schema} CASCADE`);
        await admin.close();
      },
    };
  }

  test("a fresh schema gets every migration; applying again is a no-op and keeps the data", async () => {
    const fresh = await freshSchema();
    try {
      const first = await applyPgMigrations(fresh.sql, 1);
      expect(first).toEqual({ applied: PG_MIGRATIONS.map((migration) => migration.tag), alreadyApplied: 0 });
      await fresh.sql.unsafe("INSERT INTO settings (key, value) VALUES ('k', 'v')");
      const again = await applyPgMigrations(fresh.sql, 2);
      expect(again).toEqual({ applied: [], alreadyApplied: PG_MIGRATIONS.length });
      expect([...(await fresh.sql.unsafe("SELECT value FROM settings WHERE key = 'k'"))]).toEqual([{ value: "v" }]);
      const recorded = [
        ...(await fresh.sql.unsafe(
          "SELECT tag, CAST(applied_at AS INTEGER) AS applied_at FROM parley_migrations ORDER BY tag",
        )),
      ];
      expect(recorded).toEqual(PG_MIGRATIONS.map((migration) => ({ tag: migration.tag, applied_at: 1 })));
    } finally {
      await fresh.drop();
    }
  });

  test("the migrated schema has every table and column of the SQLite schema, with the same nullability", async () => {
    const fresh = await freshSchema();
    try {
      await applyPgMigrations(fresh.sql, 1);
      const rows = [
        ...(await fresh.sql.unsafe<Array<{ table_name: string; column_name: string; is_nullable: string }>>(
          "SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = $1",
          [fresh.schema],
        )),
      ];
      const migrated = new Map<string, Record<string, boolean>>();
      for (const row of rows)
        migrated.set(row.table_name, { ...migrated.get(row.table_name), [row.column_name]: row.is_nullable === "NO" });
      const expected = new Map<string, Record<string, boolean>>();
      for (const table of tablesOf(sqliteSchema, SQLiteTable).values()) {
        const config = getTableConfig(table);
        expected.set(config.name, Object.fromEntries(config.columns.map((column) => [column.name, column.notNull])));
      }
      expect([...migrated.keys()].sort()).toEqual(
        [...expected.keys(), "parley_migrations", ...extraPgTables(migrated)].sort(),
      );
      for (const [name, columns] of expected)
        expect({ table: name, columns: migrated.get(name) }).toEqual({ table: name, columns });
    } finally {
      await fresh.drop();
    }
  });
});

/**
 * Tables only PostgreSQL has, written by hand in its migrations: the counters and rate windows
 * every instance shares (the SQLite server keeps them in memory) and the lookup-version row the
 * caches of all instances watch; the search index's queue and terms of chat messages (SQLite's
 * are FTS5 tables). Named here so the comparison above stays exact.
 */
function extraPgTables(migrated: Map<string, unknown>): string[] {
  expect(PG_ONLY_TABLES.filter((name) => !migrated.has(name))).toEqual([]);
  return PG_ONLY_TABLES;
}
const PG_ONLY_TABLES = [
  "chat_message_terms",
  "chat_messages_search_pending",
  "parley_counters",
  "parley_lookup_version",
  "parley_rate_windows",
];
