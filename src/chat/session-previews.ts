import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
import { toIso } from "../lib/clock.ts";

export interface SessionPreview {
  role: "visitor" | "bot" | "operator";
  /** The start of the session's newest message, cut at PREVIEW_CHARS. */
  text: string;
  created_at: string;
}

export const PREVIEW_CHARS = 140;

const statements = preparedFor((sqlite) => ({
  // One index seek per session (chat_messages_session_idx): its newest message.
  newest: sqlite.prepare<{ session_id: string; role: SessionPreview["role"]; text: string; created_at: number }, [string, string]>(
    `SELECT s.id AS session_id, m.role, substr(m.text, 1, ${PREVIEW_CHARS + 1}) AS text, m.created_at
     FROM chat_sessions AS s
     JOIN chat_messages AS m ON m.id = (SELECT max(id) FROM chat_messages WHERE session_id = s.id)
     WHERE s.tenant_id = ? AND s.id IN (SELECT value FROM json_each(?))`,
  ),
}));

/** The newest message of each of the tenant's sessions among `sessionIds` (the hand-off inbox's preview column). */
export function previewSessions(deps: Deps, tenantId: string, sessionIds: readonly string[]): Map<string, SessionPreview> {
  if (sessionIds.length === 0) return new Map();
  const rows = statements(deps.sqlite).newest.all(tenantId, JSON.stringify(sessionIds));
  return new Map(
    rows.map((row) => [
      row.session_id,
      { role: row.role, text: row.text.length > PREVIEW_CHARS ? `${row.text.slice(0, PREVIEW_CHARS - 1)}…` : row.text, created_at: toIso(row.created_at) },
    ]),
  );
}
