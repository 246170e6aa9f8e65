import type { Database } from "bun:sqlite";
import { realpathSync } from "node:fs";
import { resolve } from "node:path";

/**
 * The version token behind the in-process lookup caches (src/tenants/lookup-cache.ts): it changes
 * whenever a tenant or chatbot row may have changed, whoever changed it.
 *
 * - Another connection (the `parley` CLI changing a plan while the server runs, a second
 *   process, a second handle in tests) commits → SQLite's `PRAGMA data_version` changes on
 *   this connection (it counts commits by *other* connections only, read without touching
 *   any table).
 * - This connection writes a tenant or chatbot row → `data_version` does not move, so the
 *   write functions in tenants.ts and chat.ts call `markLookupWrite`, which bumps a counter
 *   kept per connection. A write rolled back bumps it too: one reload more, never a stale hit.
 *
 * Both are exact (no TTL): the first read after the other process's COMMIT sees the change.
 */
const localWrites = new WeakMap<Database, { count: number }>();

function counterFor(sqlite: Database): { count: number } {
  let counter = localWrites.get(sqlite);
  if (!counter) {
    counter = { count: 0 };
    localWrites.set(sqlite, counter);
  }
  return counter;
}

/** Call from every statement that writes `tenants` or `chatbots` on this connection. */
export function markLookupWrite(sqlite: Database): void {
  counterFor(sqlite).count += 1;
}

export interface LookupVersionReader {
  /** The current token: "dataVersion:localWrites". */
  read(): string;
  /** How many times `PRAGMA data_version` was actually run (for tests and benchmarks). */
  readonly dataVersionReads: number;
}

/**
 * A reader of the current token. `PRAGMA data_version` outside a transaction takes and drops
 * the WAL read lock (two fcntl calls, ~3.6 µs a chat message in the server), so it runs only
 * when something may have been committed since it last ran: the WAL-index header (the first
 * 48 bytes of the `-shm` file, https://www.sqlite.org/walformat.html) is rewritten by every
 * commit of every connection (its `iChange` counts them), and mapped shared it is read without
 * a system call. Unchanged header → no commit by anyone → the same data_version. The header is
 * copied *before* the pragma runs, so a commit landing between the two makes the next read run
 * it again. Without a WAL-index file (`:memory:`, a rollback journal) the pragma runs every time.
 */
export function lookupVersionReader(sqlite: Database): LookupVersionReader {
  const dataVersion = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  const counter = counterFor(sqlite);
  // Resolved now: the file was opened relative to the working directory of this moment.
  const file = sqlite.filename && sqlite.filename !== ":memory:" && !sqlite.filename.startsWith("file:") ? resolve(sqlite.filename) : null;
  let header: Uint32Array | null | undefined;
  const seen = new Uint32Array(WAL_INDEX_HEADER_WORDS);
  let seenValid = false;
  let known = 0;
  let reads = 0;
  return {
    read() {
      // Looked for at the first read, once the store has opened the database in WAL mode.
      if (header === undefined) header = file === null ? null : mapWalIndexHeader(sqlite, file);
      if (header) {
        if (seenValid && sameWords(header, seen)) return `${known}:${counter.count}`;
        seen.set(header);
        seenValid = true;
      }
      reads += 1;
      known = dataVersion.get()?.data_version ?? 0;
      return `${known}:${counter.count}`;
    },
    get dataVersionReads() {
      return reads;
    },
  };
}

/** The WAL-index header: two copies of 48 bytes; every commit rewrites both, the first last. */
const WAL_INDEX_HEADER_WORDS = 12;
const WAL_INDEX_VERSION = 3007000;

function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  for (let i = 0; i < WAL_INDEX_HEADER_WORDS; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The `-shm` file's header, mapped shared (read only by us); null where it cannot be trusted.
 * It is read only while this connection is open, and SQLite never shrinks or recreates the
 * -shm while any connection has it open (a reader of a mapping past the file's end would fault).
 */
function mapWalIndexHeader(sqlite: Database, file: string): Uint32Array | null {
  // Only a WAL database in normal locking mode keeps its WAL index in the -shm file (in
  // exclusive mode it lives in heap memory, and a -shm left over would never change).
  const mode = sqlite.prepare<{ journal_mode: string }, []>("PRAGMA journal_mode").get()?.journal_mode;
  const locking = sqlite.prepare<{ locking_mode: string }, []>("PRAGMA locking_mode").get()?.locking_mode;
  if (mode !== "wal" || locking !== "normal") return null;
  try {
    // SQLite keeps the -shm beside the database's real path (symbolic links followed).
    const bytes = Bun.mmap(`${realpathSync(file)}-shm`, { shared: true, size: WAL_INDEX_HEADER_WORDS * 4 });
    if (bytes.byteLength < WAL_INDEX_HEADER_WORDS * 4) return null;
    const header = new Uint32Array(bytes.buffer, bytes.byteOffset, WAL_INDEX_HEADER_WORDS);
    // iVersion 3007000 and isInit 1: a live WAL index, not an empty or foreign file.
    return header[0] === WAL_INDEX_VERSION && bytes[12] === 1 ? header : null;
  } catch {
    return null;
  }
}
