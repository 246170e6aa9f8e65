import type {
  AnalyticsEventRow,
  AppointmentRow,
  ChatMessageRow,
  ChatSessionRow,
  DeliveryRow,
  EventRow,
  LeadRow,
  StoreQueries,
} from "../db/store.ts";
import { notFound } from "../lib/app-error.ts";

/**
 * Everything Parley holds about one person (a lead, or a visitor's session) inside one tenant:
 * what erasure deletes and export returns. Shared so the two can never disagree.
 *
 * Who "the person" is: the seed (the lead, or the session) gives contact identifiers — the
 * e-mail and phone of its lead(s) and appointment(s), and a WhatsApp visitor's number. Every
 * lead and appointment of the tenant with one of those identifiers belongs to the person, and so
 * does every session they came from, every session whose transcript or state mentions the
 * e-mail or phone, and every event whose payload names any of those ids or identifiers. The
 * expansion is one step deep on purpose: a phone shared by two people (a family line) must not
 * chain on to everyone those people ever talked about.
 */
export interface PersonRecords {
  tenantId: string;
  emails: string[];
  phones: string[];
  leads: LeadRow[];
  appointments: AppointmentRow[];
  sessions: ChatSessionRow[];
  messages: Array<Pick<ChatMessageRow, "id" | "sessionId" | "role" | "text" | "authorName" | "createdAt">>;
  events: Array<Pick<EventRow, "id" | "event" | "data" | "occurredAt">>;
  deliveries: Array<
    Pick<DeliveryRow, "id" | "eventId" | "ruleId" | "url" | "status" | "attempts" | "createdAt" | "completedAt">
  >;
  analyticsEvents: Array<Pick<AnalyticsEventRow, "id" | "sessionId" | "name" | "occurredAt">>;
}

export type PersonSeed = { leadId: string } | { sessionId: string };

function addUnique<T extends { id: string | number }>(into: Map<string | number, T>, rows: readonly T[]): void {
  for (const row of rows) into.set(row.id, row);
}

/** A WhatsApp visitor_ref is the number without "+"; leads store it in E.164 with it. */
const phoneForms = (phones: readonly string[]) => [
  ...new Set(phones.flatMap((phone) => [phone, phone.replace(/^\+/, "")])),
];

/**
 * Throws 404 when the seed is not the tenant's (another tenant's id is "not found"). Reads
 * through `db`: the store for an export, the erasure's transaction for an erasure.
 */
export async function findPersonRecords(db: StoreQueries, tenantId: string, seed: PersonSeed): Promise<PersonRecords> {
  const { privacy } = db;
  const leads = new Map<string | number, LeadRow>();
  const appointments = new Map<string | number, AppointmentRow>();
  const sessions = new Map<string | number, ChatSessionRow>();

  if ("leadId" in seed) {
    const lead = (await privacy.findLeads(tenantId, "id", [seed.leadId]))[0];
    if (!lead) throw notFound("lead");
    addUnique(leads, [lead]);
  } else {
    const session = (await privacy.findSessions(tenantId, "id", [seed.sessionId]))[0];
    if (!session) throw notFound("session");
    addUnique(sessions, [session]);
    addUnique(leads, await privacy.findLeads(tenantId, "sessionId", [session.id]));
    addUnique(appointments, await privacy.findAppointments(tenantId, "sessionId", [session.id]));
  }

  // The seed's identifiers, then everything else carrying them (one step, see above).
  const emails = new Set<string>();
  const phones = new Set<string>();
  for (const row of [...leads.values(), ...appointments.values()]) {
    if (row.email) emails.add(row.email.toLowerCase());
    if (row.phone) phones.add(row.phone);
  }
  for (const session of sessions.values()) {
    if (session.channel === "whatsapp" && session.visitorRef) phones.add(`+${session.visitorRef.replace(/^\+/, "")}`);
  }
  const emailList = [...emails];
  const phoneList = [...phones];
  addUnique(leads, await privacy.findLeadsByEmail(tenantId, emailList));
  addUnique(appointments, await privacy.findAppointmentsByEmail(tenantId, emailList));
  addUnique(leads, await privacy.findLeads(tenantId, "phone", phoneList));
  addUnique(appointments, await privacy.findAppointments(tenantId, "phone", phoneList));

  const sessionIds = new Set<string>([...sessions.keys()].map(String));
  for (const row of [...leads.values(), ...appointments.values()]) sessionIds.add(row.sessionId);
  addUnique(sessions, await privacy.findSessions(tenantId, "id", [...sessionIds]));
  addUnique(sessions, await privacy.findSessions(tenantId, "visitorRef", phoneForms(phoneList)));
  // A visitor who typed their e-mail in a conversation that never became a lead is still that person.
  addUnique(sessions, await privacy.findSessionsMentioning(tenantId, [...emailList, ...phoneList]));

  const sessionList = [...sessions.values()];
  const sessionIdList = sessionList.map((session) => session.id);
  const messages = await privacy.listMessagesOfSessions(sessionIdList);
  const needles = [
    ...emailList,
    ...phoneList,
    ...sessionIdList,
    ...[...leads.keys()].map(String),
    ...[...appointments.keys()].map(String),
  ];
  const events = await privacy.findEventsMentioning(tenantId, needles);
  const deliveries = await privacy.listDeliveriesOfEvents(events.map((event) => event.id));
  const analyticsEvents = await privacy.listAnalyticsOfSessions(tenantId, sessionIdList);

  return {
    tenantId,
    emails: emailList,
    phones: phoneList,
    leads: [...leads.values()],
    appointments: [...appointments.values()],
    sessions: sessionList,
    messages,
    events,
    deliveries,
    analyticsEvents,
  };
}
