import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenants } from "./schema.ts";

export const RULE_ORDERINGS = ["none", "per_session"] as const;
export type RuleOrdering = (typeof RULE_ORDERINGS)[number];

export const webhookRules = sqliteTable(
  "webhook_rules",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    event: text("event").notNull(),
    url: text("url").notNull(),
    /** Needed in clear to sign; never returned by the API. */
    secret: text("secret").notNull(),
    /** conditions.min_confidence, kept as a column so matching is one indexed query. */
    minConfidence: real("min_confidence"),
    active: integer("active", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** The secret a rotation replaced: deliveries are signed with it too until `previous_secret_until`. */
    previousSecret: text("previous_secret"),
    previousSecretUntil: integer("previous_secret_until"),
    /** At most this many of the rule's deliveries are sent per second; null = no limit. */
    rateLimitPerS: integer("rate_limit_per_s"),
    /** "per_session": the rule's deliveries join their session's ordered stream (docs/webhooks.md); "none" otherwise. */
    ordering: text("ordering", { enum: RULE_ORDERINGS }).notNull().default("none"),
  },
  (table) => [
    uniqueIndex("webhook_rules_tenant_event_url_idx").on(table.tenantId, table.event, table.url),
    index("webhook_rules_match_idx").on(table.tenantId, table.event, table.active),
  ],
);

/** Every emitted event, whether or not a rule matched: the outbox's source of truth. */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    /** Compact JSON of the event's data object, exactly as delivered. */
    data: text("data").notNull(),
    confidence: real("confidence"),
    occurredAt: integer("occurred_at").notNull(),
  },
  (table) => [
    index("events_tenant_idx").on(table.tenantId, table.id),
    // Retention: events older than PARLEY_EVENT_RETENTION are found by time, oldest first.
    index("events_occurred_idx").on(table.occurredAt),
  ],
);

/** `waiting`: an ordered delivery behind an earlier one of its stream; released to `pending` when that one ends. */
export const DELIVERY_STATUSES = ["pending", "waiting", "succeeded", "dead", "cancelled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One row per (event, matching rule); `id` is the webhook_id receivers dedupe on, stable across
 * retries. A claim is a lease that runs out: a sender that dies leaves the row due again.
 */
export const deliveries = sqliteTable(
  "deliveries",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    ruleId: text("rule_id").references(() => webhookRules.id, { onDelete: "set null" }),
    event: text("event").notNull(),
    /** The rule's URL when enqueued, for the log; sends use the rule's current URL and secret. */
    url: text("url").notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull(),
    /** Attempts made in the current cycle (a re-trigger starts a new cycle at 0). */
    attempts: integer("attempts").notNull().default(0),
    cycle: integer("cycle").notNull().default(1),
    nextAttemptAt: integer("next_attempt_at"),
    /** Random per claim: a sender whose lease expired cannot overwrite the new claimant's result. */
    leaseToken: text("lease_token"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    completedAt: integer("completed_at"),
    /** An ordered delivery's stream (tenant, URL, session: src/webhooks/ordered-streams.ts); null = not ordered. */
    streamKey: text("stream_key"),
    /** While `waiting`: the delivery of the same stream it is sent after. */
    waitsFor: text("waits_for"),
  },
  (table) => [
    // The scheduler's only polling query: pending rows by due time.
    index("deliveries_due_idx").on(table.nextAttemptAt).where(sql`status = 'pending'`),
    index("deliveries_tenant_idx").on(table.tenantId, table.id),
    // The delivery log's filters: each an equality then id, so a filtered page is one index range.
    index("deliveries_tenant_status_idx").on(table.tenantId, table.status, table.id),
    index("deliveries_tenant_event_idx").on(table.tenantId, table.event, table.id),
    index("deliveries_tenant_rule_idx").on(table.tenantId, table.ruleId, table.id),
    index("deliveries_rule_idx").on(table.ruleId),
    // The cascade from events and retention's "any delivery left?" look deliveries up by event.
    index("deliveries_event_idx").on(table.eventId),
    // Retention: finished deliveries (succeeded, cancelled, dead) by the time they finished.
    index("deliveries_completed_idx").on(table.completedAt).where(sql`completed_at IS NOT NULL`),
    // Ordered delivery: a stream's unfinished rows, and who waits behind a delivery; only ordered rows.
    index("deliveries_stream_idx").on(table.streamKey, table.status).where(sql`stream_key IS NOT NULL`),
    index("deliveries_waits_for_idx").on(table.waitsFor).where(sql`waits_for IS NOT NULL`),
  ],
);

export const deliveryAttempts = sqliteTable(
  "delivery_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    cycle: integer("cycle").notNull(),
    attempt: integer("attempt").notNull(),
    startedAt: integer("started_at").notNull(),
    durationMs: real("duration_ms").notNull(),
    ok: integer("ok", { mode: "boolean" }).notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    responseExcerpt: text("response_excerpt"),
    /** The headers sent, as JSON; the body is rebuilt from the event and X-Service-Signature. */
    requestHeaders: text("request_headers"),
  },
  (table) => [index("delivery_attempts_delivery_idx").on(table.deliveryId, table.startedAt)],
);

export const deadLetters = sqliteTable(
  "dead_letters",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    ruleId: text("rule_id"),
    event: text("event").notNull(),
    attempts: integer("attempts").notNull(),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deadAt: integer("dead_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (table) => [
    uniqueIndex("dead_letters_delivery_idx").on(table.deliveryId),
    // The list is ordered by id (ids sort by time of death); `since` is checked on the way.
    index("dead_letters_tenant_idx").on(table.tenantId, table.id),
    index("dead_letters_tenant_event_idx").on(table.tenantId, table.event, table.id),
    index("dead_letters_expiry_idx").on(table.expiresAt),
  ],
);
