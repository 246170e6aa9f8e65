import type { Deps } from "../deps.ts";
import type { Transaction } from "../db/store.ts";
import { AppError } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { enqueueEvent } from "../webhooks/emit-event.ts";
import type { BotConfig } from "./engine/bot-config.ts";
import type { EngineAction } from "./engine/engine-types.ts";
import type { SessionRow } from "./sessions.ts";
import { teamAvailability } from "./engine/team-hours.ts";

/** Where a lead came from, for lead.created's `source`: the widget's page origin, the API, WhatsApp. */
const sourceOf = (session: SessionRow): string =>
  session.channel === "widget" && session.origin ? `widget:${session.origin}` : session.channel;

/** Persists what the engine decided and emits its events, inside the message's transaction. */
export async function applyAction(
  deps: Pick<Deps, "clock" | "deliveriesEnqueued" | "deliveryHandoff">,
  tx: Transaction,
  session: SessionRow,
  config: BotConfig,
  action: EngineAction,
  lastMessage: string,
): Promise<{ status?: SessionRow["status"]; handoffReason?: string }> {
  const now = deps.clock.now();
  const base = { chatbot_id: session.chatbotId, session_id: session.id, sector: config.sector };
  switch (action.type) {
    case "lead_captured": {
      const leadId = newId("lead", now);
      const source = sourceOf(session);
      await tx.captures.insertLead({
        id: leadId,
        tenantId: session.tenantId,
        chatbotId: session.chatbotId,
        sessionId: session.id,
        name: action.name,
        phone: action.phone,
        email: action.email,
        interest: action.interest,
        source,
        confidence: action.confidence,
        capturedAt: now,
      });
      await enqueueEvent(deps, tx, {
        tenantId: session.tenantId,
        event: "lead.created",
        data: {
          lead_id: leadId,
          ...base,
          name: action.name,
          phone: action.phone,
          email: action.email,
          interest: action.interest,
          source,
          captured_at: toIso(now),
        },
        confidence: action.confidence,
      });
      return {};
    }
    case "appointment_booked": {
      const appointmentId = newId("apt", now);
      const booked = await tx.captures.insertAppointment({
        id: appointmentId,
        tenantId: session.tenantId,
        chatbotId: session.chatbotId,
        sessionId: session.id,
        startsAt: action.startMs,
        endsAt: action.endMs,
        timezone: config.appointments.timezone,
        name: action.name ?? null,
        phone: action.phone ?? null,
        email: action.email ?? null,
        confidence: action.confidence,
        createdAt: now,
      });
      // The unique slot index: another session booked this slot since we read the free ones.
      if (!booked)
        throw new AppError(
          "slot_taken",
          409,
          "That time was booked by someone else a moment ago; please pick another.",
        );
      await enqueueEvent(deps, tx, {
        tenantId: session.tenantId,
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
      await tx.captures.updateSessionLead(session.tenantId, session.id, {
        name: action.name,
        phone: action.phone,
        email: action.email,
      });
      return {};
    case "handoff":
      await enqueueEvent(deps, tx, {
        tenantId: session.tenantId,
        event: "handoff.requested",
        data: {
          session_id: session.id,
          chatbot_id: session.chatbotId,
          reason: action.reason,
          last_message: lastMessage,
          within_business_hours: teamAvailability(config, deps.clock.now()).withinBusinessHours,
        },
        confidence: action.confidence,
      });
      return { status: "handoff", handoffReason: action.reason };
  }
}
