import { cannedReplies, sessionDesk } from "../schema.ts";
import {
  asBoolean,
  asNullableNumber,
  asNumber,
  type Dialect,
  filtered,
  insertRow,
  many,
  one,
  type Ops,
  write,
} from "../statements.ts";
import type { CannedReplyQueries, InboxQueries, InboxDetailRow } from "../store-inbox.ts";

// Search is the one statement whose SQL differs by dialect: FTS5 on SQLite, GIN on PostgreSQL,
// both over tenant-scoped terms (src/db/search-terms.ts).

/** A bigint expression read back as a number (PostgreSQL answers int8 as a string). */
const num = (d: Dialect, expression: string) => (d.name === "postgres" ? `(${expression})::float8` : expression);

/** Exactly the expression the GIN indexes were built on, or they go unused. */
const pgTerms = (tenantId: string, text: string) => `parley_search_terms(${tenantId}, ${text})`;

/** PostgreSQL's terms of a message (alias m) and of a lead (alias l). */
export const searchTerms = {
  message: pgTerms("m.tenant_id", "m.text"),
  lead: pgTerms("l.tenant_id", `l.name || ' ' || l.email || ' ' || l.phone`),
  /** The search's tsquery ($2), folded as the terms are. */
  query: "to_tsquery('simple', parley_fold_letters($2))",
};

// Every match, then a sort: each store tries its newest-first walk first. The terms are the
// tenant's already; the tenant_id check keeps ids of any shape apart.
export const searchSql = (d: Dialect, given: { before: boolean }): string => {
  const before = given.before ? " WHERE session_id < $3" : "";
  const hits =
    d.name === "sqlite"
      ? `SELECT m.session_id FROM chat_messages_fts AS f JOIN chat_messages AS m ON m.rowid = f.rowid
           WHERE chat_messages_fts MATCH $2 AND m.tenant_id = $1
         UNION
         SELECT l.session_id FROM leads_fts AS lf JOIN leads AS l ON l.rowid = lf.rowid
           WHERE leads_fts MATCH $2 AND l.tenant_id = $1`
      : `SELECT t.session_id FROM chat_message_terms AS t
           WHERE t.terms @@ ${searchTerms.query} AND t.tenant_id = $1
         UNION
         SELECT l.session_id FROM leads AS l
           WHERE ${searchTerms.lead} @@ ${searchTerms.query} AND l.tenant_id = $1`;
  return `SELECT session_id AS "sessionId" FROM (${hits}) AS hits${before} ORDER BY session_id DESC LIMIT $4`;
};

const inboxDetailSql = (d: Dialect) => `
  SELECT s.id AS "sessionId", k.page_url AS "pageUrl", ${num(d, "h.handoff_at")} AS "handoffAt",
    k.assigned_to AS "assignedTo", u.display_name AS "assignedName", ${num(d, "k.assigned_at")} AS "assignedAt",
    l.name AS "leadName", l.email AS "leadEmail", l.phone AS "leadPhone",
    ${num(d, "a.starts_at")} AS "appointmentStartsAt", a.timezone AS "appointmentTimezone",
    (SELECT count(*) FROM chat_messages AS m
      WHERE m.session_id = s.id AND m.role = 'visitor' AND m.id > COALESCE(r.last_read_id, '')) AS unread,
    ${num(
      d,
      `(SELECT min(m.created_at) FROM chat_messages AS m
        WHERE m.session_id = s.id AND m.role = 'visitor' AND m.created_at >= h.handoff_at
          AND m.id > COALESCE((SELECT max(o.id) FROM chat_messages AS o WHERE o.session_id = s.id AND o.role = 'operator'), ''))`,
    )} AS "waitingSince",
    h.within_business_hours AS "withinBusinessHours"
  FROM chat_sessions AS s
  LEFT JOIN session_desk AS k ON k.session_id = s.id
  LEFT JOIN handoffs AS h ON h.session_id = s.id
  LEFT JOIN users AS u ON u.id = k.assigned_to
  LEFT JOIN inbox_reads AS r ON r.session_id = s.id AND r.user_id = $2
  LEFT JOIN leads AS l ON l.id = (SELECT max(id) FROM leads WHERE session_id = s.id)
  LEFT JOIN appointments AS a ON a.id = (SELECT max(id) FROM appointments WHERE session_id = s.id)
  WHERE s.tenant_id = $1 AND ${d.inList("s.id", "$3")}`;

/** Every inbox statement but the search index's catch-up, which differs per store. */
export const INBOX_OPS: Ops<Omit<InboxQueries, "indexPending">> = {
  findDesk: one(
    (d) => `SELECT ${d.columns(sessionDesk)} FROM session_desk WHERE session_id = $1`,
    (sessionId) => [sessionId],
  ),
  recordPageUrl: write(
    `INSERT INTO session_desk (session_id, tenant_id, page_url) VALUES ($1, $2, $3)
     ON CONFLICT (session_id) DO UPDATE SET page_url = excluded.page_url`,
    (tenantId, sessionId, pageUrl) => [sessionId, tenantId, pageUrl],
  ),
  assignSession: write(
    `INSERT INTO session_desk (session_id, tenant_id, assigned_to, assigned_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (session_id) DO UPDATE SET assigned_to = excluded.assigned_to, assigned_at = excluded.assigned_at
     WHERE session_desk.assigned_to IS NOT DISTINCT FROM $5`,
    (tenantId, sessionId, assignedTo, at, expected) => [sessionId, tenantId, assignedTo, at, expected],
  ),
  reopenSession: write(
    "UPDATE chat_sessions SET status = 'handoff', closed_at = NULL, updated_at = $3 WHERE tenant_id = $1 AND id = $2 AND status = 'closed'",
    (tenantId, sessionId, at) => [tenantId, sessionId, at],
  ),
  // One seek of chat_messages_session_idx; a chat without messages gets no mark.
  markRead: write(
    `INSERT INTO inbox_reads (session_id, user_id, tenant_id, last_read_id, read_at)
     SELECT $1, $2, $3, max(id), $4 FROM chat_messages WHERE session_id = $1 HAVING max(id) IS NOT NULL
     ON CONFLICT (session_id, user_id) DO UPDATE SET last_read_id = excluded.last_read_id, read_at = excluded.read_at
     WHERE inbox_reads.last_read_id < excluded.last_read_id`,
    (input) => [input.sessionId, input.userId, input.tenantId, input.readAt],
  ),
  listInboxDetails: many(
    inboxDetailSql,
    (tenantId, readerId, sessionIds) => [tenantId, readerId, sessionIds],
    (rows: InboxDetailRow[]) =>
      rows.map((row) => ({
        ...row,
        handoffAt: asNullableNumber(row.handoffAt),
        assignedAt: asNullableNumber(row.assignedAt),
        appointmentStartsAt: asNullableNumber(row.appointmentStartsAt),
        unread: asNumber(row.unread),
        waitingSince: asNullableNumber(row.waitingSince),
        withinBusinessHours: row.withinBusinessHours === null ? null : asBoolean(row.withinBusinessHours),
      })),
  ),
  searchSessionIds: filtered(
    ["before"],
    (_tenantId, _match, beforeId, _limit) => ({ before: beforeId !== null }),
    searchSql,
    (tenantId, match, beforeId, limit) => [tenantId, match, beforeId, limit],
    (rows: Array<{ sessionId: string }>) => rows.map((row) => row.sessionId),
  ),
};

export const CANNED_REPLY_OPS: Ops<CannedReplyQueries> = {
  listCannedReplies: many(
    (d) => `SELECT ${d.columns(cannedReplies)} FROM canned_replies WHERE tenant_id = $1 ORDER BY shortcut`,
    (tenantId) => [tenantId],
  ),
  findCannedReply: one(
    (d) => `SELECT ${d.columns(cannedReplies)} FROM canned_replies WHERE tenant_id = $1 AND id = $2`,
    (tenantId, id) => [tenantId, id],
  ),
  countCannedReplies: one(
    "SELECT count(*) AS n FROM canned_replies WHERE tenant_id = $1",
    (tenantId) => [tenantId],
    (row: { n: unknown } | null) => asNumber(row?.n),
  ),
  // A taken shortcut is declared rather than let fail: a failed statement aborts a PostgreSQL transaction.
  insertCannedReply: insertRow(
    cannedReplies,
    " ON CONFLICT (tenant_id, shortcut) DO NOTHING",
    (changes) => changes > 0,
  ),
  updateCannedReply: write(
    `UPDATE canned_replies SET shortcut = $3, text = $4, updated_at = $5 WHERE tenant_id = $1 AND id = $2
     AND NOT EXISTS (SELECT 1 FROM canned_replies AS other WHERE other.tenant_id = $1 AND other.shortcut = $3 AND other.id <> $2)`,
    (tenantId, id, change) => [tenantId, id, change.shortcut, change.text, change.updatedAt],
  ),
  deleteCannedReply: write("DELETE FROM canned_replies WHERE tenant_id = $1 AND id = $2", (tenantId, id) => [
    tenantId,
    id,
  ]),
};
