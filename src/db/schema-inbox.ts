import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenantIdColumn, users } from "./schema.ts";
import { sessionIdColumn } from "./schema-chat.ts";

/** The front desk's view of a chat, beside the session so the chat hot path never writes it. */
export const sessionDesk = sqliteTable(
  "session_desk",
  {
    sessionId: sessionIdColumn().primaryKey(),
    tenantId: tenantIdColumn(),
    pageUrl: text("page_url"),
    assignedTo: text("assigned_to").references(() => users.id, { onDelete: "set null" }),
    assignedAt: integer("assigned_at"),
  },
  (table) => [index("session_desk_assigned_idx").on(table.tenantId, table.assignedTo)],
);

/** How far each person has read each chat: the inbox's unread count is the visitor's messages after it. */
export const inboxReads = sqliteTable(
  "inbox_reads",
  {
    sessionId: sessionIdColumn(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id").notNull(),
    lastReadId: text("last_read_id").notNull(),
    readAt: integer("read_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.userId] })],
);

/** A tenant's saved answers, inserted into the reply box by `/shortcut`. */
export const cannedReplies = sqliteTable(
  "canned_replies",
  {
    id: text("id").primaryKey(),
    tenantId: tenantIdColumn(),
    shortcut: text("shortcut").notNull(),
    text: text("text").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [uniqueIndex("canned_replies_shortcut_idx").on(table.tenantId, table.shortcut)],
);
