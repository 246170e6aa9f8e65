import { ANALYTICS_OPS } from "../sql/analytics.ts";
import type { AnalyticsQueries } from "../store-analytics.ts";
import type { PgExec } from "./exec.ts";
import { pgOps } from "./statements.ts";

export function pgAnalytics(db: PgExec): AnalyticsQueries {
  return {
    ...pgOps(db, ANALYTICS_OPS),
    // One round trip for the batch; ids follow the order of `rows`, as on SQLite.
    insertAnalyticsEvents: async (rows) => {
      if (rows.length === 0) return;
      await db.run(
        `INSERT INTO analytics_events (tenant_id, session_id, name, day, occurred_at)
         SELECT r.tenant_id, r.session_id, r.name, r.day, r.occurred_at
         FROM ROWS FROM (json_to_recordset($1::text::json) AS (tenant_id text, session_id text, name text, day text, occurred_at bigint))
           WITH ORDINALITY AS r(tenant_id, session_id, name, day, occurred_at, ord)
         ORDER BY r.ord`,
        [
          JSON.stringify(
            rows.map((row) => ({
              tenant_id: row.tenantId,
              session_id: row.sessionId,
              name: row.name,
              day: row.day,
              occurred_at: row.occurredAt,
            })),
          ),
        ],
      );
    },
  };
}
