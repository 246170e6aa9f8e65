import type { Database } from "bun:sqlite";
import type { AnalyticsQueries } from "../store-analytics.ts";
import type { SyncOf } from "./gate.ts";

export function sqliteAnalytics(sqlite: Database): SyncOf<AnalyticsQueries> {
  const insert = sqlite.prepare("INSERT INTO analytics_events (tenant_id, session_id, name, day, occurred_at) VALUES (?, ?, ?, ?, ?)");
  // analytics_events_tenant_day_idx serves the inner query: (tenant_id, day < ?) is one range.
  const purge = sqlite.prepare("DELETE FROM analytics_events WHERE id IN (SELECT id FROM analytics_events WHERE tenant_id = ?1 AND day < ?2 LIMIT ?3)");
  const conversations = sqlite.prepare<{ day: string; conversations: number; handoffs: number }, [string, number, number]>(
    `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, count(*) AS conversations,
       sum(CASE WHEN handoff_reason IS NOT NULL THEN 1 ELSE 0 END) AS handoffs
     FROM chat_sessions WHERE tenant_id = ? AND created_at >= ? AND created_at < ? AND message_count > 0 GROUP BY day`,
  );
  const leads = sqlite.prepare<{ day: string; n: number }, [string, number, number]>(
    "SELECT strftime('%Y-%m-%d', captured_at / 1000, 'unixepoch') AS day, count(*) AS n FROM leads WHERE tenant_id = ? AND captured_at >= ? AND captured_at < ? GROUP BY day",
  );
  const appointments = sqlite.prepare<{ day: string; n: number }, [string, number, number]>(
    "SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, count(*) AS n FROM appointments WHERE tenant_id = ? AND created_at >= ? AND created_at < ? GROUP BY day",
  );
  const widget = sqlite.prepare<{ day: string; name: string; n: number }, [string, string, string]>(
    "SELECT day, name, count(*) AS n FROM analytics_events WHERE tenant_id = ? AND day >= ? AND day <= ? GROUP BY day, name",
  );
  return {
    // One statement per row, inside the caller's transaction when there is one (a batch is at most 20).
    insertAnalyticsEvents: (rows) => {
      for (const row of rows) insert.run(row.tenantId, row.sessionId, row.name, row.day, row.occurredAt);
    },
    purgeAnalyticsEventsBefore: (tenantId, day, limit) => purge.run(tenantId, day, limit).changes,
    countConversationsByDay: (tenantId, fromMs, toMs) => conversations.all(tenantId, fromMs, toMs),
    countLeadsByDay: (tenantId, fromMs, toMs) => leads.all(tenantId, fromMs, toMs),
    countAppointmentsByDay: (tenantId, fromMs, toMs) => appointments.all(tenantId, fromMs, toMs),
    countWidgetEventsByDay: (tenantId, fromDay, toDay) => widget.all(tenantId, fromDay, toDay),
  };
}
