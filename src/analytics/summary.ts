import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
import { parseIsoTime, toIso } from "../lib/clock.ts";
import { invalidField } from "../lib/validate.ts";
import { ANALYTICS_EVENT_NAMES } from "./record-events.ts";

const DAY_MS = 86_400_000;
export const MAX_SUMMARY_DAYS = 366;

interface DayCount {
  day: string;
  n: number;
}

// Each query reads one tenant's rows in [from, to) and groups them by UTC day.
const statements = preparedFor((sqlite) => ({
  conversations: sqlite.prepare<{ day: string; conversations: number; handoffs: number }, [string, number, number]>(
    `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, count(*) AS conversations,
       sum(CASE WHEN handoff_reason IS NOT NULL THEN 1 ELSE 0 END) AS handoffs
     FROM chat_sessions WHERE tenant_id = ? AND created_at >= ? AND created_at < ? AND message_count > 0 GROUP BY day`,
  ),
  leads: sqlite.prepare<DayCount, [string, number, number]>(
    "SELECT strftime('%Y-%m-%d', captured_at / 1000, 'unixepoch') AS day, count(*) AS n FROM leads WHERE tenant_id = ? AND captured_at >= ? AND captured_at < ? GROUP BY day",
  ),
  appointments: sqlite.prepare<DayCount, [string, number, number]>(
    "SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, count(*) AS n FROM appointments WHERE tenant_id = ? AND created_at >= ? AND created_at < ? GROUP BY day",
  ),
  widget: sqlite.prepare<{ day: string; name: string; n: number }, [string, string, string]>(
    "SELECT day, name, count(*) AS n FROM analytics_events WHERE tenant_id = ? AND day >= ? AND day <= ? GROUP BY day, name",
  ),
}));

export interface DaySummary {
  day: string;
  widget: Record<string, number>;
  conversations: number;
  leads: number;
  appointments: number;
  handoffs: number;
  /** leads ÷ conversations, null without conversations. */
  lead_conversion: number | null;
  appointment_conversion: number | null;
}

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);

function parseDay(text: string | undefined, field: string, fallback: number): number {
  if (text === undefined) return fallback;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseIsoTime(text) : null;
  if (ms === null) throw invalidField(field, "must be a date such as 2026-01-15");
  return ms;
}

/**
 * Per-day counts for a tenant, from..to inclusive (UTC days; default the last 30), with the
 * widget's telemetry, conversations (sessions with at least one message), leads, appointments,
 * hand-offs and the conversion rates, plus totals over the range.
 */
export function summarizeAnalytics(deps: Deps, tenantId: string, range: { from?: string; to?: string }) {
  const today = Math.floor(deps.clock.now() / DAY_MS) * DAY_MS;
  const to = parseDay(range.to, "to", today);
  const from = parseDay(range.from, "from", to - 29 * DAY_MS);
  if (from > to) throw invalidField("from", "must not be after to");
  if ((to - from) / DAY_MS + 1 > MAX_SUMMARY_DAYS) throw invalidField("from", `the range may cover at most ${MAX_SUMMARY_DAYS} days`);

  const days = new Map<string, DaySummary>();
  for (let day = from; day <= to; day += DAY_MS) {
    const key = toIso(day).slice(0, 10);
    days.set(key, { day: key, widget: Object.fromEntries(ANALYTICS_EVENT_NAMES.map((name) => [name, 0])), conversations: 0, leads: 0, appointments: 0, handoffs: 0, lead_conversion: null, appointment_conversion: null });
  }
  const sql = statements(deps.sqlite);
  const end = to + DAY_MS;
  for (const row of sql.conversations.all(tenantId, from, end)) {
    const day = days.get(row.day);
    if (day) Object.assign(day, { conversations: row.conversations, handoffs: row.handoffs });
  }
  for (const row of sql.leads.all(tenantId, from, end)) {
    const day = days.get(row.day);
    if (day) day.leads = row.n;
  }
  for (const row of sql.appointments.all(tenantId, from, end)) {
    const day = days.get(row.day);
    if (day) day.appointments = row.n;
  }
  for (const row of sql.widget.all(tenantId, toIso(from).slice(0, 10), toIso(to).slice(0, 10))) {
    const day = days.get(row.day);
    if (day) day.widget[row.name] = row.n;
  }
  const list = [...days.values()];
  for (const day of list) {
    day.lead_conversion = ratio(day.leads, day.conversations);
    day.appointment_conversion = ratio(day.appointments, day.conversations);
  }
  const sum = (pick: (day: DaySummary) => number) => list.reduce((total, day) => total + pick(day), 0);
  const totals = {
    widget: Object.fromEntries(ANALYTICS_EVENT_NAMES.map((name) => [name, sum((day) => day.widget[name] ?? 0)])),
    conversations: sum((day) => day.conversations),
    leads: sum((day) => day.leads),
    appointments: sum((day) => day.appointments),
    handoffs: sum((day) => day.handoffs),
  };
  return {
    tenant_id: tenantId,
    from: toIso(from).slice(0, 10),
    to: toIso(to).slice(0, 10),
    days: list,
    totals: { ...totals, lead_conversion: ratio(totals.leads, totals.conversations), appointment_conversion: ratio(totals.appointments, totals.conversations) },
  };
}
