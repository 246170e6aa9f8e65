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
  /** Made on first use, after the migrations: it prepares statements. */
  readonly store: Store;
  close(): void;
}

/** Negative: KiB, not pages (so the figure holds whatever the page size). */
export const CACHE_SIZE_KIB = -8_192;
export const MMAP_SIZE_BYTES = 1024 * 1024 * 1024;
export const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * SQLite's automatic checkpoint (pages): only the safety net should the checkpoint thread fail,
 * set above what one cycle writes at full load (docs/design-notes.md#performance).
 */
export const WAL_AUTOCHECKPOINT_PAGES = 40_000;

export interface OpenOptions {
  sync?: "normal" | "full";
}

/**
 * Opens (creating if needed) the SQLite file with the pragmas DESIGN §7 asks for; the reasons are
 * in docs/hot-path.md. `busy_timeout` first: any later pragma may wait for another process's lock.
 */
export function openDatabase(path: string, options: OpenOptions = {}): DatabaseHandle {
  const inMemory = path === ":memory:";
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA busy_timeout = 5000");
  if (!inMemory) {
    sqlite.exec("PRAGMA journal_mode = WAL");
    // The automatic checkpoint runs inside some request's COMMIT: the checkpoint thread does it instead.
    sqlite.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  }
  // A small cache, because a COMMIT that split a B-tree page walks every cached page; the map
  // makes it cost no reads. A read error on a mapped page is SIGBUS: a disk SQLite could not serve.
  sqlite.exec(`PRAGMA mmap_size = ${MMAP_SIZE_BYTES}`);
  sqlite.exec(`PRAGMA cache_size = ${CACHE_SIZE_KIB}`);
  // After a burst the WAL would keep its high-water size for ever; below the limit it is reused as it is.
  sqlite.exec(`PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
  sqlite.exec("PRAGMA foreign_keys = ON");
  // The group commit's savepoint sub-journals would spill to /var/tmp. Sorts stay in memory too,
  // which is safe because every list is served by an index (test/db/query-plans.test.ts).
  sqlite.exec("PRAGMA temp_store = MEMORY");
  // An erased person's e-mail must not survive in free pages (docs/operations.md, erasure).
  sqlite.exec("PRAGMA secure_delete = ON");
  // NORMAL in WAL mode survives a killed process; FULL also survives power loss.
  sqlite.exec(`PRAGMA synchronous = ${options.sync === "full" ? "FULL" : "NORMAL"}`);
  const db = drizzle({ client: sqlite, schema });
  let store: Store | null = null;
  return {
    sqlite,
    db,
    get store() {
      store ??= createSqliteStore({ sqlite });
      return store;
    },
    close: () => sqlite.close(),
  };
}
