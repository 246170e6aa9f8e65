import type { AppointmentRow, ChatSessionRow, LeadRow } from "../rows.ts";
import type { MaintenanceQueries, PrivacyQueries } from "../store-privacy.ts";
import { pgColumns } from "./columns.ts";
import type { PgExec } from "./exec.ts";
import { appointments, chatSessions, leads } from "./schema.ts";

// Erasure, export and chat retention on PostgreSQL: the statements of src/db/sqlite/privacy.ts,
// with the id lists as one array parameter (`= ANY($n)`) instead of a statement per list length.
// SQLite's finders have no ORDER BY and come back in its index order, which is the id order
// for these lookups; here every list says ORDER BY id.

const COLUMN = { id: "id", sessionId: "session_id", phone: "phone", visitorRef: "visitor_ref" } as const;
const TABLE = { events: "events", analyticsEvents: "analytics_events", appointments: "appointments", leads: "leads", chatSessions: "chat_sessions" } as const;

/**
 * A retention setting as SQLite's json_extract gives it, from the value's JSON type and its
 * text (`#>>`): numbers as numbers, true/false as 1/0, JSON null or a missing key as null, a
 * string as itself and an object or array as its (minified) JSON text.
 */
function retentionValue(type: string | null, text: string | null): number | null {
  if (type === null || text === null || type === "null") return null;
  if (type === "number") return Number(text);
  if (type === "boolean") return text === "true" ? 1 : 0;
  // Not a number: what json_extract would return, whatever the declared type says.
  return (type === "string" ? text : JSON.stringify(JSON.parse(text))) as unknown as number;
}

export function pgPrivacy(db: PgExec): PrivacyQueries {
  const leadColumns = pgColumns(leads);
  const appointmentColumns = pgColumns(appointments);
  const sessionColumns = pgColumns(chatSessions, "s");
  const whereIn = async <Row>(columns: string, table: string, tenantId: string, column: string, values: readonly string[]): Promise<Row[]> =>
    values.length === 0 ? [] : db.all<Row>(`SELECT ${columns} FROM ${table} WHERE tenant_id = $1 AND ${column} = ANY($2::text[]) ORDER BY id`, [tenantId, [...values]]);
  return {
    findLeads: (tenantId, by, values) => whereIn<LeadRow>(leadColumns, "leads", tenantId, COLUMN[by], values),
    findAppointments: (tenantId, by, values) => whereIn<AppointmentRow>(appointmentColumns, "appointments", tenantId, COLUMN[by], values),
    findLeadsByEmail: (tenantId, emails) => whereIn<LeadRow>(leadColumns, "leads", tenantId, "lower(email)", emails),
    findAppointmentsByEmail: (tenantId, emails) => whereIn<AppointmentRow>(appointmentColumns, "appointments", tenantId, "lower(email)", emails),
    findSessions: (tenantId, by, values) => whereIn<ChatSessionRow>(sessionColumns, "chat_sessions s", tenantId, `s.${COLUMN[by]}`, values),
    findSessionsMentioning: async (tenantId, needles) => {
      if (needles.length === 0) return [];
      const lowered = needles.map((needle) => needle.toLowerCase());
      return db.all<ChatSessionRow>(
        `SELECT ${sessionColumns} FROM chat_sessions s WHERE s.tenant_id = $1 AND (
           EXISTS (SELECT 1 FROM unnest($2::text[]) AS n(needle) WHERE position(n.needle IN lower(s.state)) > 0)
           OR EXISTS (SELECT 1 FROM chat_messages m WHERE m.session_id = s.id AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS n(needle) WHERE position(n.needle IN lower(m.text)) > 0)))
         ORDER BY s.id`,
        [tenantId, lowered],
      );
    },
    listMessagesOfSessions: async (sessionIds) =>
      sessionIds.length === 0
        ? []
        : db.all(
            `SELECT id, session_id AS "sessionId", role, text, author_name AS "authorName", created_at::float8 AS "createdAt" FROM chat_messages WHERE session_id = ANY($1::text[]) ORDER BY session_id, id`,
            [[...sessionIds]],
          ),
    findEventsMentioning: async (tenantId, needles) => {
      if (needles.length === 0) return [];
      const lowered = [...new Set(needles.map((needle) => needle.toLowerCase()))];
      return db.all(
        `SELECT id, event, data, occurred_at::float8 AS "occurredAt" FROM events
          WHERE tenant_id = $1 AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS n(needle) WHERE position(n.needle IN lower(data)) > 0)
          ORDER BY id`,
        [tenantId, lowered],
      );
    },
    listDeliveriesOfEvents: async (eventIds) =>
      eventIds.length === 0
        ? []
        : db.all(
            `SELECT id, event_id AS "eventId", rule_id AS "ruleId", url, status, attempts, created_at::float8 AS "createdAt", completed_at::float8 AS "completedAt"
             FROM deliveries WHERE event_id = ANY($1::text[]) ORDER BY id`,
            [[...eventIds]],
          ),
    listAnalyticsOfSessions: async (tenantId, sessionIds) =>
      sessionIds.length === 0
        ? []
        : db.all(
            `SELECT id::float8 AS id, session_id AS "sessionId", name, occurred_at::float8 AS "occurredAt" FROM analytics_events
              WHERE tenant_id = $1 AND session_id = ANY($2::text[]) ORDER BY id`,
            [tenantId, [...sessionIds]],
          ),
    // One statement, whatever the number of ids (an array parameter has no SQLite-like bound).
    // Deliveries (and their attempts and dead letters) go with their events, messages with
    // their sessions: ON DELETE CASCADE.
    deleteRows: async (table, ids) => {
      if (ids.length === 0) return;
      if (table === "analyticsEvents") await db.run("DELETE FROM analytics_events WHERE id = ANY($1::bigint[])", [ids.map((id) => Number(id))]);
      else await db.run(`DELETE FROM ${TABLE[table]} WHERE id = ANY($1::text[])`, [ids.map((id) => String(id))]);
    },
    // Only tenants that set a retention. `#>>` is NULL for a missing key and for JSON null, like
    // json_extract; a config stored as a JSON string holding the document is read through it.
    listTenantRetention: async () =>
      (
        await db.all<{ tenantId: string; chatType: string | null; chatText: string | null; analyticsType: string | null; analyticsText: string | null }>(
          `SELECT tenant_id AS "tenantId",
                  json_typeof(doc #> '{retention,chat_days}') AS "chatType", doc #>> '{retention,chat_days}' AS "chatText",
                  json_typeof(doc #> '{retention,analytics_days}') AS "analyticsType", doc #>> '{retention,analytics_days}' AS "analyticsText"
             FROM (SELECT tenant_id, CASE WHEN json_typeof(config) = 'string' THEN (config #>> '{}')::json ELSE config END AS doc FROM chatbots) AS c
            WHERE doc #>> '{retention,chat_days}' IS NOT NULL OR doc #>> '{retention,analytics_days}' IS NOT NULL
            ORDER BY tenant_id`,
        )
      ).map((row) => ({ tenantId: row.tenantId, chatDays: retentionValue(row.chatType, row.chatText), analyticsDays: retentionValue(row.analyticsType, row.analyticsText) })),
    // Sessions created before the cutoff (an id range: ids sort by creation time) whose last
    // activity is too; messages go with their session (ON DELETE CASCADE). DELETE has no LIMIT
    // on PostgreSQL: the ids are picked by a subquery.
    purgeInactiveSessions: (tenantId, beforeId, cutoffMs, limit) =>
      db.run(
        `DELETE FROM chat_sessions WHERE id IN (
           SELECT id FROM chat_sessions
           WHERE tenant_id = $1 AND status IN ('bot', 'handoff', 'closed') AND id < $2 AND updated_at <= $3
           LIMIT $4)`,
        [tenantId, beforeId, cutoffMs, limit],
      ),
  };
}

export function pgMaintenance(_db: PgExec): MaintenanceQueries {
  return {
    // SQLite copies its WAL into the database file; PostgreSQL checkpoints by itself.
    checkpoint: async () => {},
  };
}
