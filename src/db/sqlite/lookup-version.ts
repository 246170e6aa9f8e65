import type { Database } from "bun:sqlite";

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

/**
 * A reader of the current token: "dataVersion:localWrites". The pragma costs two fcntl calls
 * outside a transaction and none inside one, where a chat turn reads it (handleMessage's
 * lookupVersion; docs/hot-path.md). Do not try to skip it by watching the -shm
 * file's WAL-index header yourself: mapping or reading that file means opening and closing a
 * descriptor of it, and on Linux closing *any* descriptor of a file drops every POSIX lock the
 * process holds on it — SQLite's own shm locks (the dead-man switch, read marks, the write lock)
 * included, which lets another process reset the WAL index or write at the same time
 * (Bun.mmap, for one, closes its descriptor).
 */
export function lookupVersionReader(sqlite: Database): () => string {
  const dataVersion = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  const counter = counterFor(sqlite);
  return () => `${dataVersion.get()?.data_version ?? 0}:${counter.count}`;
}
