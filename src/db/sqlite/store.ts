import type { Database } from "bun:sqlite";
import type { StorageControls, Store, StoreQueries } from "../store.ts";
import { createLockWait, neverWaitInsideSqlite, probeWrite } from "../write-lock.ts";
import { sqliteAnalytics } from "./analytics.ts";
import { INTEGRATION_OPS } from "../sql/integrations.ts";
import { sqliteKnowledge } from "./knowledge.ts";
import { KNOWLEDGE_SOURCE_OPS } from "../sql/knowledge-sources.ts";
import { sqliteMaintenance, sqlitePrivacy } from "./privacy.ts";
import { sqliteBotConfigs, sqliteChatSessions, sqliteUsage } from "./chat.ts";
import { CAPTURE_OPS } from "../sql/chat.ts";
import { LIVE_EVENT_OPS } from "../sql/live.ts";
import { DESK_OPS } from "../sql/desk.ts";
import { CANNED_REPLY_OPS } from "../sql/inbox.ts";
import { sqliteInbox } from "./inbox.ts";
import { API_KEY_OPS, REFRESH_TOKEN_OPS, SETTING_OPS, USER_OPS } from "../sql/accounts.ts";
import { TEST_SET_OPS, UNANSWERED_OPS } from "../sql/test-set.ts";
import { sqliteOps } from "./statements.ts";
import { DEAD_LETTER_OPS } from "../sql/dead-letters.ts";
import { DELIVERY_OPS, OUTBOX_OPS, WEBHOOK_RULE_OPS } from "../sql/webhooks.ts";
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
  const sync: SyncQueries = {
    tenants: sqliteTenants(sqlite),
    users: sqliteOps(sqlite, USER_OPS),
    apiKeys: sqliteOps(sqlite, API_KEY_OPS),
    refreshTokens: sqliteOps(sqlite, REFRESH_TOKEN_OPS),
    chatSessions: sqliteChatSessions(sqlite),
    usage: sqliteUsage(sqlite),
    captures: sqliteOps(sqlite, CAPTURE_OPS),
    botConfigs: sqliteBotConfigs(sqlite),
    analytics: sqliteAnalytics(sqlite),
    integrations: sqliteOps(sqlite, INTEGRATION_OPS),
    knowledge: sqliteKnowledge(sqlite),
    knowledgeSources: sqliteOps(sqlite, KNOWLEDGE_SOURCE_OPS),
    liveEvents: sqliteOps(sqlite, LIVE_EVENT_OPS),
    desk: sqliteOps(sqlite, DESK_OPS),
    inbox: sqliteInbox(sqlite),
    cannedReplies: sqliteOps(sqlite, CANNED_REPLY_OPS),
    settings: sqliteOps(sqlite, SETTING_OPS),
    privacy: sqlitePrivacy(sqlite),
    maintenance: sqliteMaintenance(sqlite),
    webhookRules: sqliteOps(sqlite, WEBHOOK_RULE_OPS),
    outbox: sqliteOps(sqlite, OUTBOX_OPS),
    deliveries: sqliteOps(sqlite, DELIVERY_OPS),
    deadLetters: sqliteOps(sqlite, DEAD_LETTER_OPS),
    deliveryQueue: sqliteDeliveryQueue(sqlite),
    testSet: sqliteOps(sqlite, TEST_SET_OPS),
    unanswered: sqliteOps(sqlite, UNANSWERED_OPS),
  };
  const gate = gateFor(sqlite);
  const lockWait = createLockWait();
  const mapQueries = (wrap: <T>(aggregate: SyncOf<T>) => T): StoreQueries => ({
    tenants: wrap(sync.tenants),
    users: wrap(sync.users),
    apiKeys: wrap(sync.apiKeys),
    refreshTokens: wrap(sync.refreshTokens),
    chatSessions: wrap(sync.chatSessions),
    usage: wrap(sync.usage),
    captures: wrap(sync.captures),
    botConfigs: wrap(sync.botConfigs),
    analytics: wrap(sync.analytics),
    integrations: wrap(sync.integrations),
    knowledge: wrap(sync.knowledge),
    knowledgeSources: wrap(sync.knowledgeSources),
    liveEvents: wrap(sync.liveEvents),
    desk: wrap(sync.desk),
    inbox: wrap(sync.inbox),
    cannedReplies: wrap(sync.cannedReplies),
    settings: wrap(sync.settings),
    privacy: wrap(sync.privacy),
    maintenance: wrap(sync.maintenance),
    webhookRules: wrap(sync.webhookRules),
    outbox: wrap(sync.outbox),
    deliveries: wrap(sync.deliveries),
    deadLetters: wrap(sync.deadLetters),
    deliveryQueue: wrap(sync.deliveryQueue),
    testSet: wrap(sync.testSet),
    unanswered: wrap(sync.unanswered),
  });
  const outside = mapQueries((aggregate) => outsideTransaction(aggregate, gate, lockWait));

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
