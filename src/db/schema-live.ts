import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tenantIdColumn } from "./schema.ts";
import { sessionIdColumn } from "./schema-chat.ts";

/**
 * The front desk's live events, kept a short while: the id is the stream's `id:`, so a dropped
 * connection resumes with Last-Event-ID and another process's rows are seen too.
 */
export const liveEvents = sqliteTable(
  "live_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: tenantIdColumn(),
    sessionId: sessionIdColumn(),
    kind: text("kind").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [
    index("live_events_tenant_idx").on(table.tenantId, table.id),
    index("live_events_session_idx").on(table.sessionId, table.id),
    index("live_events_created_idx").on(table.createdAt),
  ],
);
