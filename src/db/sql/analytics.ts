import { asNumber, many, type Ops, write } from "../statements.ts";
import type { AnalyticsQueries } from "../store-analytics.ts";

// Groups are ordered explicitly: SQLite's GROUP BY happens to sort, PostgreSQL may hash. Days and
// event names sort bytewise on both (BINARY, COLLATE "C").

type DayCount = { day: string; n: unknown };
const toDayCounts = (rows: DayCount[]) => rows.map((row) => ({ ...row, n: asNumber(row.n) }));

export const ANALYTICS_OPS: Ops<Omit<AnalyticsQueries, "insertAnalyticsEvents">> = {
  // analytics_events_tenant_day_idx serves the inner query: (tenant_id, day < ?) is one range.
  purgeAnalyticsEventsBefore: write(
    (d) =>
      `DELETE FROM analytics_events WHERE id IN (
         SELECT id FROM analytics_events WHERE tenant_id = $1 AND day < $2 ORDER BY day, id LIMIT ${d.limit("$3")})`,
    (tenantId, day, limit) => [tenantId, day, limit],
  ),
  countConversationsByDay: many(
    (d) => `SELECT ${d.utcDay("created_at")} AS day, count(*) AS conversations,
       sum(CASE WHEN handoff_reason IS NOT NULL THEN 1 ELSE 0 END) AS handoffs
     FROM chat_sessions WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3 AND message_count > 0 GROUP BY day ORDER BY day`,
    (tenantId, fromMs, toMs) => [tenantId, fromMs, toMs],
    (rows: Array<{ day: string; conversations: unknown; handoffs: unknown }>) =>
      rows.map((row) => ({
        day: row.day,
        conversations: asNumber(row.conversations),
        handoffs: asNumber(row.handoffs),
      })),
  ),
  countLeadsByDay: many(
    (d) => `SELECT ${d.utcDay("captured_at")} AS day, count(*) AS n FROM leads
     WHERE tenant_id = $1 AND captured_at >= $2 AND captured_at < $3 GROUP BY day ORDER BY day`,
    (tenantId, fromMs, toMs) => [tenantId, fromMs, toMs],
    toDayCounts,
  ),
  countAppointmentsByDay: many(
    (d) => `SELECT ${d.utcDay("created_at")} AS day, count(*) AS n FROM appointments
     WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY day ORDER BY day`,
    (tenantId, fromMs, toMs) => [tenantId, fromMs, toMs],
    toDayCounts,
  ),
  countWidgetEventsByDay: many(
    `SELECT day, name, count(*) AS n FROM analytics_events WHERE tenant_id = $1 AND day >= $2 AND day <= $3
     GROUP BY day, name ORDER BY day, name`,
    (tenantId, fromDay, toDay) => [tenantId, fromDay, toDay],
    (rows: Array<{ day: string; name: string; n: unknown }>) => rows.map((row) => ({ ...row, n: asNumber(row.n) })),
  ),
};
