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

/** Every aggregate: one SQL operation per function (docs/storage.md), rows typed from the schema. */
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
  /** After COMMIT only: a wake-up must not reach a listener before its rows are visible. */
  onCommit(hook: () => void): void;
}

/** How the store copes with contention and a full disk (DESIGN §7); PostgreSQL answers these trivially. */
export interface StorageControls {
  /** /readyz. */
  probeWrite(): Promise<"ok" | "busy" | "storage_full">;
  /** The server's mode: a lock wait inside the driver would block the event loop, so wait on timers, `waitMs` at most. */
  neverWaitForLocks(waitMs: number): void;
  /** Housekeeping for one process at a time: null at once when another holds `lock` (SQLite: always runs). */
  exclusively<T>(lock: string, work: () => Promise<T>): Promise<T | null>;
}

/**
 * The one async seam between domain code and the database (docs/storage.md). Inside `transaction`
 * use `tx` only (a call through the store would wait for the transaction itself on SQLite) and do
 * no real I/O: a transaction holds the write lock.
 */
export interface Store extends StoreQueries {
  readonly kind: "sqlite" | "postgres";
  readonly storage: StorageControls;
  /** Counters shared by every process on the database; null when this one is the only server. */
  readonly counters: SharedCounters | null;
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}
