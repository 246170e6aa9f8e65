import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tenantIdColumn } from "./schema.ts";

/** Widget telemetry: one row per event a visitor's widget reported. */
export const analyticsEvents = sqliteTable(
  "analytics_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: tenantIdColumn(),
    sessionId: text("session_id"),
    name: text("name").notNull(),
    /** YYYY-MM-DD (UTC) of `occurred_at`, the grouping key of the daily summary. */
    day: text("day").notNull(),
    occurredAt: integer("occurred_at").notNull(),
  },
  (table) => [index("analytics_events_tenant_day_idx").on(table.tenantId, table.day)],
);
