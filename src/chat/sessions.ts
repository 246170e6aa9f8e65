import type { Deps } from "../deps.ts";
import type { MessageRole, SessionStatus } from "../db/schema.ts";
import type { ChatMessageRow, ChatSessionRow, StoreQueries } from "../db/store.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { toPage, type Page } from "../lib/page.ts";
import { initialConversationState } from "./engine/conversation-state.ts";
import { MESSAGE_MAX_LENGTH } from "./engine/turn.ts";
import { recordLiveEvent } from "../frontdesk/live-events.ts";
import { getBotConfig } from "./bot-settings.ts";
import { teamAvailability } from "./engine/team-hours.ts";
import { shownAuthorName, toSessionView, type SessionView } from "../frontdesk/session-view.ts";

export { shownAuthorName, toSessionView, type SessionView };

export type SessionRow = ChatSessionRow;

export interface MessageView {
  message_id: string;
  role: MessageRole;
  text: string;
  quick_replies?: string[];
  /** The operator's display name when the reply was sent; null for visitor and bot messages, or when unset. */
  author_name: string | null;
  created_at: string;
}

export const toMessageView = (
  row: Pick<ChatMessageRow, "id" | "role" | "text" | "quickReplies" | "authorName" | "createdAt">,
): MessageView => ({
  message_id: row.id,
  role: row.role,
  text: row.text,
  ...(row.quickReplies ? { quick_replies: row.quickReplies } : {}),
  author_name: shownAuthorName(row),
  created_at: toIso(row.createdAt),
});

export interface StartSessionInput {
  tenantId: string;
  channel: "widget" | "api" | "whatsapp";
  origin?: string | null;
  visitorRef?: string | null;
}

type ClockDeps = Pick<Deps, "clock">;

/**
 * Opens a session with a fresh conversation state, through `db` (the store, or the caller's
 * transaction). Its first message will emit session.started.
 */
export async function startSession(deps: ClockDeps, db: StoreQueries, input: StartSessionInput): Promise<SessionRow> {
  const tenant = await db.tenants.findTenant(input.tenantId);
  if (!tenant?.chatbotId) throw notFound("tenant");
  const now = deps.clock.now();
  const row: SessionRow = {
    id: newId("ses", now),
    tenantId: tenant.id,
    chatbotId: tenant.chatbotId,
    channel: input.channel,
    status: "bot",
    state: JSON.stringify(initialConversationState()),
    visitorRef: input.visitorRef ?? null,
    origin: input.origin ?? null,
    messageCount: 0,
    handoffReason: null,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
  };
  await db.chatSessions.insertSession(row);
  return row;
}

/** The session if it belongs to the tenant; another tenant's session is "not found". */
export async function requireSession(db: StoreQueries, tenantId: string, sessionId: string): Promise<SessionRow> {
  return foundSession(await db.chatSessions.findSession(tenantId, sessionId));
}

/** The session read, or the 404 of one that is not the tenant's. */
export function foundSession(row: SessionRow | null): SessionRow {
  if (!row) throw notFound("session");
  return row;
}

/** The open session of a visitor on a channel (a WhatsApp number), or a new one. */
export async function findOrStartVisitorSession(
  deps: ClockDeps,
  db: StoreQueries,
  input: StartSessionInput & { visitorRef: string },
): Promise<SessionRow> {
  return (
    (await db.chatSessions.findOpenVisitorSession(input.tenantId, input.channel, input.visitorRef)) ??
    startSession(deps, db, input)
  );
}

export async function listSessions(
  deps: Pick<Deps, "store">,
  tenantId: string,
  filter: { status?: SessionStatus },
  page: { limit: number; cursor?: string },
): Promise<Page<SessionView>> {
  const rows = await deps.store.chatSessions.listSessions(
    tenantId,
    filter.status ?? null,
    page.cursor ?? null,
    page.limit + 1,
  );
  return toPage(rows, page.limit, (row) => row.id, toSessionView);
}

/** The transcript after `afterMessageId` (exclusive), oldest first: the widget's resume and poll. */
export async function listMessages(
  deps: Pick<Deps, "store">,
  tenantId: string,
  sessionId: string,
  afterMessageId?: string,
) {
  const session = await requireSession(deps.store, tenantId, sessionId);
  const messages = (await deps.store.chatSessions.listMessagesAfter(sessionId, afterMessageId ?? "")).map(
    toMessageView,
  );
  // The widget's polling fallback for "Seen" (the stream carries operator.seen).
  const seen = (await deps.store.desk.findHandoff(session.id))?.seenMessageId ?? null;
  return { session_id: session.id, status: session.status, seen_message_id: seen, data: messages };
}

export interface NewMessage {
  role: MessageRole;
  text: string;
  quickReplies?: string[];
  confidence?: number;
  authorId?: string;
  authorName?: string | null;
}

/** A message of the session as it will be stored, its id taken now (ids sort in the order they are made). */
export function messageRow(
  deps: ClockDeps,
  session: Pick<SessionRow, "id" | "tenantId">,
  message: NewMessage,
): ChatMessageRow {
  const now = deps.clock.now();
  return {
    id: newId("msg", now),
    sessionId: session.id,
    tenantId: session.tenantId,
    role: message.role,
    text: message.text,
    quickReplies: message.quickReplies && message.quickReplies.length > 0 ? message.quickReplies : null,
    confidence: message.confidence ?? null,
    authorId: message.authorId ?? null,
    authorName: message.authorName ?? null,
    createdAt: now,
  };
}

export async function insertMessage(
  deps: ClockDeps,
  db: StoreQueries,
  session: Pick<SessionRow, "id" | "tenantId">,
  message: NewMessage,
): Promise<MessageView> {
  const row = messageRow(deps, session, message);
  await db.chatSessions.insertMessage(row);
  return toMessageView(row);
}

/**
 * An operator's reply in a session. Posting to a session the bot still handles takes it over
 * (status handoff): the bot must not talk over a human. The author's display name is copied
 * onto the message as it is now: a later rename does not rewrite what visitors already saw.
 */
export async function postOperatorMessage(
  deps: Pick<Deps, "store" | "clock" | "liveEventsWritten">,
  tenantId: string,
  sessionId: string,
  input: { text: string; authorId?: string },
): Promise<MessageView> {
  const text = input.text.trim();
  if (text.length < 1 || text.length > MESSAGE_MAX_LENGTH) {
    const rule = `must be 1 to ${MESSAGE_MAX_LENGTH} characters`;
    throw new AppError("validation_failed", 422, `text: ${rule}`, [{ field: "text", message: rule }]);
  }
  // Read before the transaction (a store read inside one waits for it to end on SQLite): a reply
  // that takes the chat over records whether that came within the team's hours.
  const config = await getBotConfig(deps, tenantId);
  return deps.store.transaction(async (tx) => {
    const session = await requireSession(tx, tenantId, sessionId);
    if (session.status === "closed") throw new AppError("session_closed", 409, "The session is closed.");
    if (session.status === "bot") {
      const now = deps.clock.now();
      await tx.chatSessions.updateSessionTurn(session.id, {
        status: "handoff",
        state: session.state,
        messageCount: session.messageCount,
        handoffReason: "operator",
        updatedAt: now,
      });
      // The chat's hand-off time for the inbox; no visitor waited, so it is not a reply wait.
      await tx.desk.insertHandoff({
        sessionId: session.id,
        tenantId,
        handoffAt: now,
        withinBusinessHours: teamAvailability(config, now).withinBusinessHours,
        takenOver: true,
      });
    }
    const authorName = input.authorId ? ((await tx.users.findUser(input.authorId))?.displayName ?? null) : null;
    const message = await insertMessage(deps, tx, session, {
      role: "operator",
      text,
      authorId: input.authorId,
      authorName,
    });
    await tx.desk.recordFirstReply(session.id, deps.clock.now());
    await recordLiveEvent(deps, tx, {
      tenantId,
      sessionId: session.id,
      kind: "operator.message",
      data: {
        message_id: message.message_id,
        text: message.text,
        author_name: message.author_name,
        created_at: message.created_at,
      },
    });
    return message;
  });
}

export async function closeSession(
  deps: Pick<Deps, "store" | "clock" | "liveEventsWritten">,
  tenantId: string,
  sessionId: string,
) {
  const session = await requireSession(deps.store, tenantId, sessionId);
  if (session.status !== "closed") {
    const now = deps.clock.now();
    await deps.store.chatSessions.closeSession(session.id, now);
    await recordLiveEvent(deps, null, {
      tenantId,
      sessionId: session.id,
      kind: "session.closed",
      data: { closed_at: toIso(now) },
    });
    return toSessionView({ ...session, status: "closed", closedAt: now, updatedAt: now });
  }
  return toSessionView(session);
}
