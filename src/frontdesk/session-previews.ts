import type { Deps } from "../deps.ts";
import { toIso } from "../lib/clock.ts";
import { shownAuthorName } from "./session-view.ts";

export interface SessionPreview {
  role: "visitor" | "bot" | "operator";
  /** The start of the session's newest message, cut at PREVIEW_CHARS. */
  text: string;
  /** The operator's display name when the message was sent (null for visitor and bot messages, or when unset). */
  author_name: string | null;
  created_at: string;
}

export const PREVIEW_CHARS = 140;

/** The newest message of each of the tenant's sessions among `sessionIds` (the hand-off inbox's preview column). */
export async function previewSessions(
  deps: Pick<Deps, "store">,
  tenantId: string,
  sessionIds: readonly string[],
): Promise<Map<string, SessionPreview>> {
  const rows = await deps.store.chatSessions.listNewestMessages(tenantId, sessionIds, PREVIEW_CHARS + 1);
  return new Map(
    rows.map((row) => [
      row.sessionId,
      {
        role: row.role,
        text: row.text.length > PREVIEW_CHARS ? `${row.text.slice(0, PREVIEW_CHARS - 1)}…` : row.text,
        author_name: shownAuthorName(row),
        created_at: toIso(row.createdAt),
      },
    ]),
  );
}
