import { bigint, index, json, pgTable, text } from "drizzle-orm/pg-core";
import { tenants } from "./schema.ts";
import { chatSessions } from "./schema-chat.ts";

// The PostgreSQL twin of src/db/schema-live.ts (see ./schema.ts).

export const liveEvents = pgTable(
  "live_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    sessionId: text("session_id")
      .notNull()
      .references(() => chatSessions.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    data: json("data").$type<Record<string, unknown>>().notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [
    index("live_events_tenant_idx").on(table.tenantId, table.id),
    index("live_events_session_idx").on(table.sessionId, table.id),
    index("live_events_created_idx").on(table.createdAt),
  ],
);
