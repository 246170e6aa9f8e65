import type { Deps } from "../deps.ts";
import { writeTransaction } from "../db/client.ts";
import { preparedFor } from "../db/prepared.ts";
import type { MessageRole, SessionStatus } from "../db/schema.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { toPage, type Page } from "../lib/page.ts";
import { findTenantSync } from "../tenants/find-tenant.ts";
import { initialConversationState } from "./conversation-state.ts";

export interface SessionRow {
  id: string;
  tenant_id: string;
  chatbot_id: string;
  channel: string;
  status: SessionStatus;
  state: string;
  visitor_ref: string | null;
  origin: string | null;
  message_count: number;
  handoff_reason: string | null;
  created_at: number;
  updated_at: number;
  closed_at: number | null;
}

export interface MessageRow {
  id: string;
  role: MessageRole;
  text: string;
  quick_replies: string | null;
  created_at: number;
}

export interface MessageView {
  message_id: string;
  role: MessageRole;
  text: string;
  quick_replies?: string[];
  created_at: string;
}

export const toMessageView = (row: MessageRow): MessageView => ({
  message_id: row.id,
  role: row.role,
  text: row.text,
  ...(row.quick_replies ? { quick_replies: JSON.parse(row.quick_replies) as string[] } : {}),
  created_at: toIso(row.created_at),
});

export const toSessionView = (row: SessionRow) => ({
  session_id: row.id,
  chatbot_id: row.chatbot_id,
  channel: row.channel,
  status: row.status,
  origin: row.origin,
  visitor_ref: row.visitor_ref,
  message_count: row.message_count,
  handoff_reason: row.handoff_reason,
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
  closed_at: row.closed_at === null ? null : toIso(row.closed_at),
});

export const sessionStatements = preparedFor((sqlite) => ({
  insert: sqlite.prepare(
    `INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, visitor_ref, origin, message_count, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'bot', ?, ?, ?, 0, ?, ?)`,
  ),
  byId: sqlite.prepare<SessionRow, [string, string]>("SELECT * FROM chat_sessions WHERE id = ? AND tenant_id = ?"),
  byVisitor: sqlite.prepare<SessionRow, [string, string, string]>(
    "SELECT * FROM chat_sessions WHERE tenant_id = ? AND channel = ? AND visitor_ref = ? AND status != 'closed' ORDER BY id DESC LIMIT 1",
  ),
  list: sqlite.prepare<SessionRow, [string, string | null, string | null, number]>(
    `SELECT * FROM chat_sessions WHERE tenant_id = ?1 AND (?2 IS NULL OR status = ?2) AND (?3 IS NULL OR id < ?3)
     ORDER BY id DESC LIMIT ?4`,
  ),
  update: sqlite.prepare("UPDATE chat_sessions SET status = ?, state = ?, message_count = ?, handoff_reason = ?, updated_at = ? WHERE id = ?"),
  close: sqlite.prepare("UPDATE chat_sessions SET status = 'closed', closed_at = ?, updated_at = ? WHERE id = ?"),
  insertMessage: sqlite.prepare(
    "INSERT INTO chat_messages (id, session_id, tenant_id, role, text, quick_replies, confidence, author_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  ),
  messages: sqlite.prepare<MessageRow, [string, string]>(
    "SELECT id, role, text, quick_replies, created_at FROM chat_messages WHERE session_id = ? AND id > ? ORDER BY id LIMIT 500",
  ),
}));

export interface StartSessionInput {
  tenantId: string;
  channel: "widget" | "api" | "whatsapp";
  origin?: string | null;
  visitorRef?: string | null;
}

/** Opens a session with a fresh conversation state. Its first message will emit session.started. */
export function startSession(deps: Deps, input: StartSessionInput): SessionRow {
  const tenant = findTenantSync(deps, input.tenantId);
  if (!tenant) throw notFound("tenant");
  const now = deps.clock.now();
  const row: SessionRow = {
    id: newId("ses", now),
    tenant_id: tenant.id,
    chatbot_id: tenant.chatbotId,
    channel: input.channel,
    status: "bot",
    state: JSON.stringify(initialConversationState()),
    visitor_ref: input.visitorRef ?? null,
    origin: input.origin ?? null,
    message_count: 0,
    handoff_reason: null,
    created_at: now,
    updated_at: now,
    closed_at: null,
  };
  sessionStatements(deps.sqlite).insert.run(row.id, row.tenant_id, row.chatbot_id, row.channel, row.state, row.visitor_ref, row.origin, now, now);
  return row;
}

/** The session if it belongs to the tenant; another tenant's session is "not found". */
export function requireSession(deps: Deps, tenantId: string, sessionId: string): SessionRow {
  const row = sessionStatements(deps.sqlite).byId.get(sessionId, tenantId);
  if (!row) throw notFound("session");
  return row;
}

/** The open session of a visitor on a channel (a WhatsApp number), or a new one. */
export function findOrStartVisitorSession(deps: Deps, input: StartSessionInput & { visitorRef: string }): SessionRow {
  return sessionStatements(deps.sqlite).byVisitor.get(input.tenantId, input.channel, input.visitorRef) ?? startSession(deps, input);
}

export type SessionView = ReturnType<typeof toSessionView>;

export function listSessions(deps: Deps, tenantId: string, filter: { status?: SessionStatus }, page: { limit: number; cursor?: string }): Page<SessionView> {
  const rows = sessionStatements(deps.sqlite).list.all(tenantId, filter.status ?? null, page.cursor ?? null, page.limit + 1);
  return toPage(rows, page.limit, (row) => row.id, toSessionView);
}

/** The transcript after `afterMessageId` (exclusive), oldest first: the widget's resume and poll. */
export function listMessages(deps: Deps, tenantId: string, sessionId: string, afterMessageId?: string) {
  const session = requireSession(deps, tenantId, sessionId);
  const messages = sessionStatements(deps.sqlite).messages.all(sessionId, afterMessageId ?? "").map(toMessageView);
  return { session_id: session.id, status: session.status, data: messages };
}

export function insertMessage(
  deps: Deps,
  session: Pick<SessionRow, "id" | "tenant_id">,
  message: { role: MessageRole; text: string; quickReplies?: string[]; confidence?: number; authorId?: string },
): MessageView {
  const now = deps.clock.now();
  const id = newId("msg", now);
  const quickReplies = message.quickReplies && message.quickReplies.length > 0 ? JSON.stringify(message.quickReplies) : null;
  sessionStatements(deps.sqlite).insertMessage.run(id, session.id, session.tenant_id, message.role, message.text, quickReplies, message.confidence ?? null, message.authorId ?? null, now);
  return toMessageView({ id, role: message.role, text: message.text, quick_replies: quickReplies, created_at: now });
}

/**
 * An operator's reply in a session. Posting to a session the bot still handles takes it over
 * (status handoff): the bot must not talk over a human.
 */
export function postOperatorMessage(deps: Deps, tenantId: string, sessionId: string, input: { text: string; authorId?: string }): MessageView {
  const text = input.text.trim();
  if (text.length < 1 || text.length > 4000) throw new AppError("validation_failed", 422, "text: must be 1 to 4000 characters", [{ field: "text", message: "must be 1 to 4000 characters" }]);
  return writeTransaction(deps.sqlite, () => {
    const session = requireSession(deps, tenantId, sessionId);
    if (session.status === "closed") throw new AppError("session_closed", 409, "The session is closed.");
    if (session.status === "bot") {
      sessionStatements(deps.sqlite).update.run("handoff", session.state, session.message_count, "operator", deps.clock.now(), session.id);
    }
    return insertMessage(deps, session, { role: "operator", text, authorId: input.authorId });
  });
}

export function closeSession(deps: Deps, tenantId: string, sessionId: string) {
  const session = requireSession(deps, tenantId, sessionId);
  if (session.status !== "closed") {
    const now = deps.clock.now();
    sessionStatements(deps.sqlite).close.run(now, now, session.id);
    return toSessionView({ ...session, status: "closed", closed_at: now, updated_at: now });
  }
  return toSessionView(session);
}
