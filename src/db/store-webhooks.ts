import type { DeadLetterRow, DeliveryAttemptRow, DeliveryRow, EventRow, WebhookRuleRow } from "./rows.ts";

// The webhook aggregates of the store seam (src/db/store.ts): one SQL operation per function,
// named for what it does. Both stores (SQLite and PostgreSQL) implement these.

/** A due row as the claim sees it before leasing: enough for the fair share to decide whether it may go now. */
export interface ClaimCandidate {
  id: string;
  tenantId: string;
  /** null when the rule was deleted: such a row is cancelled, it takes no slot. */
  url: string | null;
}

/** How one webhook attempt ended, as the delivery log records it. */
export interface AttemptResult {
  ok: boolean;
  /** The receiver's status, or null when no response arrived (refused, DNS, TLS, forbidden). */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The first 1 KiB of the response body as UTF-8, for the delivery log. */
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
  /** The tenant a rule belongs to, whoever asks (the administrator's CLI); null when there is no such rule. */
  findRuleTenantId(ruleId: string): Promise<string | null>;
  /** The id of the tenant's rule for this event and URL, if there is one (they are unique). */
  findRuleIdByTarget(tenantId: string, event: string, url: string): Promise<string | null>;
  countRules(tenantId: string): Promise<number>;
  insertRule(row: NewWebhookRule): Promise<void>;
  updateRule(ruleId: string, changes: Partial<Omit<WebhookRuleRow, "id" | "tenantId">>): Promise<void>;
  deleteRule(ruleId: string): Promise<void>;
  /** The tenant's rules by id, after `afterId` when given; `limit` rows at most. */
  listRules(tenantId: string, afterId: string | null, limit: number): Promise<WebhookRuleRow[]>;
}

/** Where a new event's deliveries go: a rule's id and URL. */
export interface DeliveryTarget extends PreviousSecret {
  id: string;
  url: string;
  /** The rule's rate_limit_per_s, null for none. */
  rateLimitPerS: number | null;
  /** The rule's signing secret: a delivery handed to the scheduler at enqueue is signed with it. */
  secret: string;
  /** "per_session": the delivery joins its session's ordered stream (src/webhooks/ordered-streams.ts). */
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
  /** Leased to this process's scheduler from the start (emit-event.ts): not due until it runs out. */
  lease?: { token: string; until: number } | null;
  /** An ordered delivery's stream; null or absent when it is not ordered. */
  streamKey?: string | null;
  /** The delivery of its stream it is sent after: it is written `waiting`, not due, until that one ends. */
  waitsFor?: string | null;
}

/** The transactional outbox (src/webhooks/emit-event.ts): used inside a transaction only. */
export interface OutboxQueries {
  insertEvent(row: EventRow): Promise<void>;
  /** Active rules of the tenant for the event whose min_confidence the confidence meets, by id. */
  listMatchingTargets(tenantId: string, event: string, confidence: number): Promise<DeliveryTarget[]>;
  /** One rule of the tenant as a target, whatever it matches (the rule test endpoint). */
  listRuleTarget(tenantId: string, ruleId: string): Promise<DeliveryTarget[]>;
  /**
   * A new delivery, attempts 0, cycle 1: due at `now`, or leased until `lease.until`; or, with
   * `waitsFor`, waiting (not due) until that delivery of its stream ends.
   */
  insertPendingDelivery(delivery: NewDelivery): Promise<void>;
  /**
   * Serialises the writers of these ordered streams until the transaction ends (PostgreSQL: an
   * advisory lock per stream, taken in one order; SQLite's writes are serial already).
   */
  lockStreams(streamKeys: readonly string[]): Promise<void>;
  /** The stream's last unfinished delivery (pending or waiting, none waiting behind it); null when there is none. */
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
  /** The newest delivery's status, status code and last change. */
  lastStatus: string;
  lastStatusCode: number | null;
  lastAt: number;
}

export interface DeliveryState {
  id: string;
  status: string;
  attempts: number;
  /** Claimed by a sender right now. */
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
  /** A delivery's event data (compact JSON) and time: what its body is built from. */
  findEventBody(eventId: string): Promise<{ data: string; occurredAt: number } | null>;
  /** Every attempt of every cycle, oldest first. */
  listAttempts(deliveryId: string): Promise<DeliveryAttemptRow[]>;
  /**
   * A claimed delivery its rule's rate limit holds back: due again at `dueAt`, unleased, its
   * attempts untouched; false when the lease is no longer this claim's.
   */
  postponeLeasedDelivery(deliveryId: string, leaseToken: string, dueAt: number, now: number): Promise<boolean>;
  /** Deletes up to `limit` finished deliveries (with their attempts) finished at or before `cutoffMs`. */
  purgeSpentDeliveries(cutoffMs: number, limit: number): Promise<number>;
  /** Per rule, the tenant's deliveries with id >= `fromId` (ids sort by creation time). */
  countDeliveriesByRule(tenantId: string, fromId: string): Promise<RuleDeliveryCounts[]>;
  /** Per UTC day of creation (YYYY-MM-DD), the tenant's deliveries with id >= `fromId`, by day. */
  countDeliveriesByDay(tenantId: string, fromId: string): Promise<Array<DeliveryCounts & { day: string }>>;
  /** Where the tenant's deliveries among `deliveryIds` stand: what a waiting delivery's reason names. */
  describeDeliveryStates(tenantId: string, deliveryIds: readonly string[]): Promise<DeliveryState[]>;
  /**
   * Waiting deliveries whose predecessor is gone (an erasure deleted it with its event) or
   * ended without releasing them are made due at `now`; returns how many.
   */
  releaseStrandedWaiters(now: number): Promise<number>;
  /** URL and attempts across every cycle of the tenant's deliveries among `deliveryIds`. */
  describeDeliveries(
    tenantId: string,
    deliveryIds: readonly string[],
  ): Promise<Array<{ id: string; url: string; totalAttempts: number }>>;
}

export interface DeadLetterFilter {
  /** null = every tenant (the administrator's CLI). */
  tenantId: string | null;
  event?: string;
  /** Only dead letters that died at or after this time (epoch ms). */
  sinceMs?: number;
}

export interface DeadLetterQueries {
  /** Live (not expired at `now`) dead letters, newest first, before `beforeId` when given. */
  listLiveDeadLetters(
    filter: DeadLetterFilter,
    now: number,
    beforeId: string | null,
    limit: number,
  ): Promise<DeadLetterRow[]>;
  findLiveDeadLetter(deadLetterId: string, now: number): Promise<DeadLetterRow | null>;
  deleteDeadLetter(deadLetterId: string): Promise<void>;
  /** Deletes the tenant's live dead letter in one statement; null when there is none such. */
  discardDeadLetter(
    tenantId: string,
    deadLetterId: string,
    now: number,
  ): Promise<{ id: string; deliveryId: string } | null>;
  /**
   * A fresh cycle for a dead delivery (same id, attempts 0, due at `now`, or waiting behind
   * `waitsFor` of its stream); false when it is not dead.
   */
  restartDeadDelivery(deliveryId: string, now: number, waitsFor?: string | null): Promise<boolean>;
  /** The rule's dead ordered deliveries created at or after `sinceMs`, oldest first: they re-enter their streams one by one. */
  listRuleDeadStreamDeliveries(
    tenantId: string,
    ruleId: string,
    sinceMs: number,
  ): Promise<Array<{ id: string; streamKey: string }>>;
  /** Deletes the dead letters of the rule's dead deliveries created at or after `sinceMs` (before recoverRuleDeliveries). */
  deleteRuleDeadLettersSince(tenantId: string, ruleId: string, sinceMs: number): Promise<number>;
  /**
   * A fresh cycle, due at `now`, for each of the rule's deliveries created at or after `sinceMs`
   * that is dead or waiting for a retry (not one being sent); returns how many. Dead ordered
   * deliveries are left out: they re-enter their streams (restartDeadDelivery).
   */
  recoverRuleDeliveries(tenantId: string, ruleId: string, sinceMs: number, now: number): Promise<number>;
  /** The sweeper: dead letters past their retention are deleted (their delivery log stays). */
  purgeExpiredDeadLetters(now: number): Promise<number>;
}

export interface ClaimedDelivery extends Partial<PreviousSecret> {
  /** The rule's rate_limit_per_s (src/scheduler/rule-rate-limit.ts); absent or null for none. */
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
  /** Its ordered stream (src/webhooks/ordered-streams.ts), null for none; absent when not known. */
  streamKey?: string | null;
}

export interface FairClaim {
  claimed: ClaimedDelivery[];
  /** Due rows were left for later because of a cap, or the window was full: claim again soon. */
  more: boolean;
}

/** What the claim needs of the scheduler's fair share (src/scheduler/fair-share.ts). */
export interface FairSharePicker {
  fullTenants(): string[];
  fullEndpoints(): string[];
  /** The candidates that may go now, as the same objects (a store may pass whole rows). */
  pick<T extends ClaimCandidate>(candidates: readonly T[], limit: number): T[];
}

export interface FinishedAttempt {
  delivery: ClaimedDelivery;
  result: AttemptResult;
  startedAt: number;
  finishedAt: number;
  /** The headers sent, for the attempt log (the body is rebuilt from the event and the signature). */
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
  /** Ordered deliveries held behind an earlier delivery of their stream. */
  waiting: number;
  deadLetters: number;
}

/**
 * The scheduler's queue. Each claim and each batch of results is one atomic operation of its
 * own (its own transaction): on SQLite BEGIN IMMEDIATE, on PostgreSQL `FOR UPDATE SKIP LOCKED`
 * so that several instances never claim the same row.
 */
export interface DeliveryQueueQueries {
  /** Leases up to `limit` due deliveries in due order; rows whose rule is gone are cancelled. */
  claimDueDeliveries(now: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /** Like claimDueDeliveries, but only the due rows the fair share picks; the rest stay due untouched. */
  claimFairShare(now: number, limit: number, leaseMs: number, fair: FairSharePicker): Promise<FairClaim>;
  /**
   * Records finished attempts and writes each one's decision, atomically (one transaction, or
   * one statement); each result is guarded by its lease token ("stale" when another sender
   * holds the row now).
   */
  recordAttempts(attempts: RecordedAttempt[]): Promise<AttemptOutcome[]>;
  /** Makes leased, unsent deliveries due at `now` again (those still holding `leaseToken`); returns how many. */
  releaseLeases(ids: string[], leaseToken: string, now: number): Promise<number>;
  queueGauges(now: number): Promise<QueueGauges>;
}
