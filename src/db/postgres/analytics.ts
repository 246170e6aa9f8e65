import type { AnalyticsQueries } from "../store-analytics.ts";
import type { PgExec } from "./exec.ts";

type DayCount = { day: string; n: number };

/**
 * The UTC day (`YYYY-MM-DD`) of an epoch-ms column, as SQLite's
 * `strftime('%Y-%m-%d', col / 1000, 'unixepoch')`: bigint / 1000 truncates like SQLite's integer division.
 */
const utcDay = (column: string) => `to_char(to_timestamp(${column} / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

// The statements of src/db/sqlite/analytics.ts on PostgreSQL. SQLite's GROUP BY sorts (a temp
// B-tree) and returns the groups in key order; PostgreSQL may hash, so the order is explicit.
// `day` is fixed-width digits and dashes, the same order under any collation; the event names
// are sorted bytewise (COLLATE "C") as SQLite's BINARY.
export function pgAnalytics(db: PgExec): AnalyticsQueries {
  return {
    // One statement for the batch (at most 20 rows): ids follow the order of `rows`, as SQLite's one INSERT per row.
    insertAnalyticsEvents: async (rows) => {
      if (rows.length === 0) return;
      await db.run(
        `INSERT INTO analytics_events (tenant_id, session_id, name, day, occurred_at)
         SELECT r.tenant_id, r.session_id, r.name, r.day, r.occurred_at
         FROM ROWS FROM (json_to_recordset($1::text::json) AS (tenant_id text, session_id text, name text, day text, occurred_at bigint))
           WITH ORDINALITY AS r(tenant_id, session_id, name, day, occurred_at, ord)
         ORDER BY r.ord`,
        [JSON.stringify(rows.map((row) => ({ tenant_id: row.tenantId, session_id: row.sessionId, name: row.name, day: row.day, occurred_at: row.occurredAt })))],
      );
    },
    // PostgreSQL has no DELETE … LIMIT: the ids come from analytics_events_tenant_day_idx, in
    // SQLite's order (its covering index walks (day, rowid)). A negative limit means none, as on SQLite.
    purgeAnalyticsEventsBefore: (tenantId, day, limit) =>
      db.run(
        "DELETE FROM analytics_events WHERE id IN (SELECT id FROM analytics_events WHERE tenant_id = $1 AND day < $2 ORDER BY day, id LIMIT CASE WHEN $3::bigint < 0 THEN NULL ELSE $3::bigint END)",
        [tenantId, day, limit],
      ),
    countConversationsByDay: (tenantId, fromMs, toMs) =>
      db.all<{ day: string; conversations: number; handoffs: number }>(
        `SELECT ${utcDay("created_at")} AS day, count(*)::int AS conversations,
           count(*) FILTER (WHERE handoff_reason IS NOT NULL)::int AS handoffs
         FROM chat_sessions WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3 AND message_count > 0 GROUP BY 1 ORDER BY 1`,
        [tenantId, fromMs, toMs],
      ),
    countLeadsByDay: (tenantId, fromMs, toMs) =>
      db.all<DayCount>(
        `SELECT ${utcDay("captured_at")} AS day, count(*)::int AS n FROM leads WHERE tenant_id = $1 AND captured_at >= $2 AND captured_at < $3 GROUP BY 1 ORDER BY 1`,
        [tenantId, fromMs, toMs],
      ),
    countAppointmentsByDay: (tenantId, fromMs, toMs) =>
      db.all<DayCount>(
        `SELECT ${utcDay("created_at")} AS day, count(*)::int AS n FROM appointments WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1 ORDER BY 1`,
        [tenantId, fromMs, toMs],
      ),
    countWidgetEventsByDay: (tenantId, fromDay, toDay) =>
      db.all<{ day: string; name: string; n: number }>(
        `SELECT day, name, count(*)::int AS n FROM analytics_events WHERE tenant_id = $1 AND day >= $2 AND day <= $3
         GROUP BY day, name ORDER BY day, name COLLATE "C"`,
        [tenantId, fromDay, toDay],
      ),
  };
}
