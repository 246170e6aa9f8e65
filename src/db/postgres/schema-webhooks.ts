import { sql } from "drizzle-orm";
import { bigint, boolean, doublePrecision, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tenants } from "./schema.ts";

// The PostgreSQL twin of src/db/schema-webhooks.ts (see ./schema.ts).

export const webhookRules = pgTable(
  "webhook_rules",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    event: text("event").notNull(),
    url: text("url").notNull(),
    secret: text("secret").notNull(),
    minConfidence: doublePrecision("min_confidence"),
    active: boolean("active").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
    previousSecret: text("previous_secret"),
    previousSecretUntil: bigint("previous_secret_until", { mode: "number" }),
    rateLimitPerS: integer("rate_limit_per_s"),
    ordering: text("ordering", { enum: ["none", "per_session"] as const })
      .notNull()
      .default("none"),
  },
  (table) => [
    uniqueIndex("webhook_rules_tenant_event_url_idx").on(table.tenantId, table.event, table.url),
    index("webhook_rules_match_idx").on(table.tenantId, table.event, table.active),
  ],
);

export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    data: text("data").notNull(),
    confidence: doublePrecision("confidence"),
    occurredAt: bigint("occurred_at", { mode: "number" }).notNull(),
  },
  (table) => [
    index("events_tenant_idx").on(table.tenantId, table.id),
    index("events_occurred_idx").on(table.occurredAt),
  ],
);

export const deliveries = pgTable(
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
    url: text("url").notNull(),
    status: text("status", { enum: ["pending", "waiting", "succeeded", "dead", "cancelled"] as const }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    cycle: integer("cycle").notNull().default(1),
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }),
    leaseToken: text("lease_token"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
    completedAt: bigint("completed_at", { mode: "number" }),
    streamKey: text("stream_key"),
    waitsFor: text("waits_for"),
  },
  (table) => [
    // The claims' order (due time, then id) and filter: a walk of it stops at the claim's window.
    index("deliveries_due_idx").on(table.nextAttemptAt, table.id).where(sql`status = 'pending'`),
    index("deliveries_tenant_idx").on(table.tenantId, table.id),
    index("deliveries_tenant_status_idx").on(table.tenantId, table.status, table.id),
    index("deliveries_tenant_event_idx").on(table.tenantId, table.event, table.id),
    // One index for a rule's deliveries (the delivery list's rule filter, the rule's deletion):
    // every state change of a delivery writes an entry in each index of this table.
    index("deliveries_rule_idx").on(table.ruleId, table.id),
    index("deliveries_event_idx").on(table.eventId),
    index("deliveries_completed_idx").on(table.completedAt).where(sql`completed_at IS NOT NULL`),
    index("deliveries_stream_idx").on(table.streamKey, table.status).where(sql`stream_key IS NOT NULL`),
    index("deliveries_waits_for_idx").on(table.waitsFor).where(sql`waits_for IS NOT NULL`),
  ],
);

export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    cycle: integer("cycle").notNull(),
    attempt: integer("attempt").notNull(),
    startedAt: bigint("started_at", { mode: "number" }).notNull(),
    durationMs: doublePrecision("duration_ms").notNull(),
    ok: boolean("ok").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    responseExcerpt: text("response_excerpt"),
    requestHeaders: text("request_headers"),
  },
  (table) => [index("delivery_attempts_delivery_idx").on(table.deliveryId, table.startedAt)],
);

export const deadLetters = pgTable(
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
    deadAt: bigint("dead_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (table) => [
    uniqueIndex("dead_letters_delivery_idx").on(table.deliveryId),
    index("dead_letters_tenant_idx").on(table.tenantId, table.id),
    index("dead_letters_tenant_event_idx").on(table.tenantId, table.event, table.id),
    index("dead_letters_expiry_idx").on(table.expiresAt),
  ],
);
