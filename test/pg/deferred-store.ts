import type { Store, StoreQueries, Transaction } from "../../src/db/store.ts";

/**
 * A Store usable at once whose real store is still being made (a PostgreSQL schema being
 * created and migrated): every call waits for it first. It keeps `buildDeps` synchronous, so
 * the same test files run over SQLite and over PostgreSQL.
 */
/** Every aggregate of the seam: a new one that is not listed here fails the type check. */
const AGGREGATES: Record<keyof StoreQueries, true> = {
  tenants: true,
  users: true,
  apiKeys: true,
  refreshTokens: true,
  chatSessions: true,
  usage: true,
  captures: true,
  botConfigs: true,
  analytics: true,
  integrations: true,
  knowledge: true,
  knowledgeSources: true,
  liveEvents: true,
  desk: true,
  inbox: true,
  cannedReplies: true,
  settings: true,
  privacy: true,
  maintenance: true,
  webhookRules: true,
  outbox: true,
  deliveries: true,
  deadLetters: true,
  deliveryQueue: true,
  testSet: true,
  unanswered: true,
};

export function deferredStore(ready: Promise<Store>): Store {
  const aggregates: Record<string, unknown> = {};
  for (const aggregate of Object.keys(AGGREGATES) as Array<keyof StoreQueries>) {
    aggregates[aggregate] = new Proxy(
      {},
      {
        get:
          (_target, name: string) =>
          async (...args: unknown[]) => {
            const store = await ready;
            const fn = (store[aggregate] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name];
            if (!fn) throw new Error(`${aggregate}.${name} is not a store function`);
            return fn(...args);
          },
      },
    );
  }
  return {
    ...(aggregates as unknown as StoreQueries),
    kind: "postgres",
    counters: {
      take: async (key, limit, windowMs, now) => (await ready).counters!.take(key, limit, windowMs, now),
      liveHits: async (key, windowMs, now) => (await ready).counters!.liveHits(key, windowMs, now),
      addToWindow: async (key, windowMs, now) => (await ready).counters!.addToWindow(key, windowMs, now),
      windowCount: async (key, windowMs, now) => (await ready).counters!.windowCount(key, windowMs, now),
      purgeExpired: async (now) => (await ready).counters!.purgeExpired(now),
    },
    storage: {
      probeWrite: async () => (await ready).storage.probeWrite(),
      neverWaitForLocks: (waitMs) => void ready.then((store) => store.storage.neverWaitForLocks(waitMs)),
      exclusively: async (lock, work) => (await ready).storage.exclusively(lock, work),
    },
    transaction: async <T>(work: (tx: Transaction) => Promise<T>) => (await ready).transaction(work),
  };
}
