import type { ChatMessageRow, ChatSessionRow } from "../rows.ts";
import type { SessionStatus } from "../schema.ts";
import type { ChatSessionQueries } from "../store-chat.ts";
import { pgColumns } from "./columns.ts";
import type { PgExec } from "./exec.ts";
import { parsedJson } from "../statements.ts";
import { INSERT_SESSION_SQL, insertSessionParams } from "../sql/chat.ts";
import { queueForSearch } from "./inbox.ts";
import { type ChatBatches, FINISH_TURN_SQL, finishTurnParams } from "./chat-batch.ts";
import { chatMessages, chatSessions } from "./schema.ts";

// The twin of src/db/sqlite/chat.ts. JSON columns are written `$n::text::json`: Bun would send a
// string bound to a json parameter as a JSON *string*.

/** Null stays SQL NULL. */
const toJsonText = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

type RawMessage = Omit<ChatMessageRow, "quickReplies"> & { quickReplies: unknown };

const toMessage = (row: RawMessage): ChatMessageRow => ({
  ...row,
  quickReplies: row.quickReplies === null ? null : parsedJson<string[]>(row.quickReplies),
});

/** One text per filter combination, so each page is a range of its index (docs/storage.md). */
function listPage(
  columns: string,
  table: string,
  tenantId: string,
  filters: ReadonlyArray<readonly [condition: string, value: string | null]>,
  limit: number,
): { text: string; params: unknown[] } {
  const params: unknown[] = [tenantId];
  const conditions = ["tenant_id = $1"];
  for (const [condition, value] of filters) {
    if (value === null) continue;
    params.push(value);
    conditions.push(`${condition} $${params.length}`);
  }
  params.push(limit);
  return {
    text: `SELECT ${columns} FROM ${table} WHERE ${conditions.join(" AND ")} ORDER BY id DESC LIMIT $${params.length}`,
    params,
  };
}

export function pgChatSessions(db: PgExec, batches: ChatBatches): ChatSessionQueries {
  const columns = pgColumns(chatSessions);
  const messageColumns = pgColumns(chatMessages);
  return {
    findSession: (tenantId, sessionId) =>
      db.get<ChatSessionRow>(`SELECT ${columns} FROM chat_sessions WHERE id = $1 AND tenant_id = $2`, [
        sessionId,
        tenantId,
      ]),
    findOpenVisitorSession: (tenantId, channel, visitorRef) =>
      db.get<ChatSessionRow>(
        `SELECT ${columns} FROM chat_sessions WHERE tenant_id = $1 AND channel = $2 AND visitor_ref = $3 AND status != 'closed' ORDER BY id DESC LIMIT 1`,
        [tenantId, channel, visitorRef],
      ),
    listSessions: (tenantId, status: SessionStatus | null, beforeId, limit) => {
      const page = listPage(
        columns,
        "chat_sessions",
        tenantId,
        [
          ["status =", status],
          ["id <", beforeId],
        ],
        limit,
      );
      return db.all<ChatSessionRow>(page.text, page.params);
    },
    insertSession: async (row) => {
      await db.run(INSERT_SESSION_SQL, insertSessionParams(row));
    },
    updateSessionTurn: async (sessionId, turn) => {
      await db.run(
        "UPDATE chat_sessions SET status = COALESCE($1, status), state = $2, message_count = $3, handoff_reason = $4, updated_at = $5 WHERE id = $6",
        [turn.status, turn.state, turn.messageCount, turn.handoffReason, turn.updatedAt, sessionId],
      );
    },
    closeSession: async (sessionId, closedAt) => {
      await db.run("UPDATE chat_sessions SET status = 'closed', closed_at = $1, updated_at = $1 WHERE id = $2", [
        closedAt,
        sessionId,
      ]);
    },
    insertMessage: async (row) => {
      await db.run(
        `WITH added AS (
           INSERT INTO chat_messages (id, session_id, tenant_id, role, text, quick_replies, confidence, author_id, author_name, created_at)
           VALUES ($1, $2, $3, $4, $5, $6::text::json, $7, $8, $9, $10) RETURNING id, role
         )
         ${queueForSearch("added")}`,
        [
          row.id,
          row.sessionId,
          row.tenantId,
          row.role,
          row.text,
          toJsonText(row.quickReplies),
          row.confidence,
          row.authorId,
          row.authorName,
          row.createdAt,
        ],
      );
    },
    // The turn's last write: shared with other turns ending at once when nothing came before (chat-batch.ts).
    finishTurn: async (turn) => {
      await db.last(FINISH_TURN_SQL, finishTurnParams(turn), () => batches.turns.run(turn));
    },
    listRecentMessages: (sessionId, limit) =>
      db.all<Pick<ChatMessageRow, "role" | "text">>(
        "SELECT role, text FROM (SELECT id, role, text FROM chat_messages WHERE session_id = $1 ORDER BY id DESC LIMIT $2) AS recent ORDER BY id",
        [sessionId, limit],
      ),
    listMessagesAfter: async (sessionId, afterId) =>
      (
        await db.all<RawMessage>(
          `SELECT ${messageColumns} FROM chat_messages WHERE session_id = $1 AND id > $2 ORDER BY id LIMIT 500`,
          [sessionId, afterId],
        )
      ).map(toMessage),
    // One index seek per session (chat_messages_session_idx): its newest message. SQLite's
    // substr(x, 1, n) with n < 0 is '' where PostgreSQL's refuses: greatest(n, 0).
    listNewestMessages: async (tenantId, sessionIds, maxChars) =>
      sessionIds.length === 0
        ? []
        : db.all<Pick<ChatMessageRow, "sessionId" | "role" | "text" | "authorName" | "createdAt">>(
            `SELECT s.id AS "sessionId", m.role, substr(m.text, 1, greatest($3::int, 0)) AS text, m.author_name AS "authorName", m.created_at::float8 AS "createdAt"
             FROM chat_sessions AS s
             JOIN chat_messages AS m ON m.id = (SELECT max(id) FROM chat_messages WHERE session_id = s.id)
             WHERE s.tenant_id = $1 AND s.id = ANY($2::text[])
             ORDER BY s.id`,
            [tenantId, [...sessionIds], maxChars],
          ),
  };
}
