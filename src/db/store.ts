import type { AnalyticsQueries } from "./store-analytics.ts";
import type { IntegrationQueries } from "./store-integrations.ts";
import type { KnowledgeQueries } from "./store-knowledge.ts";
import type { MaintenanceQueries, PrivacyQueries } from "./store-privacy.ts";
import type { BotConfigQueries, CaptureQueries, ChatSessionQueries, UsageQueries } from "./store-chat.ts";
import type { ApiKeyQueries, RefreshTokenQueries, SettingQueries, TenantQueries, UserQueries } from "./store-accounts.ts";
import type { DeadLetterQueries, DeliveryQueries, DeliveryQueueQueries, OutboxQueries, WebhookRuleQueries } from "./store-webhooks.ts";

export type * from "./rows.ts";
export type * from "./store-accounts.ts";
export type * from "./store-analytics.ts";
export type * from "./store-chat.ts";
export type * from "./store-integrations.ts";
export type * from "./store-knowledge.ts";
export type * from "./store-privacy.ts";
export type * from "./store-webhooks.ts";

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
  readonly settings: SettingQueries;
  readonly privacy: PrivacyQueries;
  readonly maintenance: MaintenanceQueries;
  readonly webhookRules: WebhookRuleQueries;
  readonly outbox: OutboxQueries;
  readonly deliveries: DeliveryQueries;
  readonly deadLetters: DeadLetterQueries;
  readonly deliveryQueue: DeliveryQueueQueries;
}

/** The same aggregates, bound to one open transaction. */
export interface Transaction extends StoreQueries {
  /**
   * Runs `hook` after the transaction commits (never when it rolls back): wake-ups such as
   * `deliveriesEnqueued` must not reach a listener that would look for rows not yet committed.
   */
  onCommit(hook: () => void): void;
}

/** How the store copes with contention and a full disk (DESIGN §7); PostgreSQL answers these trivially. */
export interface StorageControls {
  /**
   * Waits, on timers and never blocking the event loop, until a write could start; false when
   * `budgetMs` passes first (the caller answers 503 busy). On SQLite another process (a CLI
   * command, a backup) may hold the file's write lock.
   */
  waitForWriteLock(budgetMs: number): Promise<boolean>;
  /** /readyz: can the store take a write now? */
  probeWrite(): Promise<"ok" | "busy" | "storage_full">;
  /** The server's mode: no statement waits inside the driver for a lock (SQLite: busy_timeout 0). */
  neverWaitForLocks(): void;
}

/**
 * The one async seam between Parley's domain code and its database (DESIGN §7, issue 12).
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
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}
