import type { Deps } from "../deps.ts";
import { parseIsoTime, toIso } from "../lib/clock.ts";
import { invalidField } from "../lib/validate.ts";
import { ANALYTICS_EVENT_NAMES } from "./record-events.ts";

const DAY_MS = 86_400_000;
export const MAX_SUMMARY_DAYS = 366;

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

const ratio = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 1000) / 1000;

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
export async function summarizeAnalytics(
  deps: Pick<Deps, "store" | "clock">,
  tenantId: string,
  range: { from?: string; to?: string },
) {
  const today = Math.floor(deps.clock.now() / DAY_MS) * DAY_MS;
  const to = parseDay(range.to, "to", today);
  const from = parseDay(range.from, "from", to - 29 * DAY_MS);
  if (from > to) throw invalidField("from", "must not be after to");
  if ((to - from) / DAY_MS + 1 > MAX_SUMMARY_DAYS)
    throw invalidField("from", `the range may cover at most ${MAX_SUMMARY_DAYS} days`);

  const days = new Map<string, DaySummary>();
  for (let day = from; day <= to; day += DAY_MS) {
    const key = toIso(day).slice(0, 10);
    days.set(key, {
      day: key,
      widget: Object.fromEntries(ANALYTICS_EVENT_NAMES.map((name) => [name, 0])),
      conversations: 0,
      leads: 0,
      appointments: 0,
      handoffs: 0,
      lead_conversion: null,
      appointment_conversion: null,
    });
  }
  const analytics = deps.store.analytics;
  const end = to + DAY_MS;
  for (const row of await analytics.countConversationsByDay(tenantId, from, end)) {
    const day = days.get(row.day);
    if (day) Object.assign(day, { conversations: row.conversations, handoffs: row.handoffs });
  }
  for (const row of await analytics.countLeadsByDay(tenantId, from, end)) {
    const day = days.get(row.day);
    if (day) day.leads = row.n;
  }
  for (const row of await analytics.countAppointmentsByDay(tenantId, from, end)) {
    const day = days.get(row.day);
    if (day) day.appointments = row.n;
  }
  for (const row of await analytics.countWidgetEventsByDay(
    tenantId,
    toIso(from).slice(0, 10),
    toIso(to).slice(0, 10),
  )) {
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
    totals: {
      ...totals,
      lead_conversion: ratio(totals.leads, totals.conversations),
      appointment_conversion: ratio(totals.appointments, totals.conversations),
    },
  };
}
