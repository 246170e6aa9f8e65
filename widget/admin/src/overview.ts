/** Overview: the last 30 days as charts — conversations, leads, appointments, hand-offs, webhook success, visitor satisfaction. */
import { api } from "./api.ts";
import { byId, say, sayError } from "./dom.ts";
import { barChart, type Bar } from "./chart.ts";
import type { AnalyticsSummary, Csat, WebhookStats } from "./types.ts";

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
  const bars: Bar[] = days.map((day) => ({
    day: day.day,
    segments: [{ value: day[spec.key], kind: "" }],
    label: `${day.day}: ${plural(day[spec.key], spec.noun)}`,
  }));
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
    return {
      day: day.day,
      segments: [
        { value: ok, kind: "ok" },
        { value: 100 - ok, kind: "dead" },
      ],
      label: `${day.day}: ${Math.round(ok)} % of ${finished} delivered`,
    };
  });
  const succeeded = stats.daily.reduce((sum, row) => sum + row.succeeded, 0);
  const finished = succeeded + stats.daily.reduce((sum, row) => sum + row.dead, 0);
  const rate = finished === 0 ? null : Math.round((succeeded / finished) * 100);
  const headline = rate === null ? "no deliveries" : `${rate} %`;
  const summary =
    rate === null
      ? "no webhook delivery finished in this period."
      : `${rate} % of ${finished} finished ${finished === 1 ? "delivery" : "deliveries"} succeeded (${succeeded}).`;
  return barChart({
    id: "chart-webhooks",
    title: "Webhook success rate",
    headline,
    summary,
    bars,
    max: 100,
    unit: " %",
  });
}

const scores = (distribution: number[]) => distribution.map((n, i) => `${i + 1}★ ${n}`).join(", ");

/** Each day's ratings stacked by score (1 at the bottom), the average as the headline and in each day's label. */
function csatChart(csat: Csat) {
  const bars: Bar[] = csat.days.map((day) => ({
    day: day.day,
    segments: day.distribution.map((value, i) => ({ value, kind: `s${i + 1}` })),
    label:
      day.count === 0
        ? `${day.day}: no ratings`
        : `${day.day}: average ${day.average} from ${plural(day.count, "rating")} (${scores(day.distribution)})`,
  }));
  const { total } = csat;
  const headline = total.average === null ? "no ratings" : `${total.average} / 5`;
  const summary =
    total.count === 0
      ? "no visitor rated a chat in this period."
      : `average ${total.average} of 5 from ${plural(total.count, "rating")} (${scores(total.distribution)}).`;
  return barChart({ id: "chart-csat", title: "Visitor satisfaction (CSAT)", headline, summary, bars });
}

export function wireOverview() {
  const message = byId("overview-msg");
  async function show() {
    try {
      const [summary, stats, csat] = await Promise.all([
        api<AnalyticsSummary>("GET", "/analytics/summary"),
        api<WebhookStats>("GET", "/webhooks/stats"),
        api<Csat>("GET", "/analytics/ratings"),
      ]);
      byId("overview-charts").replaceChildren(
        ...COUNTS.map((spec) => countChart(summary.days, spec)),
        webhookChart(summary.days, stats),
        csatChart(csat),
      );
      say(message, "", "");
    } catch (error) {
      sayError(message, error);
    }
  }
  return { show };
}
