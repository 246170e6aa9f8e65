import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
import { AppError } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { emitEvent } from "../webhooks/emit-event.ts";
import type { BotConfig } from "./bot-config.ts";
import type { EngineAction } from "./engine-types.ts";
import type { SessionRow } from "./sessions.ts";

const statements = preparedFor((sqlite) => ({
  insertLead: sqlite.prepare(
    `INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  insertAppointment: sqlite.prepare(
    `INSERT INTO appointments (id, tenant_id, chatbot_id, session_id, starts_at, ends_at, timezone, name, phone, email, confidence, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  updateLead: sqlite.prepare("UPDATE leads SET name = ?, phone = ?, email = ? WHERE tenant_id = ? AND session_id = ?"),
}));

/** Where a lead came from, for lead.created's `source`: the widget's page origin, the API, WhatsApp. */
const sourceOf = (session: SessionRow): string => (session.channel === "widget" && session.origin ? `widget:${session.origin}` : session.channel);

/** Persists what the engine decided and emits its events, inside the message's transaction. */
export function applyAction(deps: Deps, session: SessionRow, config: BotConfig, action: EngineAction, lastMessage: string): { status?: SessionRow["status"]; handoffReason?: string } {
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
    case "lead_updated":
      // The spec has no lead.updated event; the corrected row is what the dashboard and API show.
      statements(deps.sqlite).updateLead.run(action.name, action.phone, action.email, session.tenant_id, session.id);
      return {};
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

