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

/**
 * A transaction's aggregates, each made at its first use and kept: a chat message touches a few
 * of the 26, and making all of them (a closure per statement) cost ~30 µs of CPU a transaction
 * plus its garbage. Getters on one shared prototype, so a transaction costs one object.
 */
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

/** SQLSTATEs after which the whole transaction may simply run again: deadlock, serialization. */
const RETRYABLE = new Set(["40P01", "40001"]);
const MAX_TRIES = 3;

/** SQLSTATEs after which a write probe only waited for others' locks: lock or statement timeout, deadlock, serialization. */
const PROBE_BUSY = new Set(["55P03", "57014", "40P01", "40001"]);

function sqlState(error: unknown): string | null {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === "string" ? errno : null;
}

/**
 * The PostgreSQL store: Bun's built-in client (no native addon, the binary stays one file),
 * a pool of connections, every aggregate directly async. A transaction takes a pooled
 * connection of its own (`BEGIN … COMMIT`) at its first write (lazy-transaction.ts), so no gate:
 * other requests' statements run beside it. A chat message that writes only its turn's end
 * shares that statement, and its commit, with the turns ending at the same time (chat-batch.ts).
 * `onCommit` hooks run after COMMIT. A deadlock or serialization failure runs the callback again
 * (at most 3 times): callbacks do no I/O but through `tx` (src/db/store.ts).
 */
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
        // As over SQLite (src/db/write-lock.ts): a full disk, or a write that waits its turn
        // behind another's lock, is trouble that passes; anything else — the server gone, the
        // pool closed — is not ready (/readyz answers 503 not_ready).
        const state = sqlState(error);
        if (state === "53100") return "storage_full";
        if (state !== null && PROBE_BUSY.has(state)) return "busy";
        throw error;
      }
    },
    // PostgreSQL takes row locks, not a file lock, and its waits never block the thread.
    neverWaitForLocks: () => {},
    // The lock lives as long as a transaction on a connection of its own; `work` runs its
    // statements on other connections meanwhile. Another instance's try fails at once.
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
