import type { Database } from "bun:sqlite";
import type { Deps } from "../deps.ts";
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
  leads: LeadRecord[];
  appointments: AppointmentRecord[];
  sessions: SessionRecord[];
  messages: MessageRecord[];
  events: EventRecord[];
  deliveries: DeliveryRecord[];
  analyticsEvents: AnalyticsRecord[];
}

export interface LeadRecord {
  id: string;
  chatbot_id: string;
  session_id: string;
  name: string;
  phone: string;
  email: string;
  interest: string;
  source: string;
  confidence: number;
  captured_at: number;
}

export interface AppointmentRecord {
  id: string;
  chatbot_id: string;
  session_id: string;
  starts_at: number;
  ends_at: number;
  timezone: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  confidence: number;
  created_at: number;
}

export interface SessionRecord {
  id: string;
  chatbot_id: string;
  channel: string;
  status: string;
  state: string;
  visitor_ref: string | null;
  origin: string | null;
  message_count: number;
  handoff_reason: string | null;
  created_at: number;
  updated_at: number;
  closed_at: number | null;
}

export interface MessageRecord {
  id: string;
  session_id: string;
  role: string;
  text: string;
  created_at: number;
}

export interface EventRecord {
  id: string;
  event: string;
  data: string;
  occurred_at: number;
}

export interface DeliveryRecord {
  id: string;
  event_id: string;
  rule_id: string | null;
  url: string;
  status: string;
  attempts: number;
  created_at: number;
  completed_at: number | null;
}

export interface AnalyticsRecord {
  id: number;
  session_id: string;
  name: string;
  occurred_at: number;
}

export type PersonSeed = { leadId: string } | { sessionId: string };

const placeholders = (count: number) => Array.from({ length: count }, () => "?").join(", ");

function select<Row>(sqlite: Database, sql: string, params: Array<string | number>): Row[] {
  return sqlite.prepare<Row, Array<string | number>>(sql).all(...params);
}

/** Rows of `table` of the tenant whose `column` is one of `values` (none when `values` is empty). */
function whereIn<Row>(sqlite: Database, table: string, tenantId: string, column: string, values: readonly string[]): Row[] {
  if (values.length === 0) return [];
  return select<Row>(sqlite, `SELECT * FROM ${table} WHERE tenant_id = ? AND ${column} IN (${placeholders(values.length)})`, [tenantId, ...values]);
}

function addUnique<T extends { id: string | number }>(into: Map<string | number, T>, rows: readonly T[]): void {
  for (const row of rows) into.set(row.id, row);
}

/** A WhatsApp visitor_ref is the number without "+"; leads store it in E.164 with it. */
const phoneForms = (phones: readonly string[]) => [...new Set(phones.flatMap((phone) => [phone, phone.replace(/^\+/, "")]))];

/** Throws 404 when the seed is not the tenant's (another tenant's id is "not found"). */
export function findPersonRecords(deps: Pick<Deps, "sqlite">, tenantId: string, seed: PersonSeed): PersonRecords {
  const { sqlite } = deps;
  const leads = new Map<string | number, LeadRecord>();
  const appointments = new Map<string | number, AppointmentRecord>();
  const sessions = new Map<string | number, SessionRecord>();

  if ("leadId" in seed) {
    const lead = whereIn<LeadRecord>(sqlite, "leads", tenantId, "id", [seed.leadId])[0];
    if (!lead) throw notFound("lead");
    addUnique(leads, [lead]);
  } else {
    const session = whereIn<SessionRecord>(sqlite, "chat_sessions", tenantId, "id", [seed.sessionId])[0];
    if (!session) throw notFound("session");
    addUnique(sessions, [session]);
    addUnique(leads, whereIn<LeadRecord>(sqlite, "leads", tenantId, "session_id", [session.id]));
    addUnique(appointments, whereIn<AppointmentRecord>(sqlite, "appointments", tenantId, "session_id", [session.id]));
  }

  // The seed's identifiers, then everything else carrying them (one step, see above).
  const emails = new Set<string>();
  const phones = new Set<string>();
  for (const row of [...leads.values(), ...appointments.values()]) {
    if (row.email) emails.add(row.email.toLowerCase());
    if (row.phone) phones.add(row.phone);
  }
  for (const session of sessions.values()) {
    if (session.channel === "whatsapp" && session.visitor_ref) phones.add(`+${session.visitor_ref.replace(/^\+/, "")}`);
  }
  const emailList = [...emails];
  const phoneList = [...phones];
  if (emailList.length > 0) {
    const lowered = `lower(email) IN (${placeholders(emailList.length)})`;
    addUnique(leads, select<LeadRecord>(sqlite, `SELECT * FROM leads WHERE tenant_id = ? AND ${lowered}`, [tenantId, ...emailList]));
    addUnique(appointments, select<AppointmentRecord>(sqlite, `SELECT * FROM appointments WHERE tenant_id = ? AND ${lowered}`, [tenantId, ...emailList]));
  }
  addUnique(leads, whereIn<LeadRecord>(sqlite, "leads", tenantId, "phone", phoneList));
  addUnique(appointments, whereIn<AppointmentRecord>(sqlite, "appointments", tenantId, "phone", phoneList));

  const sessionIds = new Set<string>([...sessions.keys()].map(String));
  for (const row of [...leads.values(), ...appointments.values()]) sessionIds.add(row.session_id);
  addUnique(sessions, whereIn<SessionRecord>(sqlite, "chat_sessions", tenantId, "id", [...sessionIds]));
  addUnique(sessions, whereIn<SessionRecord>(sqlite, "chat_sessions", tenantId, "visitor_ref", phoneForms(phoneList)));
  addUnique(sessions, sessionsMentioning(sqlite, tenantId, [...emailList, ...phoneList]));

  const sessionList = [...sessions.values()];
  const messages = sessionList.length === 0 ? [] : select<MessageRecord>(
    sqlite,
    `SELECT id, session_id, role, text, created_at FROM chat_messages WHERE session_id IN (${placeholders(sessionList.length)}) ORDER BY session_id, id`,
    sessionList.map((session) => session.id),
  );
  const needles = [...emailList, ...phoneList, ...sessionList.map((s) => s.id), ...[...leads.keys()].map(String), ...[...appointments.keys()].map(String)];
  const events = eventsMentioning(sqlite, tenantId, needles);
  const deliveries = events.length === 0 ? [] : select<DeliveryRecord>(
    sqlite,
    `SELECT id, event_id, rule_id, url, status, attempts, created_at, completed_at FROM deliveries WHERE event_id IN (${placeholders(events.length)}) ORDER BY id`,
    events.map((event) => event.id),
  );
  const analyticsEvents = sessionList.length === 0 ? [] : select<AnalyticsRecord>(
    sqlite,
    `SELECT id, session_id, name, occurred_at FROM analytics_events WHERE tenant_id = ? AND session_id IN (${placeholders(sessionList.length)}) ORDER BY id`,
    [tenantId, ...sessionList.map((session) => session.id)],
  );

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

/**
 * Sessions of the tenant whose transcript or conversation state contains one of `needles`
 * (an e-mail, case-insensitively, or an E.164 phone): a visitor who typed their e-mail in a
 * conversation that never became a lead is still that person. Scans only the tenant's sessions.
 */
function sessionsMentioning(sqlite: Database, tenantId: string, needles: readonly string[]): SessionRecord[] {
  if (needles.length === 0) return [];
  const lowered = needles.map((needle) => needle.toLowerCase());
  const matchText = lowered.map(() => "instr(lower(m.text), ?) > 0").join(" OR ");
  const matchState = lowered.map(() => "instr(lower(s.state), ?) > 0").join(" OR ");
  return select<SessionRecord>(
    sqlite,
    `SELECT s.* FROM chat_sessions s WHERE s.tenant_id = ? AND ((${matchState})
       OR EXISTS (SELECT 1 FROM chat_messages m WHERE m.session_id = s.id AND (${matchText})))`,
    [tenantId, ...lowered, ...lowered],
  );
}

/** The tenant's events whose payload names one of `needles` (ids, e-mails, phones). */
function eventsMentioning(sqlite: Database, tenantId: string, needles: readonly string[]): EventRecord[] {
  if (needles.length === 0) return [];
  const lowered = [...new Set(needles.map((needle) => needle.toLowerCase()))];
  return select<EventRecord>(
    sqlite,
    `SELECT id, event, data, occurred_at FROM events WHERE tenant_id = ? AND (${lowered.map(() => "instr(lower(data), ?) > 0").join(" OR ")}) ORDER BY id`,
    [tenantId, ...lowered],
  );
}
