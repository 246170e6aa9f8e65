import { bigint, boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { tenants } from "./schema.ts";
import { chatSessions } from "./schema-chat.ts";

// The PostgreSQL twin of src/db/schema-desk.ts (see ./schema.ts).

export const handoffs = pgTable(
  "handoffs",
  {
    sessionId: text("session_id")
      .primaryKey()
      .references(() => chatSessions.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    handoffAt: bigint("handoff_at", { mode: "number" }).notNull(),
    withinBusinessHours: boolean("within_business_hours").notNull(),
    firstReplyAt: bigint("first_reply_at", { mode: "number" }),
    seenMessageId: text("seen_message_id"),
  },
  (table) => [index("handoffs_tenant_idx").on(table.tenantId, table.handoffAt)],
);

export const sessionRatings = pgTable(
  "session_ratings",
  {
    sessionId: text("session_id")
      .primaryKey()
      .references(() => chatSessions.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    score: integer("score").notNull(),
    comment: text("comment"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [index("session_ratings_tenant_idx").on(table.tenantId, table.createdAt)],
);
