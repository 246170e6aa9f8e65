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
    // A statement a row costs nothing in-process; the PostgreSQL twin sends the batch in one.
    insertAnalyticsEvents: (rows) => {
      for (const row of rows) insert.run(row.tenantId, row.sessionId, row.name, row.day, row.occurredAt);
    },
  };
}
