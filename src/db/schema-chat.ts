import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { chatbots, tenantIdColumn } from "./schema.ts";

export const SESSION_STATUSES = ["bot", "handoff", "closed"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const chatSessions = sqliteTable(
  "chat_sessions",
  {
    id: text("id").primaryKey(),
    tenantId: tenantIdColumn(),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    /** widget, api (a member's token) or whatsapp. */
    channel: text("channel").notNull(),
    status: text("status", { enum: SESSION_STATUSES }).notNull(),
    /** The reply engine's conversation state (JSON), passed back on the next message. */
    state: text("state").notNull(),
    /** The visitor's address on the channel when there is one (a WhatsApp number). */
    visitorRef: text("visitor_ref"),
    origin: text("origin"),
    messageCount: integer("message_count").notNull().default(0),
    handoffReason: text("handoff_reason"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    closedAt: integer("closed_at"),
  },
  (table) => [
    // Not on updated_at: every message updates that column, and an index on it would be
    // rewritten with each one. Lists are ordered by id (creation time) anyway.
    index("chat_sessions_tenant_status_id_idx").on(table.tenantId, table.status, table.id),
    // The unfiltered list, and the analytics summary's conversations by day (written once per session).
    index("chat_sessions_tenant_id_idx").on(table.tenantId, table.id),
    index("chat_sessions_tenant_created_idx").on(table.tenantId, table.createdAt),
    // Ends in id: "the visitor's newest open session" is then one seek, and the planner never
    // prefers chat_sessions_tenant_id_idx (sorted, but every session of the tenant) for it.
    index("chat_sessions_visitor_idx").on(table.tenantId, table.channel, table.visitorRef, table.id),
  ],
);

/** The chat a row belongs to: erasing the session (a visitor's erasure, retention) deletes the row. */
export function sessionIdColumn() {
  return text("session_id")
    .notNull()
    .references(() => chatSessions.id, { onDelete: "cascade" });
}

export const MESSAGE_ROLES = ["visitor", "bot", "operator"] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export const chatMessages = sqliteTable(
  "chat_messages",
  {
    // Not the primary key: its index would be a third b-tree written with every message, and
    // every reader finds messages by session (chat_messages_session_idx). PostgreSQL keys by it.
    id: text("id").notNull(),
    sessionId: sessionIdColumn(),
    tenantId: text("tenant_id").notNull(),
    role: text("role", { enum: MESSAGE_ROLES }).notNull(),
    text: text("text").notNull(),
    quickReplies: text("quick_replies", { mode: "json" }).$type<string[]>(),
    confidence: real("confidence"),
    /** The operator's user id, for operator messages. */
    authorId: text("author_id"),
    /**
     * The operator's display name as it was when the reply was sent (denormalised on purpose:
     * a rename does not rewrite old transcripts, and reading one needs no join).
     */
    authorName: text("author_name"),
    createdAt: integer("created_at").notNull(),
  },
  // Message ids are time-sortable, so (session_id, id) serves the transcript and ?after= polls;
  // unique, it refuses a message id taken in its chat, as a key on id would.
  (table) => [uniqueIndex("chat_messages_session_idx").on(table.sessionId, table.id)],
);

export const leads = sqliteTable(
  "leads",
  {
    id: text("id").primaryKey(),
    tenantId: tenantIdColumn(),
    chatbotId: text("chatbot_id").notNull(),
    sessionId: text("session_id").notNull(),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    email: text("email").notNull(),
    interest: text("interest").notNull(),
    source: text("source").notNull(),
    confidence: real("confidence").notNull(),
    capturedAt: integer("captured_at").notNull(),
  },
  // The CRM list by id; the analytics summary's leads by day; the inbox's lead of a chat.
  (table) => [
    index("leads_tenant_idx").on(table.tenantId, table.id),
    index("leads_tenant_captured_idx").on(table.tenantId, table.capturedAt),
    index("leads_session_idx").on(table.sessionId),
  ],
);

export const appointments = sqliteTable(
  "appointments",
  {
    id: text("id").primaryKey(),
    tenantId: tenantIdColumn(),
    chatbotId: text("chatbot_id").notNull(),
    sessionId: text("session_id").notNull(),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    timezone: text("timezone").notNull(),
    name: text("name"),
    phone: text("phone"),
    email: text("email"),
    confidence: real("confidence").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [
    // One booking per slot start: two sessions racing for a slot cannot both win.
    uniqueIndex("appointments_slot_idx").on(table.tenantId, table.startsAt),
    index("appointments_tenant_idx").on(table.tenantId, table.id),
    // The analytics summary's appointments by day.
    index("appointments_tenant_created_idx").on(table.tenantId, table.createdAt),
    // The inbox's appointment of a chat.
    index("appointments_session_idx").on(table.sessionId),
  ],
);

/** Messages counted per tenant and calendar month (UTC), for the plan quota. */
export const usageCounters = sqliteTable(
  "usage_counters",
  {
    tenantId: tenantIdColumn(),
    /** YYYY-MM (UTC). */
    period: text("period").notNull(),
    messages: integer("messages").notNull().default(0),
    /** When quota.threshold_reached was emitted for this period: it fires once. */
    thresholdNotifiedAt: integer("threshold_notified_at"),
    /** Language-model use by the assistant this period: calls and tokens as the provider reported them. */
    aiCalls: integer("ai_calls").notNull().default(0),
    aiPromptTokens: integer("ai_prompt_tokens").notNull().default(0),
    aiCompletionTokens: integer("ai_completion_tokens").notNull().default(0),
    /** Anonymous visitor messages and sessions refused this period by the per-IP share or the daily cap. */
    visitorRefused: integer("visitor_refused").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.period] })],
);
