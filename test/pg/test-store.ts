import { SQL } from "bun";
import { applyPgMigrations } from "../../src/db/postgres/migrations.ts";
import { createPostgresStore } from "../../src/db/postgres/store.ts";
import type { Store } from "../../src/db/store.ts";

/** PARLEY_TEST_DB when it names a PostgreSQL server: the tests then run against it. */
export function testPostgresUrl(): string | null {
  const url = process.env.PARLEY_TEST_DB ?? "";
  return /^postgres(ql)?:\/\//.test(url) ? url : null;
}

export interface TestPgStore {
  readonly store: Store;
  /** A client on the same schema, for looking at rows directly. */
  readonly sql: SQL;
  readonly schema: string;
  close(): Promise<void>;
}

let counter = 0;

/**
 * A store over a fresh schema of its own (`search_path`), migrated: every test file, and every
 * buildDeps, gets an empty database without creating a database each time.
 */
export async function openTestPgStore(url: string, nowMs = Date.now()): Promise<TestPgStore> {
  const schema = `t_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const admin = new SQL({ url, max: 1 });
  await admin.unsafe(`CREATE SCHEMA ${schema}`);
  await admin.close();
  // Idle connections close after 2 s: a test that never closes its deps does not keep them (one bun
  // test process runs every file, and the throwaway cluster allows 300 connections).
  const sql = new SQL({ url, max: 4, idleTimeout: 2, connection: { search_path: schema } });
  await applyPgMigrations(sql, nowMs);
  return {
    store: createPostgresStore(sql),
    sql,
    schema,
    async close() {
      await sql.close();
      const dropper = new SQL({ url, max: 1 });
      await dropper.unsafe(`DROP SCHEMA ${schema} CASCADE`);
      await dropper.close();
    },
  };
}

/** A second instance on the same schema as `opened`: its own pool and store. */
export function secondInstance(opened: TestPgStore, url: string): { store: Store; sql: SQL } {
  const sql = new SQL({ url, max: 4, connection: { search_path: opened.schema } });
  return { store: createPostgresStore(sql), sql };
}
