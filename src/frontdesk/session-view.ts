import type { ChatMessageRow, ChatSessionRow } from "../db/store.ts";
import { notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import type { StoreQueries } from "../db/store.ts";

// How a chat session and its authors are shown to operators: the session lists, the inbox and
// the transcripts (src/chat/sessions.ts re-exports these for the chat side).

/** The name shown with a message: an operator's as it was when they sent it; never one for visitor and bot messages. */
export const shownAuthorName = (row: Pick<ChatMessageRow, "role" | "authorName">): string | null =>
  row.role === "operator" ? row.authorName : null;

export const toSessionView = (row: ChatSessionRow) => ({
  session_id: row.id,
  chatbot_id: row.chatbotId,
  channel: row.channel,
  status: row.status,
  origin: row.origin,
  visitor_ref: row.visitorRef,
  message_count: row.messageCount,
  handoff_reason: row.handoffReason,
  created_at: toIso(row.createdAt),
  updated_at: toIso(row.updatedAt),
  closed_at: row.closedAt === null ? null : toIso(row.closedAt),
});

export type SessionView = ReturnType<typeof toSessionView>;

/** The tenant's chat session; another tenant's is "not found". */
export async function requireChat(
  db: Pick<StoreQueries, "chatSessions">,
  tenantId: string,
  sessionId: string,
): Promise<ChatSessionRow> {
  const row = await db.chatSessions.findSession(tenantId, sessionId);
  if (!row) throw notFound("session");
  return row;
}
