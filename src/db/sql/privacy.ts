import type { ChatMessageRow, DeliveryRow } from "../rows.ts";
import { appointments, chatSessions, leads } from "../schema.ts";
import { asNumber, type Dialect, many, type Ops, perCall, write, writePerCall } from "../statements.ts";
import type { PrivacyQueries } from "../store-privacy.ts";

// The retention settings are read from each store's JSON its own way. These run rarely, on a
// person's request, so they are built per call, and the searches by e-mail, by mention and of
// analytics read every row of the tenant (no index serves them).

const COLUMN = { id: "id", sessionId: "session_id", phone: "phone", visitorRef: "visitor_ref" } as const;
const TABLE = {
  events: "events",
  analyticsEvents: "analytics_events",
  appointments: "appointments",
  leads: "leads",
  chatSessions: "chat_sessions",
} as const;

/** Any element of the list `$2` found in `text`, lower-cased. */
const mentions = (d: Dialect, text: string) =>
  `EXISTS (SELECT 1 FROM ${d.listRows("$2", "n")} WHERE ${d.contains(`lower(${text})`, "n.value")})`;

/** Up to `$4` sessions of tenant `$1` created before `$2` with no activity after `$3`: the retention purge's batch. */
export const INACTIVE_SESSIONS = `SELECT id FROM chat_sessions
  WHERE tenant_id = $1 AND status IN ('bot', 'handoff', 'closed') AND id < $2 AND updated_at <= $3
  LIMIT $4`;

export const PRIVACY_OPS: Ops<Omit<PrivacyQueries, "listTenantRetention">> = {
  findLeads: perCall(
    "all",
    (d, _tenantId, by, _values) =>
      `SELECT ${d.columns(leads)} FROM leads WHERE tenant_id = $1 AND ${d.inList(COLUMN[by], "$2")} ORDER BY id`,
    (tenantId, _by, values) => [tenantId, [...values]],
  ),
  findAppointments: perCall(
    "all",
    (d, _tenantId, by, _values) =>
      `SELECT ${d.columns(appointments)} FROM appointments WHERE tenant_id = $1 AND ${d.inList(COLUMN[by], "$2")} ORDER BY id`,
    (tenantId, _by, values) => [tenantId, [...values]],
  ),
  findLeadsByEmail: perCall(
    "all",
    (d, _tenantId, _list) =>
      `SELECT ${d.columns(leads)} FROM leads WHERE tenant_id = $1 AND ${d.inList("lower(email)", "$2")} ORDER BY id`,
    (tenantId, emails) => [tenantId, [...emails]],
  ),
  findAppointmentsByEmail: perCall(
    "all",
    (d, _tenantId, _list) =>
      `SELECT ${d.columns(appointments)} FROM appointments WHERE tenant_id = $1 AND ${d.inList("lower(email)", "$2")} ORDER BY id`,
    (tenantId, emails) => [tenantId, [...emails]],
  ),
  findSessions: perCall(
    "all",
    (d, _tenantId, by, _values) =>
      `SELECT ${d.columns(chatSessions, "s")} FROM chat_sessions s WHERE s.tenant_id = $1 AND ${d.inList(`s.${COLUMN[by]}`, "$2")} ORDER BY s.id`,
    (tenantId, _by, values) => [tenantId, [...values]],
  ),
  findSessionsMentioning: perCall(
    "all",
    (
      d,
      _tenantId,
      _list,
    ) => `SELECT ${d.columns(chatSessions, "s")} FROM chat_sessions s WHERE s.tenant_id = $1 AND (${mentions(d, "s.state")}
       OR EXISTS (SELECT 1 FROM chat_messages m WHERE m.session_id = s.id AND ${mentions(d, "m.text")}))
     ORDER BY s.id`,
    (tenantId, needles) => [tenantId, needles.map((needle) => needle.toLowerCase())],
  ),
  listMessagesOfSessions: many(
    (d) => `SELECT id, session_id AS "sessionId", role, text, author_name AS "authorName", created_at AS "createdAt"
     FROM chat_messages WHERE ${d.inList("session_id", "$1")} ORDER BY session_id, id`,
    (sessionIds) => [[...sessionIds]],
    (rows: Array<Pick<ChatMessageRow, "id" | "sessionId" | "role" | "text" | "authorName" | "createdAt">>) =>
      rows.map((row) => ({ ...row, createdAt: asNumber(row.createdAt) })),
  ),
  findEventsMentioning: perCall(
    "all",
    (d, _tenantId, _list) =>
      `SELECT id, event, data, occurred_at AS "occurredAt" FROM events WHERE tenant_id = $1 AND ${mentions(d, "data")} ORDER BY id`,
    (tenantId, needles) => [tenantId, [...new Set(needles.map((needle) => needle.toLowerCase()))]],
    (rows: Array<{ id: string; event: string; data: string; occurredAt: unknown }>) =>
      rows.map((row) => ({ ...row, occurredAt: asNumber(row.occurredAt) })),
  ),
  listDeliveriesOfEvents: many(
    (
      d,
    ) => `SELECT id, event_id AS "eventId", rule_id AS "ruleId", url, status, attempts, created_at AS "createdAt", completed_at AS "completedAt"
     FROM deliveries WHERE ${d.inList("event_id", "$1")} ORDER BY id`,
    (eventIds) => [[...eventIds]],
    (
      rows: Array<
        Pick<DeliveryRow, "id" | "eventId" | "ruleId" | "url" | "status" | "attempts" | "createdAt" | "completedAt">
      >,
    ) =>
      rows.map((row) => ({
        ...row,
        createdAt: asNumber(row.createdAt),
        completedAt: row.completedAt === null ? null : asNumber(row.completedAt),
      })),
  ),
  listAnalyticsOfSessions: perCall(
    "all",
    (
      d,
      _tenantId,
      _list,
    ) => `SELECT id, session_id AS "sessionId", name, occurred_at AS "occurredAt" FROM analytics_events
     WHERE tenant_id = $1 AND ${d.inList("session_id", "$2")} ORDER BY id`,
    (tenantId, sessionIds) => [tenantId, [...sessionIds]],
    (rows: Array<{ id: unknown; sessionId: string; name: string; occurredAt: unknown }>) =>
      rows.map((row) => ({ ...row, id: asNumber(row.id), occurredAt: asNumber(row.occurredAt) })),
  ),
  // Dependent rows go by ON DELETE CASCADE (attempts by a trigger on PostgreSQL).
  deleteRows: writePerCall(
    (d, table, _ids) =>
      `DELETE FROM ${TABLE[table]} WHERE ${d.inList("id", "$1", table === "analyticsEvents" ? "bigint" : "text")}`,
    (table, ids) => [table === "analyticsEvents" ? ids.map(Number) : ids.map(String)],
  ),
  // The status list lets chat_sessions_tenant_status_id_idx serve the id range; no index on
  // updated_at, which every message rewrites.
  purgeInactiveSessions: write(
    `DELETE FROM chat_sessions WHERE id IN (${INACTIVE_SESSIONS})`,
    (tenantId, beforeId, cutoffMs, limit) => [tenantId, beforeId, cutoffMs, limit],
  ),
};
