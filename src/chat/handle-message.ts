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
import { createRuleEngine, type EngineAction, type ReplyEngine } from "./engine.ts";
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
  insertLead: sqlite.prepare(
    `INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  insertAppointment: sqlite.prepare(
    `INSERT INTO appointments (id, tenant_id, chatbot_id, session_id, starts_at, ends_at, timezone, name, phone, email, confidence, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
}));

/** Where a lead came from, for lead.created's `source`: the widget's page origin, the API, WhatsApp. */
const sourceOf = (session: SessionRow): string => (session.channel === "widget" && session.origin ? `widget:${session.origin}` : session.channel);

let defaultEngine: ReplyEngine | null = null;

/** Persists what the engine decided and emits its events, inside the message's transaction. */
function applyAction(deps: Deps, session: SessionRow, config: BotConfig, action: EngineAction, lastMessage: string): { status?: SessionRow["status"]; handoffReason?: string } {
  const now = deps.clock.now();
  const base = { chatbot_id: session.chatbot_id, session_id: session.id, sector: config.sector };
  switch (action.type) {
    case "lead_captured": {
      const leadId = newId("lead", now);
      const source = sourceOf(session);
      statements(deps.sqlite).insertLead.run(leadId, session.tenant_id, session.chatbot_id, session.id, action.name, action.phone, action.email, action.interest, source, action.confidence, now);
      emitEvent(deps, {
        tenantId: session.tenant_id,
        event: "lead.created",
        data: { lead_id: leadId, ...base, name: action.name, phone: action.phone, email: action.email, interest: action.interest, source, captured_at: toIso(now) },
        confidence: action.confidence,
      });
      return {};
    }
    case "appointment_booked": {
      const appointmentId = newId("apt", now);
      try {
        statements(deps.sqlite).insertAppointment.run(appointmentId, session.tenant_id, session.chatbot_id, session.id, action.startMs, action.endMs, config.appointments.timezone, action.name ?? null, action.phone ?? null, action.email ?? null, action.confidence, now);
      } catch (error) {
        // The unique slot index: another session booked this slot since we read the free ones.
        if (String(error).includes("UNIQUE")) throw new AppError("slot_taken", 409, "That time was booked by someone else a moment ago; please pick another.");
        throw error;
      }
      emitEvent(deps, {
        tenantId: session.tenant_id,
        event: "appointment.created",
        data: {
          appointment_id: appointmentId,
          ...base,
          name: action.name ?? null,
          phone: action.phone ?? null,
          email: action.email ?? null,
          starts_at: toIso(action.startMs),
          ends_at: toIso(action.endMs),
          timezone: config.appointments.timezone,
        },
        confidence: action.confidence,
      });
      return {};
    }
    case "handoff":
      emitEvent(deps, {
        tenantId: session.tenant_id,
        event: "handoff.requested",
        data: { session_id: session.id, chatbot_id: session.chatbot_id, reason: action.reason, last_message: lastMessage },
        confidence: action.confidence,
      });
      return { status: "handoff", handoffReason: action.reason };
  }
}

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
