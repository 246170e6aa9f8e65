import type { Store } from "../db/store.ts";

/**
 * In-process caches for the lookups every chat message makes (the tenant with its plan and
 * allowed origins, the parsed bot config), with exact invalidation: before every hit the
 * store's lookup version is read (`store.tenants.findLookupVersion()`; on SQLite `PRAGMA
 * data_version` plus this connection's own tenant/chatbot writes, src/db/sqlite/lookup-version.ts),
 * and a changed version empties the cache. So a PATCH of the config, a plan change by a
 * payment webhook, or `parley tenant plan` run from another process is seen by the very next
 * message — no TTL, no window of staleness. (A chat message checks the version inside its
 * write transaction instead, where it costs no lock: `peek` and StaleLookupError below.) One
 * cache per store (test apps in one process never share one). Only lookups through the store
 * itself are cached: a read inside a transaction may see rows that are then rolled back, so
 * those go to the database.
 *
 * Values are shared between callers: treat them as read-only.
 */
export interface LookupCache<T> {
  /**
   * The cached value for `key`, else `load()` (a null result is not kept). `version`: a token the
   * caller read with `readLookupVersion` just before, to look up several things for one request
   * with one read of it (a chat message needs its tenant and its bot config).
   */
  get(store: Store, key: string, load: () => Promise<T | null>, version?: string): Promise<T | null>;
  /**
   * The cached value for `key` with the version it holds for, without reading the version
   * (null when it is not cached). Not exact on its own: before anything is written on the
   * strength of it, the caller compares that version with the store's (a chat turn does,
   * inside its write transaction, where SQLite reads it without taking a lock; on a mismatch it
   * throws StaleLookupError and the turn runs again with `get`).
   */
  peek(store: Store, key: string): { value: T; version: string } | null;
}

/** A turn built on peeked lookups found the lookup version moved: run it again with exact ones. */
export class StaleLookupError extends Error {
  constructor() {
    super("the cached tenant or bot config is older than the database: read again");
  }
}

/** The store's lookup version now (see above); pass it to several `get`s of one request. */
export const readLookupVersion = (store: Store): Promise<string> => store.tenants.findLookupVersion();

/** Past this many entries a cache starts again empty: unknown ids cannot grow it without bound. */
export const MAX_CACHED_LOOKUPS = 10_000;

interface PerStore<T> {
  version: string;
  entries: Map<string, T>;
}

export function createLookupCache<T>(): LookupCache<T> {
  const caches = new WeakMap<Store, PerStore<T>>();
  return {
    async get(store, key, load, given) {
      const version = given ?? (await readLookupVersion(store));
      let cache = caches.get(store);
      if (!cache) {
        cache = { version, entries: new Map() };
        caches.set(store, cache);
      }
      if (cache.version !== version) {
        cache.entries.clear();
        cache.version = version;
      }
      const hit = cache.entries.get(key);
      if (hit !== undefined) return hit;
      const value = await load();
      // Kept only if nothing changed the version meanwhile (another caller saw a newer one);
      // the version was read before the rows, so a kept value is never older than its version.
      if (value !== null && cache.version === version) {
        if (cache.entries.size >= MAX_CACHED_LOOKUPS) cache.entries.clear();
        cache.entries.set(key, value);
      }
      return value;
    },
    peek(store, key) {
      const cache = caches.get(store);
      const value = cache?.entries.get(key);
      return cache && value !== undefined ? { value, version: cache.version } : null;
    },
  };
}
