import type { Deps } from "../deps.ts";
import { parseIsoTime, toIso } from "../lib/clock.ts";
import { invalidField } from "../lib/validate.ts";

/** What the widget reports. A closed list: telemetry is counted, never free-form. */
export const ANALYTICS_EVENT_NAMES = [
  "widget_loaded",
  "widget_opened",
  "widget_closed",
  "message_sent",
  "quick_reply_clicked",
] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENT_NAMES)[number];

export const MAX_EVENTS_PER_REQUEST = 20;
const DAY_MS = 86_400_000;

export interface ReportedEvent {
  name: string;
  /** ISO 8601; absent = now. A time more than a day away from now is refused (a wrong clock). */
  at?: string;
}

/** Stores a batch of widget events for a tenant (and the visitor's session, when known). */
export async function recordAnalyticsEvents(
  deps: Pick<Deps, "store" | "clock">,
  input: { tenantId: string; sessionId: string | null; events: readonly ReportedEvent[] },
): Promise<{ accepted: number }> {
  if (input.events.length < 1 || input.events.length > MAX_EVENTS_PER_REQUEST)
    throw invalidField("events", `send 1 to ${MAX_EVENTS_PER_REQUEST} events`);
  const now = deps.clock.now();
  const rows = input.events.map((event, index) => {
    if (!ANALYTICS_EVENT_NAMES.some((name) => name === event.name))
      throw invalidField(`events.${index}.name`, `must be one of: ${ANALYTICS_EVENT_NAMES.join(", ")}`);
    const at = event.at === undefined ? now : parseIsoTime(event.at);
    if (at === null || Math.abs(at - now) > DAY_MS)
      throw invalidField(`events.${index}.at`, "must be an ISO 8601 time within a day of now");
    return {
      tenantId: input.tenantId,
      sessionId: input.sessionId,
      name: event.name,
      day: toIso(at).slice(0, 10),
      occurredAt: at,
    };
  });
  await deps.store.transaction((tx) => tx.analytics.insertAnalyticsEvents(rows));
  return { accepted: rows.length };
}
