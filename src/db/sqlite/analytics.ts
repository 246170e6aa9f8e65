import type { Database } from "bun:sqlite";
import { ANALYTICS_OPS } from "../sql/analytics.ts";
import type { AnalyticsQueries } from "../store-analytics.ts";
import type { SyncOf } from "./gate.ts";
import { sqliteOps } from "./statements.ts";

export function sqliteAnalytics(sqlite: Database): SyncOf<AnalyticsQueries> {
  const insert = sqlite.prepare(
    "INSERT INTO analytics_events (tenant_id, session_id, name, day, occurred_at) VALUES (?, ?, ?, ?, ?)",
  );
  return {
    ...sqliteOps(sqlite, ANALYTICS_OPS),
    // One statement per row, inside the caller's transaction when there is one (a batch is at most 20).
    // Its twin on PostgreSQL inserts the batch in one statement (src/db/postgres/analytics.ts).
    insertAnalyticsEvents: (rows) => {
      for (const row of rows) insert.run(row.tenantId, row.sessionId, row.name, row.day, row.occurredAt);
    },
  };
}
