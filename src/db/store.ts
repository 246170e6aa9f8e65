import type { AnalyticsQueries } from "./store-analytics.ts";
import type { LiveEventQueries } from "./store-live.ts";
import type { DeskQueries } from "./store-desk.ts";
import type { CannedReplyQueries, InboxQueries } from "./store-inbox.ts";
import type { IntegrationQueries } from "./store-integrations.ts";
import type { KnowledgeQueries } from "./store-knowledge.ts";
import type { KnowledgeSourceQueries } from "./store-knowledge-sources.ts";
import type { MaintenanceQueries, PrivacyQueries } from "./store-privacy.ts";
import type { BotConfigQueries, CaptureQueries, ChatSessionQueries, UsageQueries } from "./store-chat.ts";
import type {
  ApiKeyQueries,
  RefreshTokenQueries,
  SettingQueries,
  TenantQueries,
  UserQueries,
} from "./store-accounts.ts";
import type {
  DeadLetterQueries,
  DeliveryQueries,
  DeliveryQueueQueries,
  OutboxQueries,
  WebhookRuleQueries,
} from "./store-webhooks.ts";
import type { TestSetQueries, UnansweredQueries } from "./store-test-set.ts";
import type { SharedCounters } from "../lib/shared-window.ts";

export type { SharedCounters, SlidingHits } from "../lib/shared-window.ts";

export type * from "./rows.ts";
export type * from "./store-accounts.ts";
export type * from "./store-analytics.ts";
export type * from "./store-chat.ts";
export type * from "./store-integrations.ts";
export type * from "./store-knowledge.ts";
export type * from "./store-knowledge-sources.ts";
export type * from "./store-live.ts";
export type * from "./store-desk.ts";
export type * from "./store-inbox.ts";
export type * from "./store-privacy.ts";
export type * from "./store-webhooks.ts";
export type * from "./store-test-set.ts";

/**
 * Every aggregate of the store. Each function is one SQL operation (a claim or a batch of
 * results is one atomic operation with its own transaction), named for what it does, and
 * returns rows typed from the drizzle schema (src/db/rows.ts).
 */
export interface StoreQueries {
  readonly tenants: TenantQueries;
  readonly users: UserQueries;
  readonly apiKeys: ApiKeyQueries;
  readonly refreshTokens: RefreshTokenQueries;
  readonly chatSessions: ChatSessionQueries;
  readonly usage: UsageQueries;
  readonly captures: CaptureQueries;
  readonly botConfigs: BotConfigQueries;
  readonly analytics: AnalyticsQueries;
  readonly integrations: IntegrationQueries;
  readonly knowledge: KnowledgeQueries;
  readonly knowledgeSources: KnowledgeSourceQueries;
  readonly liveEvents: LiveEventQueries;
  readonly desk: DeskQueries;
  readonly inbox: InboxQueries;
  readonly cannedReplies: CannedReplyQueries;
  readonly settings: SettingQueries;
  readonly privacy: PrivacyQueries;
  readonly maintenance: MaintenanceQueries;
  readonly webhookRules: WebhookRuleQueries;
  readonly outbox: OutboxQueries;
  readonly deliveries: DeliveryQueries;
  readonly deadLetters: DeadLetterQueries;
  readonly deliveryQueue: DeliveryQueueQueries;
  readonly testSet: TestSetQueries;
  readonly unanswered: UnansweredQueries;
}

/** The same aggregates, bound to one open transaction. */
export interface Transaction extends StoreQueries {
  /**
   * Runs `hook` after the transaction commits (never when it rolls back): wake-ups such as
   * `deliveriesEnqueued` must not reach a listener that would look for rows not yet committed.
   */
  onCommit(hook: () => void): void;
}

/** A sliding window's answer: whether the hit was admitted, and the admitted hits' times still inside it. */
/** How the store copes with contention and a full disk (DESIGN §7); PostgreSQL answers these trivially. */
export interface StorageControls {
  /** /readyz: can the store take a write now? */
  probeWrite(): Promise<"ok" | "busy" | "storage_full">;
  /**
   * The server's mode: no statement waits inside the driver for a lock, which would block the
   * event loop (SQLite: busy_timeout 0). A statement or transaction that meets another
   * process's lock (a CLI command, a backup) waits on timers instead, for `waitMs` at most, and
   * then fails busy (503). PostgreSQL: nothing to do (its waits never block the thread).
   */
  neverWaitForLocks(waitMs: number): void;
  /**
   * Housekeeping that one process at a time should do (purges, retention sweeps): runs `work`
   * and returns its result, or returns null at once when another process is running work under
   * the same `lock` name. PostgreSQL: a transaction-scoped advisory lock held while `work` runs
   * (several instances share one database). SQLite: always runs (one server per file).
   */
  exclusively<T>(lock: string, work: () => Promise<T>): Promise<T | null>;
}

/**
 * The one async seam between Parley's domain code and its database (DESIGN §7).
 * Domain code calls `deps.store.<aggregate>.<operation>(…)` and, for writes that belong
 * together, `deps.store.transaction(async (tx) => …)`: everything done through `tx` commits or
 * rolls back together, and `tx.onCommit` hooks run after the commit.
 *
 * Inside `transaction`, use `tx` only — calling `deps.store` there waits for the transaction to
 * end, which it never does (on SQLite the connection is shared and transactions take turns) —
 * and do no real I/O (a fetch, a model call): a transaction holds the database's write lock.
 */
export interface Store extends StoreQueries {
  readonly kind: "sqlite" | "postgres";
  readonly storage: StorageControls;
  /**
   * Counters every process on the database shares (rate limits, visitor allowances), or null
   * when this process is the only server (SQLite: one server per file) and counts in memory.
   */
  readonly counters: SharedCounters | null;
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}
