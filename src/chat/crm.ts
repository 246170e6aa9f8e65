import type { Deps } from "../deps.ts";
import { toIso } from "../lib/clock.ts";
import { toPage, type Page } from "../lib/page.ts";

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

export async function listLeads(
  deps: Pick<Deps, "store">,
  tenantId: string,
  page: { limit: number; cursor?: string },
): Promise<Page<LeadView>> {
  const rows = await deps.store.captures.listLeads(tenantId, page.cursor ?? null, page.limit + 1);
  return toPage(
    rows,
    page.limit,
    (row) => row.id,
    (row) => ({
      lead_id: row.id,
      chatbot_id: row.chatbotId,
      session_id: row.sessionId,
      name: row.name,
      phone: row.phone,
      email: row.email,
      interest: row.interest,
      source: row.source,
      confidence: row.confidence,
      captured_at: toIso(row.capturedAt),
    }),
  );
}

export async function listAppointments(
  deps: Pick<Deps, "store">,
  tenantId: string,
  page: { limit: number; cursor?: string },
): Promise<Page<AppointmentView>> {
  const rows = await deps.store.captures.listAppointments(tenantId, page.cursor ?? null, page.limit + 1);
  return toPage(
    rows,
    page.limit,
    (row) => row.id,
    (row) => ({
      appointment_id: row.id,
      chatbot_id: row.chatbotId,
      session_id: row.sessionId,
      starts_at: toIso(row.startsAt),
      ends_at: toIso(row.endsAt),
      timezone: row.timezone,
      name: row.name,
      phone: row.phone,
      email: row.email,
      confidence: row.confidence,
      created_at: toIso(row.createdAt),
    }),
  );
}
