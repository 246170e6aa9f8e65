/** Overview: the last 30 days as charts — conversations, leads, appointments, hand-offs, webhook success. */
import { api } from "./api.ts";
import { byId, say, sayError } from "./dom.ts";
import { barChart, type Bar } from "./chart.ts";
import type { AnalyticsSummary, WebhookStats } from "./types.ts";

type Day = AnalyticsSummary["days"][number];

const COUNTS: Array<{ key: "conversations" | "leads" | "appointments" | "handoffs"; title: string; noun: string }> = [
  { key: "conversations", title: "Conversations", noun: "conversation" },
  { key: "leads", title: "Leads", noun: "lead" },
  { key: "appointments", title: "Appointments", noun: "appointment" },
  { key: "handoffs", title: "Hand-offs", noun: "hand-off" },
];

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

function countChart(days: Day[], spec: (typeof COUNTS)[number]) {
  const total = days.reduce((sum, day) => sum + day[spec.key], 0);
  const bars: Bar[] = days.map((day) => ({ day: day.day, segments: [{ value: day[spec.key], kind: "" }], label: `${day.day}: ${plural(day[spec.key], spec.noun)}` }));
  const busiest = days.reduce<Day | null>((best, day) => (!best || day[spec.key] > best[spec.key] ? day : best), null);
  const summary = `${plural(total, spec.noun)} in ${days.length} days${busiest && busiest[spec.key] > 0 ? `, most on ${busiest.day} (${busiest[spec.key]})` : ""}.`;
  return barChart({ id: `chart-${spec.key}`, title: spec.title, headline: String(total), summary, bars });
}

/** Each day's finished deliveries as a 100 % bar: the succeeded share (green) under the dead share (red). */
function webhookChart(days: Day[], stats: WebhookStats) {
  const byDay = new Map(stats.daily.map((row) => [row.day, row]));
  const bars: Bar[] = days.map((day) => {
    const row = byDay.get(day.day);
    const finished = row ? row.succeeded + row.dead : 0;
    if (!row || finished === 0) return { day: day.day, segments: [], label: `${day.day}: no finished deliveries` };
    const ok = (row.succeeded / finished) * 100;
    return { day: day.day, segments: [{ value: ok, kind: "ok" }, { value: 100 - ok, kind: "dead" }], label: `${day.day}: ${Math.round(ok)} % of ${finished} delivered` };
  });
  const succeeded = stats.daily.reduce((sum, row) => sum + row.succeeded, 0);
  const finished = succeeded + stats.daily.reduce((sum, row) => sum + row.dead, 0);
  const rate = finished === 0 ? null : Math.round((succeeded / finished) * 100);
  const headline = rate === null ? "no deliveries" : `${rate} %`;
  const summary = rate === null ? "no webhook delivery finished in this period." : `${rate} % of ${finished} finished ${finished === 1 ? "delivery" : "deliveries"} succeeded (${succeeded}).`;
  return barChart({ id: "chart-webhooks", title: "Webhook success rate", headline, summary, bars, max: 100, unit: " %" });
}

export function wireOverview() {
  const message = byId("overview-msg");
  async function show() {
    try {
      const [summary, stats] = await Promise.all([api<AnalyticsSummary>("GET", "/analytics/summary"), api<WebhookStats>("GET", "/webhooks/stats")]);
      byId("overview-charts").replaceChildren(...COUNTS.map((spec) => countChart(summary.days, spec)), webhookChart(summary.days, stats));
      say(message, "", "");
    } catch (error) {
      sayError(message, error);
    }
  }
  return { show };
}
