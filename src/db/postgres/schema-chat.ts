import {
  bigint,
  doublePrecision,
  index,
  integer,
  json,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { chatbots, tenants } from "./schema.ts";

// The PostgreSQL twin of src/db/schema-chat.ts (see ./schema.ts).

export const chatSessions = pgTable(
  "chat_sessions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    chatbotId: text("chatbot_id")
      .notNull()
      .references(() => chatbots.id, { onDelete: "cascade" }),
    channel: text("channel").notNull(),
    status: text("status", { enum: ["bot", "handoff", "closed"] as const }).notNull(),
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

export const chatMessages = pgTable(
  "chat_messages",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => chatSessions.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id").notNull(),
    role: text("role", { enum: ["visitor", "bot", "operator"] as const }).notNull(),
    text: text("text").notNull(),
    quickReplies: json("quick_replies").$type<string[]>(),
    confidence: doublePrecision("confidence"),
    authorId: text("author_id"),
    authorName: text("author_name"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [index("chat_messages_session_idx").on(table.sessionId, table.id)],
);

export const leads = pgTable(
  "leads",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
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
    index("leads_session_idx").on(table.sessionId),
  ],
);

export const appointments = pgTable(
  "appointments",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
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
    index("appointments_session_idx").on(table.sessionId),
  ],
);

export const usageCounters = pgTable(
  "usage_counters",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    messages: integer("messages").notNull().default(0),
    thresholdNotifiedAt: bigint("threshold_notified_at", { mode: "number" }),
    aiCalls: integer("ai_calls").notNull().default(0),
    aiPromptTokens: bigint("ai_prompt_tokens", { mode: "number" }).notNull().default(0),
    aiCompletionTokens: bigint("ai_completion_tokens", { mode: "number" }).notNull().default(0),
    visitorRefused: integer("visitor_refused").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.period] })],
);
