import type { Database } from "bun:sqlite";
import type { AppointmentRow, ChatSessionRow, LeadRow } from "../rows.ts";
import { appointments, chatSessions, leads } from "../schema.ts";
import type { MaintenanceQueries, PrivacyQueries } from "../store-privacy.ts";
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";

// Erasure and export look people up by lists of identifiers: statements are built per call
// (the list length varies) and run rarely, on request.

const placeholders = (count: number) => Array.from({ length: count }, () => "?").join(", ");

const COLUMN = { id: "id", sessionId: "session_id", phone: "phone", visitorRef: "visitor_ref" } as const;
const TABLE = { events: "events", analyticsEvents: "analytics_events", appointments: "appointments", leads: "leads", chatSessions: "chat_sessions" } as const;

export function sqlitePrivacy(sqlite: Database): SyncOf<PrivacyQueries> {
  const select = <Row>(sql: string, params: Array<string | number>): Row[] => sqlite.prepare<Row, Array<string | number>>(sql).all(...params);
  const leadColumns = selectColumns(leads);
  const appointmentColumns = selectColumns(appointments);
  const sessionColumns = selectColumns(chatSessions, "s");
  const whereIn = <Row>(columns: string, table: string, tenantId: string, column: string, values: readonly string[]): Row[] =>
    values.length === 0 ? [] : select<Row>(`SELECT ${columns} FROM ${table} WHERE tenant_id = ? AND ${column} IN (${placeholders(values.length)})`, [tenantId, ...values]);
  // Only tenants that set a retention; the rest keep everything (the default).
  const retention = sqlite.prepare<{ tenantId: string; chatDays: number | null; analyticsDays: number | null }, []>(
    `SELECT tenant_id AS "tenantId", json_extract(config, '$.retention.chat_days') AS "chatDays", json_extract(config, '$.retention.analytics_days') AS "analyticsDays"
     FROM chatbots
     WHERE json_extract(config, '$.retention.chat_days') IS NOT NULL OR json_extract(config, '$.retention.analytics_days') IS NOT NULL`,
  );
  // Sessions created before the cutoff (an id range: ids sort by creation time) whose last
  // activity is too. The status list lets chat_sessions_tenant_status_id_idx serve the id range
  // instead of a scan of the tenant's sessions; no index on updated_at, which every message rewrites.
  // Messages go with their session (ON DELETE CASCADE).
  const purgeSessions = sqlite.prepare(
    `DELETE FROM chat_sessions WHERE id IN (
       SELECT id FROM chat_sessions
       WHERE tenant_id = ?1 AND status IN ('bot', 'handoff', 'closed') AND id < ?2 AND updated_at <= ?3
       LIMIT ?4)`,
  );
  return {
    findLeads: (tenantId, by, values) => whereIn<LeadRow>(leadColumns, "leads", tenantId, COLUMN[by], values),
    findAppointments: (tenantId, by, values) => whereIn<AppointmentRow>(appointmentColumns, "appointments", tenantId, COLUMN[by], values),
    findLeadsByEmail: (tenantId, emails) =>
      emails.length === 0 ? [] : select<LeadRow>(`SELECT ${leadColumns} FROM leads WHERE tenant_id = ? AND lower(email) IN (${placeholders(emails.length)})`, [tenantId, ...emails]),
    findAppointmentsByEmail: (tenantId, emails) =>
      emails.length === 0
        ? []
        : select<AppointmentRow>(`SELECT ${appointmentColumns} FROM appointments WHERE tenant_id = ? AND lower(email) IN (${placeholders(emails.length)})`, [tenantId, ...emails]),
    findSessions: (tenantId, by, values) => whereIn<ChatSessionRow>(sessionColumns, "chat_sessions s", tenantId, COLUMN[by], values),
    findSessionsMentioning: (tenantId, needles) => {
      if (needles.length === 0) return [];
      const lowered = needles.map((needle) => needle.toLowerCase());
      const matchText = lowered.map(() => "instr(lower(m.text), ?) > 0").join(" OR ");
      const matchState = lowered.map(() => "instr(lower(s.state), ?) > 0").join(" OR ");
      return select<ChatSessionRow>(
        `SELECT ${sessionColumns} FROM chat_sessions s WHERE s.tenant_id = ? AND ((${matchState})
           OR EXISTS (SELECT 1 FROM chat_messages m WHERE m.session_id = s.id AND (${matchText})))`,
        [tenantId, ...lowered, ...lowered],
      );
    },
    listMessagesOfSessions: (sessionIds) =>
      sessionIds.length === 0
        ? []
        : select(
            `SELECT id, session_id AS "sessionId", role, text, author_name AS "authorName", created_at AS "createdAt" FROM chat_messages WHERE session_id IN (${placeholders(sessionIds.length)}) ORDER BY session_id, id`,
            [...sessionIds],
          ),
    findEventsMentioning: (tenantId, needles) => {
      if (needles.length === 0) return [];
      const lowered = [...new Set(needles.map((needle) => needle.toLowerCase()))];
      return select(
        `SELECT id, event, data, occurred_at AS "occurredAt" FROM events WHERE tenant_id = ? AND (${lowered.map(() => "instr(lower(data), ?) > 0").join(" OR ")}) ORDER BY id`,
        [tenantId, ...lowered],
      );
    },
    listDeliveriesOfEvents: (eventIds) =>
      eventIds.length === 0
        ? []
        : select(
            `SELECT id, event_id AS "eventId", rule_id AS "ruleId", url, status, attempts, created_at AS "createdAt", completed_at AS "completedAt"
             FROM deliveries WHERE event_id IN (${placeholders(eventIds.length)}) ORDER BY id`,
            [...eventIds],
          ),
    listAnalyticsOfSessions: (tenantId, sessionIds) =>
      sessionIds.length === 0
        ? []
        : select(
            `SELECT id, session_id AS "sessionId", name, occurred_at AS "occurredAt" FROM analytics_events WHERE tenant_id = ? AND session_id IN (${placeholders(sessionIds.length)}) ORDER BY id`,
            [tenantId, ...sessionIds],
          ),
    deleteRows: (table, ids) => {
      // Chunks keep each statement well under SQLite's bound-parameter limit.
      for (let start = 0; start < ids.length; start += 500) {
        const chunk = ids.slice(start, start + 500);
        sqlite.prepare(`DELETE FROM ${TABLE[table]} WHERE id IN (${placeholders(chunk.length)})`).run(...chunk);
      }
    },
    listTenantRetention: () => retention.all(),
    purgeInactiveSessions: (tenantId, beforeId, cutoffMs, limit) => purgeSessions.run(tenantId, beforeId, cutoffMs, limit).changes,
  };
}

export function sqliteMaintenance(sqlite: Database): SyncOf<MaintenanceQueries> {
  return {
    checkpoint: () => {
      sqlite.exec("PRAGMA wal_checkpoint(PASSIVE)");
    },
  };
}
