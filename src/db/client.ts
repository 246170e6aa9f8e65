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
export const CACHE_SIZE_KIB = -8_192;
export const MMAP_SIZE_BYTES = 1024 * 1024 * 1024;
export const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * SQLite's automatic checkpoint, in pages (~160 MB): only the safety net, should the server's
 * checkpoint thread fail (src/db/sqlite/checkpoint-thread.ts). It was 10,000 until a server at
 * full chat load was seen writing 10,000–13,000 pages between two of the thread's WAL restarts
 * (a chat message writes ~2 random pages: its session row and its session-index entry), so the
 * net fired in normal running, each time a COMMIT copying the WAL on the main thread and a p99
 * stall (docs/hot-path.md). The thread
 * also brings its next pass forward when a cycle's WAL passes half of this (checkpoint-schedule.ts).
 */
export const WAL_AUTOCHECKPOINT_PAGES = 40_000;

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
    // SQLite's automatic checkpoint (every 1,000 pages by default) runs inside whichever commit
    // crosses it, fsync included: a request pays for it. Here it is the safety net only; the
    // server checkpoints the WAL every 500 ms on a thread of its own (PASSIVE, never blocking
    // writers) and finishes a caught-up checkpoint on this connection in a few milliseconds, so
    // the WAL starts over long before (src/db/sqlite/checkpoint-thread.ts).
    sqlite.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  }
  // Pages are read through a memory map of the file (up to 1 GiB; past that, read as before):
  // a page not in SQLite's cache is copied from the OS's page cache without a system call, and
  // a read-only statement uses a page that is not in the WAL in place. So SQLite's own cache
  // only has to hold what a write transaction works on, and 8 MiB (2,048 pages) does: its size
  // is paid at COMMIT, where a transaction that split a B-tree page (SQLite's page swap in
  // balance_nonroot leaves a page keyed past the end of the file) walks every cached page.
  // Without the map a small cache pays in reads; with it, none (docs/hot-path.md).
  // A read error on a mapped page ends the process (SIGBUS) instead of failing the statement:
  // a failing disk, which SQLite could not have served anyway.
  sqlite.exec(`PRAGMA mmap_size = ${MMAP_SIZE_BYTES}`);
  sqlite.exec(`PRAGMA cache_size = ${CACHE_SIZE_KIB}`);
  // A burst (a big retention sweep, a backlog of deliveries) can grow the WAL far past what a
  // checkpoint cycle usually leaves (~50 MB at full chat load); without a limit the file keeps
  // its high-water size for ever. After a checkpoint resets it, anything above 64 MiB is
  // truncated away; below that the file is reused as it is, so normal traffic does not re-grow
  // it every time.
  sqlite.exec(`PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
  sqlite.exec("PRAGMA foreign_keys = ON");
  // Savepoints and statement journals stay in memory. The group commit (group-commit.ts) runs
  // every message in a SAVEPOINT of a shared transaction; each savepoint saves the pages the
  // group had already changed (the message table's last page, its index tails, the usage row)
  // to a sub-journal, which with SQLite's default spills past 64 KiB into a temporary file on
  // disk (/var/tmp), nearly doubling a chat message's write calls (docs/hot-path.md). The
  // price: temporary tables and sorts are kept in memory too. Every list and filter here is
  // served by an index (test/db/query-plans.test.ts) and the GROUP BYs have a row per day or
  // rule, so only a migration that builds an index on a large table sorts in memory.
  sqlite.exec("PRAGMA temp_store = MEMORY");
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
      store ??= createSqliteStore({ sqlite });
      return store;
    },
    close: () => sqlite.close(),
  };
}
