import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema.ts";
import { createSqliteStore } from "./sqlite/store.ts";
import type { Store } from "./store.ts";

export type Db = BunSQLiteDatabase<typeof schema>;

export interface DatabaseHandle {
  readonly sqlite: Database;
  readonly db: Db;
  /** The async seam over this connection (src/db/store.ts); made on first use, after the migrations. */
  readonly store: Store;
  close(): void;
}

export interface OpenOptions {
  sync?: "normal" | "full";
}

/**
 * Opens (creating if needed) the SQLite file with the pragmas DESIGN §7 asks for.
 * `busy_timeout` comes first: the CLI and the server share the file, and any later pragma
 * may already need to wait for the other process's lock.
 */
export function openDatabase(path: string, options: OpenOptions = {}): DatabaseHandle {
  const inMemory = path === ":memory:";
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA busy_timeout = 5000");
  if (!inMemory) {
    sqlite.exec("PRAGMA journal_mode = WAL");
    // SQLite's automatic checkpoint (every 1,000 pages) runs inside whichever commit crosses
    // it, fsync included: a request pays for it. At 10,000 pages it is a rare safety net; the
    // server's scheduler checkpoints the WAL (PASSIVE, never blocking writers) every 10 s.
    sqlite.exec("PRAGMA wal_autocheckpoint = 10000");
  }
  sqlite.exec("PRAGMA foreign_keys = ON");
  // Deleted rows are overwritten with zeros, not left readable in free pages: an erased
  // person's e-mail must not survive in the file (docs/operations.md, erasure).
  sqlite.exec("PRAGMA secure_delete = ON");
  // NORMAL in WAL mode survives a killed process; FULL also survives power loss.
  sqlite.exec(`PRAGMA synchronous = ${options.sync === "full" ? "FULL" : "NORMAL"}`);
  const db = drizzle({ client: sqlite, schema });
  let store: Store | null = null;
  return {
    sqlite,
    db,
    // Its statements are prepared when it is made, so not before applyMigrations has run.
    get store() {
      store ??= createSqliteStore({ sqlite, db });
      return store;
    },
    close: () => sqlite.close(),
  };
}
