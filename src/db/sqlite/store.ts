import type { Database } from "bun:sqlite";
import type { StorageControls, Store, StoreQueries } from "../store.ts";
import { createLockWait, neverWaitInsideSqlite, probeWrite } from "../write-lock.ts";
import { sharedAggregates } from "../sql/aggregates.ts";
import { sqliteAnalytics } from "./analytics.ts";
import { sqliteKnowledge } from "./knowledge.ts";
import { sqliteMaintenance, sqlitePrivacy } from "./privacy.ts";
import { sqliteBotConfigs, sqliteChatSessions, sqliteUsage } from "./chat.ts";
import { sqliteInbox } from "./inbox.ts";
import { sqliteSearchVocabulary } from "./search-vocabulary.ts";
import { sqliteOps } from "./statements.ts";
import { sqliteDeliveryQueue } from "./delivery-queue.ts";
import { gateFor, outsideTransaction, type SyncOf } from "./gate.ts";
import { createGroupCommit, type SyncQueries } from "./group-commit.ts";
import { sqliteTenants } from "./tenants.ts";

/**
 * The SQLite store: bun:sqlite underneath, synchronous and prepared once per connection, behind
 * the async seam. A call outside a transaction runs its statement at once and hands back an
 * already-settled promise, so the hot paths pay for one promise, not for a thread hop.
 */
export function createSqliteStore(handle: { sqlite: Database }): Store {
  const { sqlite } = handle;
  const vocabulary = sqliteSearchVocabulary(sqlite);
  const sync: SyncQueries = {
    ...sharedAggregates<SyncQueries>((ops) => sqliteOps(sqlite, ops)),
    tenants: sqliteTenants(sqlite),
    chatSessions: sqliteChatSessions(sqlite),
    usage: sqliteUsage(sqlite),
    botConfigs: sqliteBotConfigs(sqlite),
    analytics: sqliteAnalytics(sqlite),
    knowledge: sqliteKnowledge(sqlite),
    inbox: sqliteInbox(sqlite, vocabulary),
    privacy: sqlitePrivacy(sqlite, vocabulary),
    maintenance: sqliteMaintenance(sqlite),
    deliveryQueue: sqliteDeliveryQueue(sqlite),
  };
  const gate = gateFor(sqlite);
  const lockWait = createLockWait();
  const outside = Object.fromEntries(
    Object.entries(sync).map(([name, aggregate]) => [
      name,
      outsideTransaction(aggregate as SyncOf<unknown>, gate, lockWait),
    ]),
  ) as unknown as StoreQueries;

  /**
   * BEGIN IMMEDIATE (the write lock up front, DESIGN §7), the callback, COMMIT — then the
   * onCommit hooks; transactions started in the same turn share one BEGIN … COMMIT, each in
   * its own SAVEPOINT (group commit, `group-commit.ts`). Why a gate rather than running the
   * callback's statements synchronously: the callback is async (the same code runs on
   * PostgreSQL, where every statement is a round trip), so it yields between statements; the
   * gate keeps every other store call on this connection out of the open transaction until it
   * ends. The server's connection has busy_timeout 0, so BEGIN IMMEDIATE fails at once with
   * SQLITE_BUSY while another process holds the lock; the group then waits on timers and tries
   * again, for PARLEY_WRITE_WAIT at most (then 503 busy, src/http/errors.ts; src/db/write-lock.ts).
   */
  const transaction = createGroupCommit(sqlite, gate, sync, lockWait);

  const storage: StorageControls = {
    // The probe is a transaction of its own: it takes its turn after an open one.
    probeWrite: async () => {
      while (gate.held) await gate.whenFree();
      return probeWrite(sqlite);
    },
    neverWaitForLocks: (waitMs) => neverWaitInsideSqlite(sqlite, lockWait, waitMs),
    // One server per file (src/db/server-lock.ts): there is no other instance to leave it to.
    exclusively: (_lock, work) => work(),
  };

  // The scheduler's results join a group commit that is forming (chat under load). Alone, a
  // record paid a BEGIN … COMMIT of its own for every webhook sent, and under chat load the
  // COMMIT of a transaction that small is a large share of a webhook (docs/hot-path.md); in a group it
  // is one more SAVEPOINT (bun:sqlite nests the aggregate's transaction as one) and its pages go
  // out with the group's COMMIT. With no group forming (a backlog drained, no chat) it commits
  // alone and at once, as before: going through a group there cost a drain ~3 %.
  const { recordAttempts } = sync.deliveryQueue;
  const deliveryQueue: StoreQueries["deliveryQueue"] = {
    ...outside.deliveryQueue,
    recordAttempts: (attempts) =>
      transaction.forming()
        ? transaction(async () => recordAttempts(attempts))
        : outside.deliveryQueue.recordAttempts(attempts),
  };

  return { kind: "sqlite", storage, counters: null, ...outside, deliveryQueue, transaction };
}
