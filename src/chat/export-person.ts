import type { Deps } from "../deps.ts";
import { toIso } from "../lib/clock.ts";
import { findPersonRecords, type PersonRecords, type PersonSeed } from "./person-records.ts";
import { shownAuthorName } from "./sessions.ts";

const isoOrNull = (ms: number | null) => (ms === null ? null : toIso(ms));

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
}

/** The API's field names and ISO times, like GET /leads, /appointments, /sessions and the delivery log. */
function toExport(records: PersonRecords, nowMs: number) {
  const messagesBySession = groupBy(records.messages, (message) => message.sessionId);
  const deliveriesByEvent = groupBy(records.deliveries, (delivery) => delivery.eventId);
  return {
    exported_at: toIso(nowMs),
    tenant_id: records.tenantId,
    contact: { emails: records.emails, phones: records.phones },
    leads: records.leads.map((lead) => ({
      lead_id: lead.id,
      chatbot_id: lead.chatbotId,
      session_id: lead.sessionId,
      name: lead.name,
      phone: lead.phone,
      email: lead.email,
      interest: lead.interest,
      source: lead.source,
      confidence: lead.confidence,
      captured_at: toIso(lead.capturedAt),
    })),
    appointments: records.appointments.map((appointment) => ({
      appointment_id: appointment.id,
      chatbot_id: appointment.chatbotId,
      session_id: appointment.sessionId,
      starts_at: toIso(appointment.startsAt),
      ends_at: toIso(appointment.endsAt),
      timezone: appointment.timezone,
      name: appointment.name,
      phone: appointment.phone,
      email: appointment.email,
      confidence: appointment.confidence,
      created_at: toIso(appointment.createdAt),
    })),
    sessions: records.sessions.map((session) => ({
      session_id: session.id,
      chatbot_id: session.chatbotId,
      channel: session.channel,
      status: session.status,
      origin: session.origin,
      visitor_ref: session.visitorRef,
      message_count: session.messageCount,
      handoff_reason: session.handoffReason,
      created_at: toIso(session.createdAt),
      updated_at: toIso(session.updatedAt),
      closed_at: isoOrNull(session.closedAt),
      // What the bot remembered between messages (the contact details it collected, the booking in progress).
      conversation_state: parseJson(session.state),
      // As the transcript shows them: an operator's message with the name the visitor saw.
      messages: (messagesBySession.get(session.id) ?? []).map((message) => ({
        message_id: message.id,
        role: message.role,
        text: message.text,
        author_name: shownAuthorName(message),
        created_at: toIso(message.createdAt),
      })),
    })),
    events: records.events.map((event) => ({
      event_id: event.id,
      event: event.event,
      occurred_at: toIso(event.occurredAt),
      data: parseJson(event.data),
      deliveries: (deliveriesByEvent.get(event.id) ?? []).map((delivery) => ({
        webhook_id: delivery.id,
        rule_id: delivery.ruleId,
        url: delivery.url,
        status: delivery.status,
        attempts: delivery.attempts,
        created_at: toIso(delivery.createdAt),
        completed_at: isoOrNull(delivery.completedAt),
      })),
    })),
    analytics_events: records.analyticsEvents.map((row) => ({
      name: row.name,
      session_id: row.sessionId,
      occurred_at: toIso(row.occurredAt),
    })),
  };
}

export type PersonExport = ReturnType<typeof toExport>;

/** GET /leads/:id/export and `parley lead export`: everything held about the person, as JSON. */
export function exportLead(deps: Deps, tenantId: string, leadId: string): Promise<PersonExport> {
  return exportPerson(deps, tenantId, { leadId });
}

/** `parley session export`: the same for the visitor of a session. */
export function exportSession(deps: Deps, tenantId: string, sessionId: string): Promise<PersonExport> {
  return exportPerson(deps, tenantId, { sessionId });
}

async function exportPerson(deps: Deps, tenantId: string, seed: PersonSeed): Promise<PersonExport> {
  return toExport(await findPersonRecords(deps.store, tenantId, seed), deps.clock.now());
}
