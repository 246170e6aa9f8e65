import { INBOX_OPS, searchTerms } from "../sql/inbox.ts";
import { TOP } from "../search-terms.ts";
import type { InboxQueries } from "../store-inbox.ts";
import type { PgExec } from "./exec.ts";
import { pgOps } from "./statements.ts";

// A GIN index reads a word's whole posting list before its first row, so a word in most chats
// walks the tenant's newest sessions instead; a first window of a few tells the two apart.

const FIRST_WINDOW = 5;
/** Page sizes walked at most before the GIN indexes and a sort. */
const MAX_WINDOWS = 4;

export const SEARCH_WALK = `SELECT s.id AS "sessionId", hit.one IS NOT NULL AS hit
  FROM (SELECT id FROM chat_sessions WHERE tenant_id = $1 AND id < $3 ORDER BY id DESC LIMIT $4) AS s
  LEFT JOIN LATERAL (
    (SELECT 1 AS one FROM chat_messages AS m
      WHERE m.session_id = s.id AND m.role <> 'bot' AND ${searchTerms.message} @@ ${searchTerms.query} LIMIT 1)
    UNION ALL
    (SELECT 1 FROM leads AS l WHERE l.session_id = s.id AND ${searchTerms.lead} @@ ${searchTerms.query} LIMIT 1)
    LIMIT 1) AS hit ON true
  ORDER BY s.id DESC`;

/** Every statement that writes chat messages adds this: a plpgsql trigger per row cost more (design-notes.md). */
export const queueForSearch = (source: string): string =>
  `INSERT INTO chat_messages_search_pending (message_id) SELECT id FROM ${source} WHERE role <> 'bot'`;

// A second instance at once waits for the first's rows, then finds them deleted and skips them.
const INDEX_PENDING = `WITH batch AS (
    DELETE FROM chat_messages_search_pending WHERE message_id IN
      (SELECT message_id FROM chat_messages_search_pending ORDER BY message_id LIMIT $1)
    RETURNING message_id),
  added AS (
    INSERT INTO chat_message_terms (message_id, tenant_id, session_id, terms)
    SELECT m.id, m.tenant_id, m.session_id, ${searchTerms.message} FROM chat_messages AS m JOIN batch ON batch.message_id = m.id
    ON CONFLICT (message_id) DO NOTHING)
  SELECT count(*)::int AS n FROM batch`;

export function pgInbox(exec: PgExec): InboxQueries {
  const ops = pgOps(exec, INBOX_OPS);
  /** Exactly as the sort would answer; null when the GIN indexes should. */
  const walk = async (tenantId: string, match: string, beforeId: string | null, limit: number) => {
    const found: string[] = [];
    let before = beforeId ?? TOP;
    let window = Math.min(FIRST_WINDOW, limit);
    let walked = 0;
    for (;;) {
      const rows = await exec.all<{ sessionId: string; hit: boolean }>(SEARCH_WALK, [tenantId, match, before, window]);
      found.push(...rows.filter((row) => row.hit).map((row) => row.sessionId));
      walked += rows.length;
      if (found.length >= limit) return found.slice(0, limit);
      if (rows.length < window) return found; // the tenant's every session was walked
      if (found.length * 2 < walked || walked >= MAX_WINDOWS * limit) return null;
      before = (rows.at(-1) as { sessionId: string }).sessionId;
      const needed = Math.ceil(((limit - found.length) * walked * 1.5) / found.length);
      window = Math.min(MAX_WINDOWS * limit - walked, needed);
    }
  };
  return {
    ...ops,
    searchSessionIds: async (tenantId, match, beforeId, limit) =>
      (await walk(tenantId, match, beforeId, limit)) ?? ops.searchSessionIds(tenantId, match, beforeId, limit),
    indexPending: async (limit) => (await exec.get<{ n: number }>(INDEX_PENDING, [limit]))?.n ?? 0,
  };
}
