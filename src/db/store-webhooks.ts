import type { DeadLetterRow, DeliveryAttemptRow, DeliveryRow, EventRow, WebhookRuleRow } from "./rows.ts";

/** A due row as the fair share sees it before the lease. */
export interface ClaimCandidate {
  id: string;
  tenantId: string;
  /** null when the rule was deleted: the row is cancelled and takes no slot. */
  url: string | null;
}

/** How one webhook attempt ended, as the delivery log records it. */
export interface AttemptResult {
  ok: boolean;
  /** null when no response arrived (refused, DNS, TLS, forbidden). */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The response body's first 1 KiB, for the delivery log. */
  responseExcerpt: string | null;
}

/** A rule as created: no rotation under way, and a rate limit only when asked for. */
export type NewWebhookRule = Omit<WebhookRuleRow, RotationColumns | "rateLimitPerS" | "ordering"> &
  Partial<Pick<WebhookRuleRow, "rateLimitPerS" | "ordering">>;
type RotationColumns = "previousSecret" | "previousSecretUntil";

/** The secret a rotation replaced, still signing until `previousSecretUntil` (epoch ms). */
export interface PreviousSecret {
  previousSecret: string | null;
  previousSecretUntil: number | null;
}

export interface WebhookRuleQueries {
  findRule(tenantId: string, ruleId: string): Promise<WebhookRuleRow | null>;
  /** Unscoped, for the administrator's CLI. */
  findRuleTenantId(ruleId: string): Promise<string | null>;
  /** (tenant, event, url) is unique. */
  findRuleIdByTarget(tenantId: string, event: string, url: string): Promise<string | null>;
  countRules(tenantId: string): Promise<number>;
  insertRule(row: NewWebhookRule): Promise<void>;
  updateRule(ruleId: string, changes: Partial<Omit<WebhookRuleRow, "id" | "tenantId">>): Promise<void>;
  deleteRule(ruleId: string): Promise<void>;
  listRules(tenantId: string, afterId: string | null, limit: number): Promise<WebhookRuleRow[]>;
}

/** Where a new event's deliveries go: a rule's id and URL. */
export interface DeliveryTarget extends PreviousSecret {
  id: string;
  url: string;
  rateLimitPerS: number | null;
  /** Signs a delivery handed to the scheduler at enqueue. */
  secret: string;
  /** "per_session": the delivery joins its session's stream (src/webhooks/ordered-streams.ts). */
  ordering: WebhookRuleRow["ordering"];
}

export interface NewDelivery {
  id: string;
  tenantId: string;
  eventId: string;
  ruleId: string;
  event: string;
  url: string;
  now: number;
  /** Leased to this process's scheduler from the start (docs/hot-path.md §3): not due until it runs out. */
  lease?: { token: string; until: number } | null;
  streamKey?: string | null;
  /** The stream's delivery this one follows: written `waiting`, not due, until that one ends. */
  waitsFor?: string | null;
}

/** The transactional outbox (src/webhooks/emit-event.ts): used inside a transaction only. */
export interface OutboxQueries {
  insertEvent(row: EventRow): Promise<void>;
  /** Active rules for the event whose min_confidence the confidence meets, by id. */
  listMatchingTargets(tenantId: string, event: string, confidence: number): Promise<DeliveryTarget[]>;
  /** One rule as a target, whatever it matches (the rule test endpoint). */
  listRuleTarget(tenantId: string, ruleId: string): Promise<DeliveryTarget[]>;
  /** Attempts 0, cycle 1: due at `now`, leased until `lease.until`, or waiting behind `waitsFor`. */
  insertPendingDelivery(delivery: NewDelivery): Promise<void>;
  /** Serialises these streams' writers until the transaction ends (PostgreSQL: advisory locks). */
  lockStreams(streamKeys: readonly string[]): Promise<void>;
  /** The stream's last unfinished delivery (none waiting behind it), or null. */
  findStreamTail(streamKey: string): Promise<string | null>;
  /** Deletes up to `limit` events that occurred at or before `cutoffMs` and have no delivery left. */
  purgeSpentEvents(cutoffMs: number, limit: number): Promise<number>;
}

export interface DeliveryFilter {
  status?: string;
  event?: string;
  ruleId?: string;
}

export interface DeliveryCounts {
  total: number;
  succeeded: number;
  dead: number;
}

export interface RuleDeliveryCounts extends DeliveryCounts {
  ruleId: string;
  /** Of the newest delivery. */
  lastStatus: string;
  lastStatusCode: number | null;
  lastAt: number;
}

export interface DeliveryState {
  id: string;
  status: string;
  attempts: number;
  leased: boolean;
}

export interface DeliveryQueries {
  /** Newest first, before `beforeId` when given. */
  listDeliveries(
    tenantId: string,
    filter: DeliveryFilter,
    beforeId: string | null,
    limit: number,
  ): Promise<DeliveryRow[]>;
  findDelivery(tenantId: string, deliveryId: string): Promise<DeliveryRow | null>;
  /** What a delivery's body is built from. */
  findEventBody(eventId: string): Promise<{ data: string; occurredAt: number } | null>;
  /** Every attempt of every cycle, oldest first. */
  listAttempts(deliveryId: string): Promise<DeliveryAttemptRow[]>;
  /** Held back by its rule's rate limit: due at `dueAt`, unleased; false when the lease is not this claim's. */
  postponeLeasedDelivery(deliveryId: string, leaseToken: string, dueAt: number, now: number): Promise<boolean>;
  /** Up to `limit` deliveries finished at or before `cutoffMs`, with their attempts. */
  purgeSpentDeliveries(cutoffMs: number, limit: number): Promise<number>;
  /** Per rule, deliveries with id >= `fromId` (ids sort by creation time). */
  countDeliveriesByRule(tenantId: string, fromId: string): Promise<RuleDeliveryCounts[]>;
  /** Per UTC day of creation, deliveries with id >= `fromId`. */
  countDeliveriesByDay(tenantId: string, fromId: string): Promise<Array<DeliveryCounts & { day: string }>>;
  /** What a waiting delivery's reason names. */
  describeDeliveryStates(tenantId: string, deliveryIds: readonly string[]): Promise<DeliveryState[]>;
  /** Waiting deliveries whose predecessor is gone (erased) or ended without releasing them: due at `now`. */
  releaseStrandedWaiters(now: number): Promise<number>;
  /** Attempts count every cycle. */
  describeDeliveries(
    tenantId: string,
    deliveryIds: readonly string[],
  ): Promise<Array<{ id: string; url: string; totalAttempts: number }>>;
}

export interface DeadLetterFilter {
  /** null = every tenant (the administrator's CLI). */
  tenantId: string | null;
  event?: string;
  /** Died at or after (epoch ms). */
  sinceMs?: number;
}

export interface DeadLetterQueries {
  /** Not expired at `now`, newest first. */
  listLiveDeadLetters(
    filter: DeadLetterFilter,
    now: number,
    beforeId: string | null,
    limit: number,
  ): Promise<DeadLetterRow[]>;
  findLiveDeadLetter(deadLetterId: string, now: number): Promise<DeadLetterRow | null>;
  deleteDeadLetter(deadLetterId: string): Promise<void>;
  /** One statement, so nothing races a re-trigger; null when there is no such live letter. */
  discardDeadLetter(
    tenantId: string,
    deadLetterId: string,
    now: number,
  ): Promise<{ id: string; deliveryId: string } | null>;
  /** A fresh cycle (attempts 0, due at `now` or waiting behind `waitsFor`); false when it is not dead. */
  restartDeadDelivery(deliveryId: string, now: number, waitsFor?: string | null): Promise<boolean>;
  /** Oldest first: they re-enter their streams one by one. */
  listRuleDeadStreamDeliveries(
    tenantId: string,
    ruleId: string,
    sinceMs: number,
  ): Promise<Array<{ id: string; streamKey: string }>>;
  /** Runs before recoverRuleDeliveries. */
  deleteRuleDeadLettersSince(tenantId: string, ruleId: string, sinceMs: number): Promise<number>;
  /** A fresh cycle for each dead or retry-waiting delivery (not one in flight); dead ordered ones re-enter their streams instead. */
  recoverRuleDeliveries(tenantId: string, ruleId: string, sinceMs: number, now: number): Promise<number>;
  /** Their delivery log stays. */
  purgeExpiredDeadLetters(now: number): Promise<number>;
}

export interface ClaimedDelivery extends Partial<PreviousSecret> {
  rateLimitPerS?: number | null;
  id: string;
  tenantId: string;
  ruleId: string;
  event: string;
  attempts: number;
  cycle: number;
  leaseToken: string;
  url: string;
  secret: string;
  data: string;
  occurredAt: number;
  /** Absent when not known. */
  streamKey?: string | null;
}

export interface FairClaim {
  claimed: ClaimedDelivery[];
  /** Rows were left for a cap or the window was full: claim again soon. */
  more: boolean;
}

/** What the claim needs of the scheduler's fair share (src/scheduler/fair-share.ts). */
export interface FairSharePicker {
  fullTenants(): string[];
  fullEndpoints(): string[];
  /** The same objects: a store may pass whole rows. */
  pick<T extends ClaimCandidate>(candidates: readonly T[], limit: number): T[];
}

export interface FinishedAttempt {
  delivery: ClaimedDelivery;
  result: AttemptResult;
  startedAt: number;
  finishedAt: number;
  /** For the attempt log; the body is rebuilt from the event. */
  requestHeaders?: Record<string, string>;
}

/** What a finished attempt leads to, decided by the retry policy (src/webhooks/retry-policy.ts). */
export type AttemptDecision =
  | { outcome: "succeeded" }
  | { outcome: "retry"; nextAttemptAt: number }
  | { outcome: "dead"; expiresAt: number };

/** A finished attempt and its decision: the store writes the decision, it does not make it. */
export interface RecordedAttempt extends FinishedAttempt {
  decision: AttemptDecision;
}

export type AttemptOutcome = "succeeded" | "retry" | "dead" | "stale";

export interface QueueGauges {
  due: number;
  pending: number;
  waiting: number;
  deadLetters: number;
}

/** The scheduler's queue: each claim and each batch of results is atomic on its own (docs/storage.md). */
export interface DeliveryQueueQueries {
  /** In due order; rows whose rule is gone are cancelled. */
  claimDueDeliveries(now: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /** Only the rows the fair share picks; the rest stay due untouched. */
  claimFairShare(now: number, limit: number, leaseMs: number, fair: FairSharePicker): Promise<FairClaim>;
  /** Atomically; each result is guarded by its lease token ("stale" when another sender holds the row). */
  recordAttempts(attempts: RecordedAttempt[]): Promise<AttemptOutcome[]>;
  /** Unsent deliveries still holding `leaseToken` due at `now` again. */
  releaseLeases(ids: string[], leaseToken: string, now: number): Promise<number>;
  queueGauges(now: number): Promise<QueueGauges>;
}
