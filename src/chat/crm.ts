import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
import { toIso } from "../lib/clock.ts";
import { toPage, type Page } from "../lib/page.ts";

interface LeadRow {
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

interface AppointmentRow {
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

export interface LeadView {
  lead_id: string;
  chatbot_id: string;
  session_id: string;
  name: string;
  phone: string;
  email: string;
  interest: string;
  source: string;
  confidence: number;
  captured_at: string;
}

export interface AppointmentView {
  appointment_id: string;
  chatbot_id: string;
  session_id: string;
  starts_at: string;
  ends_at: string;
  timezone: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  confidence: number;
  created_at: string;
}

const statements = preparedFor((sqlite) => ({
  leads: sqlite.prepare<LeadRow, [string, string | null, number]>(
    "SELECT * FROM leads WHERE tenant_id = ?1 AND (?2 IS NULL OR id < ?2) ORDER BY id DESC LIMIT ?3",
  ),
  appointments: sqlite.prepare<AppointmentRow, [string, string | null, number]>(
    "SELECT * FROM appointments WHERE tenant_id = ?1 AND (?2 IS NULL OR id < ?2) ORDER BY id DESC LIMIT ?3",
  ),
}));

export function listLeads(deps: Deps, tenantId: string, page: { limit: number; cursor?: string }): Page<LeadView> {
  const rows = statements(deps.sqlite).leads.all(tenantId, page.cursor ?? null, page.limit + 1);
  return toPage(rows, page.limit, (row) => row.id, (row) => ({
    lead_id: row.id,
    chatbot_id: row.chatbot_id,
    session_id: row.session_id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    interest: row.interest,
    source: row.source,
    confidence: row.confidence,
    captured_at: toIso(row.captured_at),
  }));
}

export function listAppointments(deps: Deps, tenantId: string, page: { limit: number; cursor?: string }): Page<AppointmentView> {
  const rows = statements(deps.sqlite).appointments.all(tenantId, page.cursor ?? null, page.limit + 1);
  return toPage(rows, page.limit, (row) => row.id, (row) => ({
    appointment_id: row.id,
    chatbot_id: row.chatbot_id,
    session_id: row.session_id,
    starts_at: toIso(row.starts_at),
    ends_at: toIso(row.ends_at),
    timezone: row.timezone,
    name: row.name,
    phone: row.phone,
    email: row.email,
    confidence: row.confidence,
    created_at: toIso(row.created_at),
  }));
}
