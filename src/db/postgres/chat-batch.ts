import type { ChatSessionRow } from "../rows.ts";
import type { FinishedTurn } from "../store-chat.ts";
import { coalescer, type Coalescer } from "./coalesce.ts";
import { pgColumns } from "./columns.ts";
import type { PgExec } from "./exec.ts";
import { queueForSearch } from "./inbox.ts";
import { chatSessions } from "./schema.ts";

// A chat message's two pool statements shared by concurrent requests (docs/hot-path.md, group
// commit on PostgreSQL).

/** Turns (or reads) in one statement at most: a batch stays a few milliseconds of work. */
export const MAX_BATCH = 32;
/** The next batch forms while one runs, so batches grow with load (docs/design-notes.md). */
export const BATCHES_IN_FLIGHT = 1;

const MESSAGES_RECORDSET = `json_to_recordset($1::text::json) AS m(id text, session_id text, tenant_id text, role text,
  text text, quick_replies json, confidence double precision, author_id text, author_name text, created_at bigint)`;

const INSERT_MESSAGES = `added AS (
    INSERT INTO chat_messages (id, session_id, tenant_id, role, text, quick_replies, confidence, author_id, author_name, created_at)
    SELECT m.id, m.session_id, m.tenant_id, m.role, m.text, m.quick_replies, m.confidence, m.author_id, m.author_name, m.created_at
    FROM ${MESSAGES_RECORDSET}
    RETURNING id, role
  ),
  queued AS (${queueForSearch("added")})`;

/** A turn's end in one statement: messages from a JSON array ($1), their search queue, the session. */
export const FINISH_TURN_SQL = `WITH ${INSERT_MESSAGES}
  UPDATE chat_sessions SET status = COALESCE($2, status), state = $3, message_count = $4, handoff_reason = $5, updated_at = $6 WHERE id = $7`;

/** Several turns' ends, of distinct sessions: all their messages ($1), the sessions' updates ($2). */
const FINISH_TURNS_SQL = `WITH ${INSERT_MESSAGES}
  UPDATE chat_sessions AS s SET status = COALESCE(t.status, s.status), state = t.state, message_count = t.message_count,
    handoff_reason = t.handoff_reason, updated_at = t.updated_at
  FROM json_to_recordset($2::text::json) AS t(id text, status text, state text, message_count integer, handoff_reason text, updated_at bigint)
  WHERE s.id = t.id`;

const messagesOf = (turn: FinishedTurn) =>
  turn.messages.map((message) => ({
    id: message.id,
    session_id: message.sessionId,
    tenant_id: message.tenantId,
    role: message.role,
    text: message.text,
    quick_replies: message.quickReplies,
    confidence: message.confidence,
    author_id: message.authorId,
    author_name: message.authorName,
    created_at: message.createdAt,
  }));

export const finishTurnParams = (turn: FinishedTurn): unknown[] => [
  JSON.stringify(messagesOf(turn)),
  turn.update.status,
  turn.update.state,
  turn.update.messageCount,
  turn.update.handoffReason,
  turn.update.updatedAt,
  turn.sessionId,
];

/** What a message reads before its turn: the tenant's session (null: a new session). */
export interface ReadKey {
  tenantId: string;
  sessionId: string | null;
}
/** The lookup version and the session's columns (all null when the tenant has no such session). */
export type SessionReads = ChatSessionRow & { version: number | null };

/** N messages' reads ($1 tenant ids, $2 session ids), one row each in order; a session is found only under its own tenant. */
export const sessionReadsSql = (sessionColumns: string): string =>
  `SELECT (SELECT version::float8 FROM parley_lookup_version WHERE id = 1) AS version, ${sessionColumns}
  FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(want_tenant, want_session, n)
  LEFT JOIN chat_sessions ON id = k.want_session AND tenant_id = k.want_tenant
  ORDER BY k.n`;

export interface ChatBatches {
  turns: Coalescer<FinishedTurn, number>;
  reads: Coalescer<ReadKey, SessionReads | null>;
}

/** The store's coalescers over its pool. */
export function chatBatches(pool: PgExec): ChatBatches {
  const sessionReads = sessionReadsSql(pgColumns(chatSessions));
  const readMany = (keys: readonly ReadKey[]) =>
    pool.all<SessionReads>(sessionReads, [keys.map((key) => key.tenantId), keys.map((key) => key.sessionId)]);
  return {
    turns: coalescer({
      one: (turn) => pool.run(FINISH_TURN_SQL, finishTurnParams(turn)),
      many: async (turns) => {
        await pool.run(FINISH_TURNS_SQL, [
          JSON.stringify(turns.flatMap(messagesOf)),
          JSON.stringify(
            turns.map((turn) => ({
              id: turn.sessionId,
              status: turn.update.status,
              state: turn.update.state,
              message_count: turn.update.messageCount,
              handoff_reason: turn.update.handoffReason,
              updated_at: turn.update.updatedAt,
            })),
          ),
        ]);
        return turns.map(() => 1);
      },
      // One session's turns never share a statement (an UPDATE … FROM takes one row per target) and go in order.
      key: (turn) => turn.sessionId,
      maxItems: MAX_BATCH,
      maxInFlight: BATCHES_IN_FLIGHT,
    }),
    reads: coalescer({
      one: async (key) => (await readMany([key]))[0] ?? null,
      many: readMany,
      key: () => null,
      maxItems: MAX_BATCH,
      maxInFlight: BATCHES_IN_FLIGHT,
    }),
  };
}
