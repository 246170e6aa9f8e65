import type { Database } from "bun:sqlite";
import type { ChatMessageRow, ChatSessionRow, UsageCounterRow } from "../rows.ts";
import { chatMessages, chatSessions } from "../schema.ts";
import type { BotConfigQueries, ChatSessionQueries, SessionTurnUpdate, UsageQueries } from "../store-chat.ts";
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";
import { prepareVariants } from "./list-variants.ts";
import { sqliteLookupOps } from "./tenants.ts";
import { lookupVersionReader } from "./lookup-version.ts";
import { INSERT_SESSION_SQL, insertSessionParams, USAGE_OPS } from "../sql/chat.ts";
import { BOT_CONFIG_OPS } from "../sql/tenants.ts";
import { sqliteOps, sqliteText } from "./statements.ts";

type RawMessage = Omit<ChatMessageRow, "quickReplies"> & { quickReplies: string | null };

const toMessage = (row: RawMessage): ChatMessageRow => ({
  ...row,
  quickReplies: row.quickReplies === null ? null : (JSON.parse(row.quickReplies) as string[]),
});

// The chat hot path (every message): raw prepared statements, prepared once per connection.

export const SESSION_LIST_FILTERS = ["status", "before"] as const;
type SessionListFilter = (typeof SESSION_LIST_FILTERS)[number];

/** One statement per filter combination (list-variants.ts): a page is a range of chat_sessions_tenant_{status_,}id_idx. */
export function sessionListSql(given: Record<SessionListFilter, boolean>): string {
  const conditions = ["tenant_id = ?1", ...(given.status ? ["status = ?2"] : []), ...(given.before ? ["id < ?3"] : [])];
  return `SELECT ${selectColumns(chatSessions)} FROM chat_sessions WHERE ${conditions.join(" AND ")} ORDER BY id DESC LIMIT ?4`;
}

export function sqliteChatSessions(sqlite: Database): SyncOf<ChatSessionQueries> {
  const columns = selectColumns(chatSessions);
  const byId = sqlite.prepare<ChatSessionRow, [string, string]>(
    `SELECT ${columns} FROM chat_sessions WHERE id = ? AND tenant_id = ?`,
  );
  const byVisitor = sqlite.prepare<ChatSessionRow, [string, string, string]>(
    `SELECT ${columns} FROM chat_sessions WHERE tenant_id = ? AND channel = ? AND visitor_ref = ? AND status != 'closed' ORDER BY id DESC LIMIT 1`,
  );
  const list = prepareVariants<SessionListFilter, ChatSessionRow, [string, string | null, string | null, number]>(
    sqlite,
    SESSION_LIST_FILTERS,
    sessionListSql,
  );
  const insert = sqlite.prepare(sqliteText(INSERT_SESSION_SQL));
  // Two statements: SET status (even to the same value) rewrites the status index entry, which
  // costs more than the rest of the update, and most turns leave the status as it was.
  const update = sqlite.prepare(
    "UPDATE chat_sessions SET status = ?, state = ?, message_count = ?, handoff_reason = ?, updated_at = ? WHERE id = ?",
  );
  const updateKeepingStatus = sqlite.prepare(
    "UPDATE chat_sessions SET state = ?, message_count = ?, handoff_reason = ?, updated_at = ? WHERE id = ?",
  );
  const close = sqlite.prepare(
    "UPDATE chat_sessions SET status = 'closed', closed_at = ?, updated_at = ? WHERE id = ?",
  );
  const insertMessage = sqlite.prepare(
    "INSERT INTO chat_messages (id, session_id, tenant_id, role, text, quick_replies, confidence, author_id, author_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const messagesAfter = sqlite.prepare<RawMessage, [string, string]>(
    `SELECT ${selectColumns(chatMessages)} FROM chat_messages WHERE session_id = ? AND id > ? ORDER BY id LIMIT 500`,
  );
  const recent = sqlite.prepare<Pick<ChatMessageRow, "role" | "text">, [string, number]>(
    "SELECT role, text FROM (SELECT id, role, text FROM chat_messages WHERE session_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id",
  );
  // One index seek per session (chat_messages_session_idx): its newest message. By session and
  // id, as messages have no index on id alone here.
  const newest = sqlite.prepare<
    Pick<ChatMessageRow, "sessionId" | "role" | "text" | "authorName" | "createdAt">,
    [string, string, number]
  >(
    `SELECT s.id AS "sessionId", m.role, substr(m.text, 1, ?3) AS text, m.author_name AS "authorName", m.created_at AS "createdAt"
     FROM chat_sessions AS s
     JOIN chat_messages AS m ON m.session_id = s.id AND m.id = (SELECT max(id) FROM chat_messages WHERE session_id = s.id)
     WHERE s.tenant_id = ?1 AND s.id IN (SELECT value FROM json_each(?2))`,
  );
  const addMessage = (row: ChatMessageRow): void => {
    const quickReplies = row.quickReplies === null ? null : JSON.stringify(row.quickReplies);
    insertMessage.run(
      row.id,
      row.sessionId,
      row.tenantId,
      row.role,
      row.text,
      quickReplies,
      row.confidence,
      row.authorId,
      row.authorName,
      row.createdAt,
    );
  };
  const updateTurn = (sessionId: string, turn: SessionTurnUpdate): void => {
    if (turn.status === null)
      updateKeepingStatus.run(turn.state, turn.messageCount, turn.handoffReason, turn.updatedAt, sessionId);
    else update.run(turn.status, turn.state, turn.messageCount, turn.handoffReason, turn.updatedAt, sessionId);
  };
  return {
    findSession: (tenantId, sessionId) => byId.get(sessionId, tenantId),
    findOpenVisitorSession: (tenantId, channel, visitorRef) => byVisitor.get(tenantId, channel, visitorRef),
    listSessions: (tenantId, status, beforeId, limit) =>
      list({ status: status !== null, before: beforeId !== null }).all(tenantId, status, beforeId, limit),
    insertSession: (row) => {
      insert.run(...insertSessionParams(row));
    },
    updateSessionTurn: updateTurn,
    closeSession: (sessionId, closedAt) => {
      close.run(closedAt, closedAt, sessionId);
    },
    insertMessage: addMessage,
    finishTurn: (turn) => {
      for (const row of turn.messages) addMessage(row);
      updateTurn(turn.sessionId, turn.update);
    },
    listRecentMessages: (sessionId, limit) => recent.all(sessionId, limit),
    listMessagesAfter: (sessionId, afterId) => messagesAfter.all(sessionId, afterId).map(toMessage),
    listNewestMessages: (tenantId, sessionIds, maxChars) =>
      sessionIds.length === 0 ? [] : newest.all(tenantId, JSON.stringify(sessionIds), maxChars),
  };
}

export function sqliteUsage(sqlite: Database): SyncOf<UsageQueries> {
  // No RETURNING: SQLite buffers a RETURNING statement's rows in a temporary table, which made
  // this upsert and a plain read of the row after it (same transaction) slower than the two.
  // Its twin on PostgreSQL is one statement (src/db/postgres/chat.ts).
  const increment = sqlite.prepare(
    `INSERT INTO usage_counters (tenant_id, period, messages) VALUES (?, ?, 1)
     ON CONFLICT (tenant_id, period) DO UPDATE SET messages = messages + 1`,
  );
  const counted = sqlite.prepare<Pick<UsageCounterRow, "messages" | "thresholdNotifiedAt">, [string, string]>(
    `SELECT messages, threshold_notified_at AS "thresholdNotifiedAt" FROM usage_counters WHERE tenant_id = ? AND period = ?`,
  );
  // The same decision as the PostgreSQL twin (reserveMessageSql); inside the turn's transaction
  // here, so a rollback takes it back. A quota whose first message already reaches the
  // threshold (under 2 at 80 %) reserves nothing, so the insert needs no condition of its own
  // (VALUES costs half of an INSERT … SELECT … WHERE here).
  const reserve = sqlite.prepare<never, [string, string, number | null, number]>(
    `INSERT INTO usage_counters (tenant_id, period, messages) VALUES (?1, ?2, 1)
     ON CONFLICT (tenant_id, period) DO UPDATE SET messages = messages + 1
     WHERE ?3 IS NULL OR (messages + 1 <= ?3 AND (threshold_notified_at IS NOT NULL OR (messages + 1) * 100 < ?3 * ?4))`,
  );
  const lookupVersion = lookupVersionReader(sqlite);
  const session = sqlite.prepare<ChatSessionRow, [string, string]>(
    `SELECT ${selectColumns(chatSessions)} FROM chat_sessions WHERE id = ? AND tenant_id = ?`,
  );
  return {
    ...sqliteOps(sqlite, USAGE_OPS),
    reserveMessage: (tenantId, period, limits, sessionId) => {
      const firstIsClear = limits.quota === null || 100 < limits.quota * limits.thresholdPercent;
      const reserved =
        firstIsClear && reserve.run(tenantId, period, limits.quota, limits.thresholdPercent).changes === 1;
      return {
        reserved,
        messages: reserved ? null : (counted.get(tenantId, period)?.messages ?? 0),
        lookupVersion: lookupVersion(),
        session: sessionId === null ? null : session.get(sessionId, tenantId),
      };
    },
    incrementMessages: (tenantId, period) => {
      increment.run(tenantId, period);
      const row = counted.get(tenantId, period);
      if (!row) throw new Error("the usage counter upsert left no row");
      return row;
    },
    // Every message is counted in its own turn here: nothing is held ahead.
    returnHeldMessages: () => 0,
  };
}

export function sqliteBotConfigs(sqlite: Database): SyncOf<BotConfigQueries> {
  return sqliteLookupOps(sqlite, BOT_CONFIG_OPS);
}
