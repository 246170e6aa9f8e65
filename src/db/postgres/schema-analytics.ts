import { bigint, index, pgTable, text } from "drizzle-orm/pg-core";
import { tenants } from "./schema.ts";

// The PostgreSQL twin of src/db/schema-analytics.ts (see ./schema.ts).

export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    sessionId: text("session_id"),
    name: text("name").notNull(),
    day: text("day").notNull(),
    occurredAt: bigint("occurred_at", { mode: "number" }).notNull(),
  },
  (table) => [index("analytics_events_tenant_day_idx").on(table.tenantId, table.day)],
);
