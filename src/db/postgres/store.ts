import type { SQL } from "bun";
import type { StorageControls, Store, StoreQueries, Transaction } from "../store.ts";
import { pgAnalytics } from "./analytics.ts";
import { pgTenants } from "./tenants.ts";
import { pgOps } from "./statements.ts";
import { pgChatSessions } from "./chat.ts";
import { type ChatBatches, chatBatches } from "./chat-batch.ts";
import { type HeldMessages, pgUsage } from "./usage.ts";
import { BOT_CONFIG_OPS } from "../sql/tenants.ts";
import { pgInbox } from "./inbox.ts";
import { SHARED_AGGREGATES, type SharedAggregate } from "../sql/aggregates.ts";
import type { Ops } from "../statements.ts";
import { pgCounters } from "./counters.ts";
import { pgDeliveryQueue } from "./delivery-queue.ts";
import { pgExec, whileOpen, type PgExec } from "./exec.ts";
import { lazyTransaction } from "./lazy-transaction.ts";
import { pgKnowledge } from "./knowledge.ts";
import { pgMaintenance, pgPrivacy } from "./privacy.ts";

/** What a store's aggregates share across its transactions. */
interface Shared {
  held: HeldMessages;
  batches: ChatBatches;
}

/** How each aggregate is made over one executor: the pool, or an open transaction's connection. */
const MAKERS: {
  readonly [K in Exclude<keyof StoreQueries, SharedAggregate>]: (exec: PgExec, shared: Shared) => StoreQueries[K];
} = {
  tenants: pgTenants,
  chatSessions: (exec, shared) => pgChatSessions(exec, shared.batches),
  usage: (exec, shared) => pgUsage(exec, shared.held, shared.batches),
  botConfigs: (exec) => pgOps(exec, BOT_CONFIG_OPS),
  analytics: pgAnalytics,
  knowledge: pgKnowledge,
  inbox: pgInbox,
  privacy: pgPrivacy,
  maintenance: pgMaintenance,
  deliveryQueue: pgDeliveryQueue,
};

type Maker = (exec: PgExec, shared: Shared) => unknown;

/** Every aggregate's maker: the shared statements' (src/db/sql/aggregates.ts), then this store's own. */
const AGGREGATES: Array<[keyof StoreQueries, Maker]> = [
  ...Object.entries(SHARED_AGGREGATES).map(([name, ops]): [keyof StoreQueries, Maker] => [
    name as SharedAggregate,
    (exec) => pgOps(exec, ops as Ops<unknown>),
  ]),
  ...(Object.entries(MAKERS) as Array<[keyof StoreQueries, Maker]>),
];

/** Every aggregate over one executor, made at once (the pool's, once per store). */
function pgQueries(exec: PgExec, shared: Shared): StoreQueries {
  return Object.fromEntries(AGGREGATES.map(([name, make]) => [name, make(exec, shared)])) as unknown as StoreQueries;
}

const EXEC = Symbol("exec");
const SHARED = Symbol("shared");
type Bound = StoreQueries & { [EXEC]: PgExec; [SHARED]: Shared };

/** Made at first use (a message touches a few of the 26), by getters on one prototype: a transaction is one object. */
const LAZY: object = Object.create(null);
for (const [name, make] of AGGREGATES) {
  Object.defineProperty(LAZY, name, {
    get(this: Bound) {
      const made = make(this[EXEC], this[SHARED]);
      Object.defineProperty(this, name, { value: made, enumerable: true, writable: true, configurable: true });
      return made;
    },
  });
}

function lazyQueries(exec: PgExec, shared: Shared): Bound {
  const queries = Object.create(LAZY) as Bound;
  queries[EXEC] = exec;
  queries[SHARED] = shared;
  return queries;
}

/** Deadlock, serialization failure: the whole transaction may simply run again. */
const RETRYABLE = new Set(["40P01", "40001"]);
const MAX_TRIES = 3;

/** A write probe that only waited for others' locks. */
const PROBE_BUSY = new Set(["55P03", "57014", "40P01", "40001"]);

function sqlState(error: unknown): string | null {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === "string" ? errno : null;
}

/** Bun's built-in client over a pool (docs/storage.md); a retried callback is safe as it does no I/O but through `tx`. */
export function createPostgresStore(sql: SQL): Store {
  const pool = pgExec(sql, false);
  const shared: Shared = { held: new Map(), batches: chatBatches(pool) };
  const outside = pgQueries(pool, shared);

  async function transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const hooks: Array<() => void> = [];
      const lazy = lazyTransaction(pool);
      let open = true;
      const tx: Transaction = Object.assign(
        lazyQueries(
          whileOpen(lazy.exec, () => open),
          shared,
        ),
        {
          onCommit: (hook: () => void) => void hooks.push(hook),
        },
      );
      try {
        let result: T;
        try {
          result = await work(tx);
        } catch (error) {
          open = false;
          await lazy.end(false);
          throw error;
        }
        open = false;
        await lazy.end(true);
        for (const hook of hooks) hook();
        return result;
      } catch (error) {
        if (attempt >= MAX_TRIES || !RETRYABLE.has(sqlState(error) ?? "")) throw error;
      }
    }
  }

  const storage: StorageControls = {
    probeWrite: async () => {
      try {
        await pool.transaction(async (exec) => {
          await exec.run(
            "INSERT INTO settings (key, value) VALUES ('parley_probe', '1') ON CONFLICT (key) DO UPDATE SET value = '1'",
          );
          await exec.run("DELETE FROM settings WHERE key = 'parley_probe'");
        });
        return "ok";
      } catch (error) {
        // As on SQLite, a full disk or a lock wait passes; anything else (the server gone) is not ready.
        const state = sqlState(error);
        if (state === "53100") return "storage_full";
        if (state !== null && PROBE_BUSY.has(state)) return "busy";
        throw error;
      }
    },
    // Its lock waits never block the thread.
    neverWaitForLocks: () => {},
    // Held by a transaction on a connection of its own while `work` uses others.
    exclusively: async (lock, work) => {
      let skipped = false;
      const result = await pool.transaction(async (exec) => {
        const got = await exec.get<{ locked: boolean }>("SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked", [
          `parley:${lock}`,
        ]);
        if (!got?.locked) {
          skipped = true;
          return null;
        }
        return work();
      });
      return skipped ? null : result;
    },
  };

  return { kind: "postgres", storage, counters: pgCounters(pool), ...outside, transaction };
}
