import { handoffs, sessionRatings } from "../schema.ts";
import { asBoolean, asNumber, insertRow, many, one, type Ops, write } from "../statements.ts";
import type { DeskQueries, HandoffRow } from "../store-desk.ts";

// handoffs_tenant_idx and session_ratings_tenant_idx serve the per-tenant reads; the last visitor
// message is a backward walk of chat_messages_session_idx.

const readHandoff = (row: HandoffRow): HandoffRow => ({
  ...row,
  withinBusinessHours: asBoolean(row.withinBusinessHours),
  takenOver: asBoolean(row.takenOver),
});

export const DESK_OPS: Ops<DeskQueries> = {
  insertHandoff: insertRow(handoffs, " ON CONFLICT (session_id) DO NOTHING"),
  recordFirstReply: write(
    "UPDATE handoffs SET first_reply_at = $2 WHERE session_id = $1 AND first_reply_at IS NULL",
    (sessionId, repliedAt) => [sessionId, repliedAt],
  ),
  findHandoff: one(
    (d) => `SELECT ${d.columns(handoffs)} FROM handoffs WHERE session_id = $1`,
    (sessionId) => [sessionId],
    (row: HandoffRow | null) => (row ? readHandoff(row) : null),
  ),
  markHandoffSeen: write(
    "UPDATE handoffs SET seen_message_id = $2 WHERE session_id = $1 AND (seen_message_id IS NULL OR seen_message_id < $2)",
    (sessionId, messageId) => [sessionId, messageId],
  ),
  findLastVisitorMessageId: one(
    "SELECT id FROM chat_messages WHERE session_id = $1 AND role = 'visitor' ORDER BY id DESC LIMIT 1",
    (sessionId) => [sessionId],
    (row: { id: string } | null) => row?.id ?? null,
  ),
  listReplyWaits: many(
    `SELECT first_reply_at - handoff_at AS wait FROM handoffs
     WHERE tenant_id = $1 AND handoff_at >= $2 AND within_business_hours AND NOT taken_over AND first_reply_at IS NOT NULL
     ORDER BY handoff_at DESC LIMIT $3`,
    (tenantId, since, limit) => [tenantId, since, limit],
    (rows: Array<{ wait: unknown }>) => rows.map((row) => asNumber(row.wait)),
  ),
  insertRating: insertRow(sessionRatings, " ON CONFLICT (session_id) DO NOTHING", (changes) => changes),
  countRatingsByDay: many(
    (d) => `SELECT ${d.utcDay("created_at")} AS day, score, count(*) AS n FROM session_ratings
     WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY day, score ORDER BY day, score`,
    (tenantId, fromMs, toMs) => [tenantId, fromMs, toMs],
    (rows: Array<{ day: string; score: unknown; n: unknown }>) =>
      rows.map((row) => ({ day: row.day, score: asNumber(row.score), n: asNumber(row.n) })),
  ),
};
