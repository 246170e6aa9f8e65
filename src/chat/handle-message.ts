import type { Deps } from "../deps.ts";
import { writeTransaction } from "../db/client.ts";
import { preparedFor } from "../db/prepared.ts";
import { countMessage } from "../billing/usage.ts";
import { AppError } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { TenantRecord } from "../tenants/create-tenant.ts";
import { emitEvent } from "../webhooks/emit-event.ts";
import { getBotConfig } from "./bot-settings.ts";
import type { BotConfig } from "./bot-config.ts";
import { restoreConversationState } from "./conversation-state.ts";
import { applyAction } from "./apply-action.ts";
import { createRuleEngine, type ReplyEngine } from "./engine.ts";
import { insertMessage, requireSession, sessionStatements, startSession, type MessageView, type SessionRow } from "./sessions.ts";

export const MESSAGE_MAX_LENGTH = 4000;
const DAY_MS = 86_400_000;

export interface HandleMessageInput {
  /** The tenant, already looked up by the caller (the route needs it for the origin check too). */
  tenant: TenantRecord;
  /** Absent: a new session is opened on `channel`. */
  sessionId?: string;
  text: string;
  channel: "widget" | "api" | "whatsapp";
}

export interface MessageResult {
  session_id: string;
  message_id: string;
  /** null while a human operator has the session: the bot stays silent. */
  reply: { message_id: string; text: string; quick_replies?: string[] } | null;
  status: SessionRow["status"];
}

const statements = preparedFor((sqlite) => ({
  takenSlots: sqlite.prepare<{ starts_at: number }, [string, number, number]>(
    "SELECT starts_at FROM appointments WHERE tenant_id = ? AND starts_at >= ? AND starts_at <= ? ORDER BY starts_at",
  ),
}));

let defaultEngine: ReplyEngine | null = null;

/**
 * One visitor message, in one write transaction: the quota check and count, the session
 * (opened if needed; its first message emits session.started), the visitor's message, the
 * engine's reply and every action it took with its event. A failure anywhere rolls back all
 * of it, events included. In hand-off the message is stored and the bot stays silent.
 */
export function handleMessage(deps: Deps, input: HandleMessageInput, engine: ReplyEngine = (defaultEngine ??= createRuleEngine())): MessageResult {
  const text = input.text.trim();
  if (text.length < 1 || text.length > MESSAGE_MAX_LENGTH) {
    throw new AppError("validation_failed", 422, `message: must be 1 to ${MESSAGE_MAX_LENGTH} characters`, [{ field: "message", message: `must be 1 to ${MESSAGE_MAX_LENGTH} characters` }]);
  }
  const tenant = input.tenant;
  const config = getBotConfig(deps, tenant.id);

  return writeTransaction(deps.sqlite, () => {
    const session = input.sessionId ? requireSession(deps, tenant.id, input.sessionId) : startSession(deps, { tenantId: tenant.id, channel: input.channel });
    if (session.status === "closed") throw new AppError("session_closed", 409, "This session is closed; start a new one.");
    countMessage(deps, tenant.id, tenant.plan);
    const now = deps.clock.now();
    if (session.message_count === 0) {
      emitEvent(deps, {
        tenantId: tenant.id,
        event: "session.started",
        data: { session_id: session.id, chatbot_id: session.chatbot_id, channel: session.channel, started_at: toIso(now) },
      });
    }
    const visitorMessage = insertMessage(deps, session, { role: "visitor", text });
    let status: SessionRow["status"] = session.status;
    let handoffReason = session.handoff_reason;
    let state = session.state;
    let reply: MessageView | null = null;

    if (session.status === "bot") {
      const taken = statements(deps.sqlite)
        .takenSlots.all(tenant.id, now - DAY_MS, now + (config.appointments.max_days_ahead + 1) * DAY_MS)
        .map((row) => row.starts_at);
      const output = engine.reply({ config, state: restoreConversationState(JSON.parse(session.state)), message: text, nowMs: now, takenSlotStarts: taken });
      reply = insertMessage(deps, session, { role: "bot", text: output.reply.text, quickReplies: output.reply.quick_replies, confidence: output.confidence });
      for (const action of output.actions) {
        const change = applyAction(deps, session, config, action, text);
        if (change.status) status = change.status;
        if (change.handoffReason) handoffReason = change.handoffReason;
      }
      state = JSON.stringify(output.state);
    }
    sessionStatements(deps.sqlite).update.run(status, state, session.message_count + 1, handoffReason, now, session.id);
    return {
      session_id: session.id,
      message_id: visitorMessage.message_id,
      reply: reply ? { message_id: reply.message_id, text: reply.text, ...(reply.quick_replies ? { quick_replies: reply.quick_replies } : {}) } : null,
      status,
    };
  });
}
