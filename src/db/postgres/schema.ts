import { sql } from "drizzle-orm";
import { bigint, boolean, customType, doublePrecision, index, integer, json, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";

// The PostgreSQL twin of src/db/schema*.ts: the same tables, column names, keys and indexes
// (test/db/postgres-schema.test.ts compares them), with PostgreSQL's types — `bigint` epoch-ms
// times (selected as float8 so they come back as numbers: src/db/postgres/columns.ts),
// `boolean`, `double precision`, `bytea`, and `json` (not jsonb: a bot's config document keeps
// its key order). The row types of src/db/rows.ts stay the SQLite schema's; the test asserts
// these infer the same shapes. Migrations: migrations/postgres (drizzle-kit, dialect postgresql);
// 0001 (custom) gives every text column COLLATE "C" so ids sort byte by byte, as on SQLite.

/** drizzle's pg-core has no bytea builder; the SQLite twin is blob({ mode: "buffer" }). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    sessionId: text("session_id"),
    name: text("name").notNull(),
    day: text("day").notNull(),
    occurredAt: bigint("occurred_at", { mode: "number" }).notNull(),
  },
  (table) => [
    index("analytics_events_tenant_day_idx").on(table.tenantId, table.day),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    lastUsedAt: bigint("last_used_at", { mode: "number" }),
    revokedAt: bigint("revoked_at", { mode: "number" }),
  },
  (table) => [
    index("api_keys_prefix_idx").on(table.prefix),
    index("api_keys_tenant_idx").on(table.tenantId),
  ],
);

export const appointments = pgTable(
  "appointments",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id").notNull(),
    sessionId: text("session_id").notNull(),
    startsAt: bigint("starts_at", { mode: "number" }).notNull(),
    endsAt: bigint("ends_at", { mode: "number" }).notNull(),
    timezone: text("timezone").notNull(),
    name: text("name"),
    phone: text("phone"),
    email: text("email"),
    confidence: doublePrecision("confidence").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [
    uniqueIndex("appointments_slot_idx").on(table.tenantId, table.startsAt),
    index("appointments_tenant_idx").on(table.tenantId, table.id),
    index("appointments_tenant_created_idx").on(table.tenantId, table.createdAt),
  ],
);

export const chatMessages = pgTable(
  "chat_messages",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id").notNull().references(() => chatSessions.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id").notNull(),
    role: text("role", { enum: ["visitor","bot","operator"] as const }).notNull(),
    text: text("text").notNull(),
    quickReplies: json("quick_replies").$type<string[]>(),
    confidence: doublePrecision("confidence"),
    authorId: text("author_id"),
    authorName: text("author_name"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [
    index("chat_messages_session_idx").on(table.sessionId, table.id),
  ],
);

export const chatSessions = pgTable(
  "chat_sessions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id").notNull().references(() => chatbots.id, { onDelete: "cascade" }),
    channel: text("channel").notNull(),
    status: text("status", { enum: ["bot","handoff","closed"] as const }).notNull(),
    state: text("state").notNull(),
    visitorRef: text("visitor_ref"),
    origin: text("origin"),
    messageCount: integer("message_count").notNull().default(0),
    handoffReason: text("handoff_reason"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
    closedAt: bigint("closed_at", { mode: "number" }),
  },
  (table) => [
    index("chat_sessions_tenant_status_id_idx").on(table.tenantId, table.status, table.id),
    index("chat_sessions_tenant_id_idx").on(table.tenantId, table.id),
    index("chat_sessions_tenant_created_idx").on(table.tenantId, table.createdAt),
    index("chat_sessions_visitor_idx").on(table.tenantId, table.channel, table.visitorRef, table.id),
  ],
);

export const chatbots = pgTable(
  "chatbots",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    config: json("config").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (table) => [
    index("chatbots_tenant_idx").on(table.tenantId),
  ],
);

export const deadLetters = pgTable(
  "dead_letters",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id").notNull().references(() => deliveries.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
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

export const deliveries = pgTable(
  "deliveries",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull().references(() => events.id, { onDelete: "cascade" }),
    ruleId: text("rule_id").references(() => webhookRules.id, { onDelete: "set null" }),
    event: text("event").notNull(),
    url: text("url").notNull(),
    status: text("status", { enum: ["pending","succeeded","dead","cancelled"] as const }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    cycle: integer("cycle").notNull().default(1),
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }),
    leaseToken: text("lease_token"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
    completedAt: bigint("completed_at", { mode: "number" }),
  },
  (table) => [
    index("deliveries_due_idx").on(table.nextAttemptAt).where(sql`status = 'pending'`),
    index("deliveries_tenant_idx").on(table.tenantId, table.id),
    index("deliveries_tenant_status_idx").on(table.tenantId, table.status, table.id),
    index("deliveries_tenant_event_idx").on(table.tenantId, table.event, table.id),
    index("deliveries_tenant_rule_idx").on(table.tenantId, table.ruleId, table.id),
    index("deliveries_rule_idx").on(table.ruleId),
    index("deliveries_event_idx").on(table.eventId),
    index("deliveries_completed_idx").on(table.completedAt).where(sql`completed_at IS NOT NULL`),
  ],
);

export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id").notNull().references(() => deliveries.id, { onDelete: "cascade" }),
    cycle: integer("cycle").notNull(),
    attempt: integer("attempt").notNull(),
    startedAt: bigint("started_at", { mode: "number" }).notNull(),
    durationMs: doublePrecision("duration_ms").notNull(),
    ok: boolean("ok").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    responseExcerpt: text("response_excerpt"),
  },
  (table) => [
    index("delivery_attempts_delivery_idx").on(table.deliveryId, table.startedAt),
  ],
);

export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
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

export const knowledgeChunks = pgTable(
  "knowledge_chunks",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    documentId: text("document_id").notNull().references(() => knowledgeDocuments.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    heading: text("heading").notNull(),
    text: text("text").notNull(),
    embedding: bytea("embedding"),
    embeddingModel: text("embedding_model"),
  },
  (table) => [
    index("knowledge_chunks_tenant_idx").on(table.tenantId, table.id),
    index("knowledge_chunks_document_idx").on(table.documentId, table.position),
  ],
);

export const knowledgeDocuments = pgTable(
  "knowledge_documents",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    format: text("format", { enum: ["text","markdown","html"] as const }).notNull(),
    sourceUrl: text("source_url"),
    content: text("content").notNull(),
    bytes: integer("bytes").notNull(),
    chunkCount: integer("chunk_count").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [
    index("knowledge_documents_tenant_idx").on(table.tenantId, table.id),
  ],
);

export const leads = pgTable(
  "leads",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id").notNull(),
    sessionId: text("session_id").notNull(),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    email: text("email").notNull(),
    interest: text("interest").notNull(),
    source: text("source").notNull(),
    confidence: doublePrecision("confidence").notNull(),
    capturedAt: bigint("captured_at", { mode: "number" }).notNull(),
  },
  (table) => [
    index("leads_tenant_idx").on(table.tenantId, table.id),
    index("leads_tenant_captured_idx").on(table.tenantId, table.capturedAt),
  ],
);

export const memberships = pgTable(
  "memberships",
  {
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner","admin","agent"] as const }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.tenantId] }),
    index("memberships_tenant_idx").on(table.tenantId),
  ],
);

export const paymentEvents = pgTable(
  "payment_events",
  {
    provider: text("provider").notNull(),
    providerEventId: text("provider_event_id").notNull(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    receivedAt: bigint("received_at", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.providerEventId, table.tenantId] }),
    index("payment_events_tenant_idx").on(table.tenantId),
    index("payment_events_received_idx").on(table.receivedAt),
  ],
);

export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    familyId: text("family_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    rotatedAt: bigint("rotated_at", { mode: "number" }),
    revokedAt: bigint("revoked_at", { mode: "number" }),
  },
  (table) => [
    uniqueIndex("refresh_tokens_hash_idx").on(table.tokenHash),
    index("refresh_tokens_family_idx").on(table.familyId),
  ],
);

export const settings = pgTable(
  "settings",
  {
    key: text("key").primaryKey(),
    value: text("value").notNull(),
  },
);

export const tenantSecrets = pgTable(
  "tenant_secrets",
  {
    tenantId: text("tenant_id").primaryKey().references(() => tenants.id, { onDelete: "cascade" }),
    paymentSecret: text("payment_secret"),
    whatsappVerifyToken: text("whatsapp_verify_token"),
    whatsappAppSecret: text("whatsapp_app_secret"),
    whatsappAccessToken: text("whatsapp_access_token"),
    whatsappPhoneNumberId: text("whatsapp_phone_number_id"),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
);

export const tenants = pgTable(
  "tenants",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    plan: text("plan").notNull().default("free"),
    sector: text("sector").notNull().default("general"),
    allowedOrigins: json("allowed_origins").$type<string[]>().notNull().default([]),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
);

export const usageCounters = pgTable(
  "usage_counters",
  {
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    messages: integer("messages").notNull().default(0),
    thresholdNotifiedAt: bigint("threshold_notified_at", { mode: "number" }),
    aiCalls: integer("ai_calls").notNull().default(0),
    aiPromptTokens: bigint("ai_prompt_tokens", { mode: "number" }).notNull().default(0),
    aiCompletionTokens: bigint("ai_completion_tokens", { mode: "number" }).notNull().default(0),
    visitorRefused: integer("visitor_refused").notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.period] }),
  ],
);

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    displayName: text("display_name"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
);

export const webhookRules = pgTable(
  "webhook_rules",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    event: text("event").notNull(),
    url: text("url").notNull(),
    secret: text("secret").notNull(),
    minConfidence: doublePrecision("min_confidence"),
    active: boolean("active").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (table) => [
    uniqueIndex("webhook_rules_tenant_event_url_idx").on(table.tenantId, table.event, table.url),
    index("webhook_rules_match_idx").on(table.tenantId, table.event, table.active),
  ],
);

export const whatsappMessages = pgTable(
  "whatsapp_messages",
  {
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    messageId: text("message_id").notNull(),
    receivedAt: bigint("received_at", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.messageId] }),
    index("whatsapp_messages_received_idx").on(table.receivedAt),
  ],
);

