import { bigint, index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tenants, users } from "./schema.ts";
import { chatSessions } from "./schema-chat.ts";

// The PostgreSQL twin of src/db/schema-inbox.ts (see ./schema.ts).

export const sessionDesk = pgTable(
  "session_desk",
  {
    sessionId: text("session_id")
      .primaryKey()
      .references(() => chatSessions.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    pageUrl: text("page_url"),
    handoffAt: bigint("handoff_at", { mode: "number" }),
    assignedTo: text("assigned_to").references(() => users.id, { onDelete: "set null" }),
    assignedAt: bigint("assigned_at", { mode: "number" }),
  },
  (table) => [index("session_desk_assigned_idx").on(table.tenantId, table.assignedTo)],
);

export const inboxReads = pgTable(
  "inbox_reads",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => chatSessions.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id").notNull(),
    lastReadId: text("last_read_id").notNull(),
    readAt: bigint("read_at", { mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.userId] })],
);

export const cannedReplies = pgTable(
  "canned_replies",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    shortcut: text("shortcut").notNull(),
    text: text("text").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (table) => [uniqueIndex("canned_replies_shortcut_idx").on(table.tenantId, table.shortcut)],
);
