import type { Database } from "bun:sqlite";

/**
 * The lookup caches' version (docs/hot-path.md §1): `PRAGMA data_version` counts other connections'
 * commits only, so this connection's own writes bump a counter. A rolled-back write bumps it too:
 * one reload more, never a stale hit.
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
 * "dataVersion:localWrites", read inside the turn's transaction where the pragma costs no fcntl.
 * Never read the -shm WAL-index header instead: closing any descriptor of that file drops every
 * POSIX lock the process holds on it, SQLite's shm locks included.
 */
export function lookupVersionReader(sqlite: Database): () => string {
  const dataVersion = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  const counter = counterFor(sqlite);
  return () => `${dataVersion.get()?.data_version ?? 0}:${counter.count}`;
}
