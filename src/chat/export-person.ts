import type { Deps } from "../deps.ts";
import { toIso } from "../lib/clock.ts";
import { findPersonRecords, type PersonRecords, type PersonSeed } from "./person-records.ts";

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
  const messagesBySession = groupBy(records.messages, (message) => message.session_id);
  const deliveriesByEvent = groupBy(records.deliveries, (delivery) => delivery.event_id);
  return {
    exported_at: toIso(nowMs),
    tenant_id: records.tenantId,
    contact: { emails: records.emails, phones: records.phones },
    leads: records.leads.map((lead) => ({
      lead_id: lead.id, chatbot_id: lead.chatbot_id, session_id: lead.session_id, name: lead.name, phone: lead.phone, email: lead.email,
      interest: lead.interest, source: lead.source, confidence: lead.confidence, captured_at: toIso(lead.captured_at),
    })),
    appointments: records.appointments.map((appointment) => ({
      appointment_id: appointment.id, chatbot_id: appointment.chatbot_id, session_id: appointment.session_id,
      starts_at: toIso(appointment.starts_at), ends_at: toIso(appointment.ends_at), timezone: appointment.timezone,
      name: appointment.name, phone: appointment.phone, email: appointment.email, confidence: appointment.confidence, created_at: toIso(appointment.created_at),
    })),
    sessions: records.sessions.map((session) => ({
      session_id: session.id, chatbot_id: session.chatbot_id, channel: session.channel, status: session.status, origin: session.origin,
      visitor_ref: session.visitor_ref, message_count: session.message_count, handoff_reason: session.handoff_reason,
      created_at: toIso(session.created_at), updated_at: toIso(session.updated_at), closed_at: isoOrNull(session.closed_at),
      // What the bot remembered between messages (the contact details it collected, the booking in progress).
      conversation_state: parseJson(session.state),
      messages: (messagesBySession.get(session.id) ?? []).map((message) => ({ message_id: message.id, role: message.role, text: message.text, created_at: toIso(message.created_at) })),
    })),
    events: records.events.map((event) => ({
      event_id: event.id, event: event.event, occurred_at: toIso(event.occurred_at), data: parseJson(event.data),
      deliveries: (deliveriesByEvent.get(event.id) ?? []).map((delivery) => ({
        webhook_id: delivery.id, rule_id: delivery.rule_id, url: delivery.url, status: delivery.status, attempts: delivery.attempts,
        created_at: toIso(delivery.created_at), completed_at: isoOrNull(delivery.completed_at),
      })),
    })),
    analytics_events: records.analyticsEvents.map((row) => ({ name: row.name, session_id: row.session_id, occurred_at: toIso(row.occurred_at) })),
  };
}

export type PersonExport = ReturnType<typeof toExport>;

/** GET /leads/:id/export and `parley lead export`: everything held about the person, as JSON. */
export function exportLead(deps: Deps, tenantId: string, leadId: string): PersonExport {
  return exportPerson(deps, tenantId, { leadId });
}

/** `parley session export`: the same for the visitor of a session. */
export function exportSession(deps: Deps, tenantId: string, sessionId: string): PersonExport {
  return exportPerson(deps, tenantId, { sessionId });
}

function exportPerson(deps: Deps, tenantId: string, seed: PersonSeed): PersonExport {
  return toExport(findPersonRecords(deps, tenantId, seed), deps.clock.now());
}
