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

/** Negative: KiB, not pages (so the figure holds whatever the page size). */
export const CACHE_SIZE_KIB = -65_536;
export const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

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
    // it, fsync included: a request pays for it. At 10,000 pages it is the safety net only; the
    // server checkpoints the WAL every 500 ms on a thread of its own (PASSIVE, never blocking
    // writers) and finishes a caught-up checkpoint on this connection in a few milliseconds, so
    // the WAL starts over long before (src/db/sqlite/checkpoint-thread.ts).
    sqlite.exec("PRAGMA wal_autocheckpoint = 10000");
  }
  // 64 MiB of page cache (SQLite's default is 2 MB): the server has one connection, and a
  // tenant's hot index ranges (sessions, the delivery log and its filters, the due queue)
  // then stay in memory instead of being read again from the OS on every page of a list.
  // Its price is paid at COMMIT: a transaction that split a B-tree page leaves a page keyed past
  // the end of the file in the cache (SQLite's page swap in balance_nonroot), and the trim at
  // its end then walks every cached page — ~0.2 ms a chat group at 12,000 pages. A smaller
  // cache saves that and pays the same again in page reads (bench/README.md, session 12):
  // measure both before changing it.
  sqlite.exec(`PRAGMA cache_size = ${CACHE_SIZE_KIB}`);
  // A burst (a big retention sweep, a backlog of deliveries) can grow the WAL far past the
  // 10,000-page checkpoint (~40 MB); without a limit the file keeps its high-water size for
  // ever. After a checkpoint resets it, anything above 64 MiB is truncated away; below that
  // the file is reused as it is, so normal traffic does not re-grow it every time.
  sqlite.exec(`PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
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
