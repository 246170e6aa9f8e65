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

/** Synchronous statements prepared once per connection; a call outside a transaction settles at once. */
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

  // Group commit behind the gate (docs/storage.md, "Why a gate").
  const transaction = createGroupCommit(sqlite, gate, sync, lockWait);

  const storage: StorageControls = {
    // A transaction of its own: it takes its turn after an open one.
    probeWrite: async () => {
      while (gate.held) await gate.whenFree();
      return probeWrite(sqlite);
    },
    neverWaitForLocks: (waitMs) => neverWaitInsideSqlite(sqlite, lockWait, waitMs),
    // One server per file: no other instance to leave it to.
    exclusively: (_lock, work) => work(),
  };

  // Results join a forming group, one more SAVEPOINT instead of a COMMIT of their own; with none
  // forming they commit alone at once (docs/hot-path.md §2).
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
