import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tenantIdColumn } from "./schema.ts";
import { sessionIdColumn } from "./schema-chat.ts";

/**
 * A session's first hand-off to a person: the reply waits (takeovers left out: nobody waited) give
 * the widget's expected reply time; `seen_message_id` is its "Seen". Erased with the session.
 */
export const handoffs = sqliteTable(
  "handoffs",
  {
    sessionId: sessionIdColumn().primaryKey(),
    tenantId: tenantIdColumn(),
    handoffAt: integer("handoff_at").notNull(),
    withinBusinessHours: integer("within_business_hours", { mode: "boolean" }).notNull(),
    takenOver: integer("taken_over", { mode: "boolean" }).notNull().default(false),
    firstReplyAt: integer("first_reply_at"),
    seenMessageId: text("seen_message_id"),
  },
  (table) => [index("handoffs_tenant_idx").on(table.tenantId, table.handoffAt)],
);

/** The visitor's 1–5 rating of a chat a person closed, once per session (the Overview's CSAT). */
export const sessionRatings = sqliteTable(
  "session_ratings",
  {
    sessionId: sessionIdColumn().primaryKey(),
    tenantId: tenantIdColumn(),
    score: integer("score").notNull(),
    comment: text("comment"),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [index("session_ratings_tenant_idx").on(table.tenantId, table.createdAt)],
);
