import { appointments, leads, usageCounters } from "../schema.ts";
import { type Dialect, filtered, many, one, type Ops, write } from "../statements.ts";
import type { ChatSessionRow } from "../rows.ts";
import type { CaptureQueries, UsageQueries } from "../store-chat.ts";

// The chat aggregates' statements shared by both stores (src/db/statements.ts). The sessions,
// usage and bot-config aggregates are the message's hot path and differ per store (a turn's end
// is one statement on PostgreSQL, the lookup version): src/db/{sqlite,postgres}/chat.ts.

/** A session's first row: the one statement both stores' session aggregates prepare, and its parameters. */
export const INSERT_SESSION_SQL = `INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, visitor_ref, origin, message_count, handoff_reason, created_at, updated_at, closed_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;
export const insertSessionParams = (row: ChatSessionRow): Array<string | number | null> => [
  row.id,
  row.tenantId,
  row.chatbotId,
  row.channel,
  row.status,
  row.state,
  row.visitorRef,
  row.origin,
  row.messageCount,
  row.handoffReason,
  row.createdAt,
  row.updatedAt,
  row.closedAt,
];

/** The CRM lists' pages, with and without a cursor: a range of leads_tenant_idx / appointments_tenant_idx. */
export const leadListSql = (d: Dialect, given: { before: boolean }): string =>
  `SELECT ${d.columns(leads)} FROM leads WHERE tenant_id = $1${given.before ? " AND id < $2" : ""} ORDER BY id DESC LIMIT $3`;
export const appointmentListSql = (d: Dialect, given: { before: boolean }): string =>
  `SELECT ${d.columns(appointments)} FROM appointments WHERE tenant_id = $1${given.before ? " AND id < $2" : ""} ORDER BY id DESC LIMIT $3`;

const beforeGiven = (_tenantId: string, beforeId: string | null, _limit: number) => ({ before: beforeId !== null });
const pageArgs = (tenantId: string, beforeId: string | null, limit: number) => [tenantId, beforeId, limit];

export const CAPTURE_OPS: Ops<CaptureQueries> = {
  insertLead: write(
    `INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    (row) => [
      row.id,
      row.tenantId,
      row.chatbotId,
      row.sessionId,
      row.name,
      row.phone,
      row.email,
      row.interest,
      row.source,
      row.confidence,
      row.capturedAt,
    ],
  ),
  // A taken slot (appointments_slot_idx) writes nothing and reports 0 changes: the conflict is
  // declared rather than let fail, since a failed statement aborts a PostgreSQL transaction.
  insertAppointment: write(
    `INSERT INTO appointments (id, tenant_id, chatbot_id, session_id, starts_at, ends_at, timezone, name, phone, email, confidence, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (tenant_id, starts_at) DO NOTHING`,
    (row) => [
      row.id,
      row.tenantId,
      row.chatbotId,
      row.sessionId,
      row.startsAt,
      row.endsAt,
      row.timezone,
      row.name,
      row.phone,
      row.email,
      row.confidence,
      row.createdAt,
    ],
    (changes) => changes === 1,
  ),
  updateSessionLead: write(
    "UPDATE leads SET name = $1, phone = $2, email = $3 WHERE tenant_id = $4 AND session_id = $5",
    (tenantId, sessionId, contact) => [contact.name, contact.phone, contact.email, tenantId, sessionId],
  ),
  listLeads: filtered(["before"], beforeGiven, leadListSql, pageArgs),
  listAppointments: filtered(["before"], beforeGiven, appointmentListSql, pageArgs),
  listAppointmentStarts: many(
    `SELECT starts_at AS "startsAt" FROM appointments WHERE tenant_id = $1 AND starts_at >= $2 AND starts_at <= $3 ORDER BY starts_at`,
    (tenantId, fromMs, toMs) => [tenantId, fromMs, toMs],
    (rows: Array<{ startsAt: unknown }>) => rows.map((row) => Number(row.startsAt)),
  ),
};

/** The usage counters but the message's own count, a twin per store (src/db/{sqlite,postgres}/chat.ts). */
export const USAGE_OPS: Ops<Omit<UsageQueries, "incrementMessages" | "reserveMessage" | "returnHeldMessages">> = {
  findUsage: one(
    (d) => `SELECT ${d.columns(usageCounters)} FROM usage_counters WHERE tenant_id = $1 AND period = $2`,
    (tenantId, period) => [tenantId, period],
  ),
  markThresholdNotified: write(
    "UPDATE usage_counters SET threshold_notified_at = $3 WHERE tenant_id = $1 AND period = $2",
    (tenantId, period, at) => [tenantId, period, at],
  ),
  addAiUsage: write(
    `INSERT INTO usage_counters (tenant_id, period, ai_calls, ai_prompt_tokens, ai_completion_tokens) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (tenant_id, period) DO UPDATE SET ai_calls = usage_counters.ai_calls + excluded.ai_calls,
       ai_prompt_tokens = usage_counters.ai_prompt_tokens + excluded.ai_prompt_tokens,
       ai_completion_tokens = usage_counters.ai_completion_tokens + excluded.ai_completion_tokens`,
    (tenantId, period, usage) => [tenantId, period, usage.calls, usage.promptTokens, usage.completionTokens],
  ),
  countVisitorRefusal: write(
    `INSERT INTO usage_counters (tenant_id, period, visitor_refused) VALUES ($1, $2, 1)
     ON CONFLICT (tenant_id, period) DO UPDATE SET visitor_refused = usage_counters.visitor_refused + 1`,
    (tenantId, period) => [tenantId, period],
  ),
};
