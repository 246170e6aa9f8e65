import type { Deps } from "../deps.ts";
import type { DeliveryFilter, DeliveryRow, DeliveryState } from "../db/store.ts";
import { notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { enqueueEvent } from "./emit-event.ts";
import { EVENT_CATALOG, isEventName } from "./events.ts";
import { getRuleRow } from "./rules.ts";
import { rebuildDeliveryBody } from "./sign.ts";
import { toPage, type Page } from "../lib/page.ts";

export interface DeliveryView {
  webhook_id: string;
  event: string;
  event_id: string;
  rule_id: string | null;
  url: string;
  status: string;
  attempts: number;
  cycle: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
  /** Whether it belongs to an ordered stream (its rule's ordering was per_session and the event had a session). */
  ordered: boolean;
  /** A waiting delivery: the one of its stream it is sent after, and why that one is not done. */
  waiting: { waits_for: string; reason: string } | null;
}

export interface AttemptView {
  cycle: number;
  attempt: number;
  started_at: string;
  duration_ms: number;
  ok: boolean;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  /** The request this attempt sent: its headers and body, exactly; null when it was not kept. */
  request: { headers: Record<string, string>; body: string } | null;
}

/** What the delivery a waiting one is behind is doing now, in the log's words. */
function predecessorState(state: DeliveryState | undefined): string {
  if (state?.status !== "pending") return state?.status ?? "gone";
  if (state.leased) return "being sent";
  return state.attempts > 0 ? "retrying" : "due";
}

const waitingOf = (row: DeliveryRow, states: ReadonlyMap<string, DeliveryState>): DeliveryView["waiting"] =>
  row.status === "waiting" && row.waitsFor !== null
    ? { waits_for: row.waitsFor, reason: `waits for ${row.waitsFor} (${predecessorState(states.get(row.waitsFor))})` }
    : null;

/** The states of the deliveries the waiting rows among `rows` wait for: one query for a whole page. */
async function predecessorStates(
  deps: Deps,
  tenantId: string,
  rows: readonly DeliveryRow[],
): Promise<Map<string, DeliveryState>> {
  const ids = rows.flatMap((row) => (row.status === "waiting" && row.waitsFor !== null ? [row.waitsFor] : []));
  if (ids.length === 0) return new Map();
  const states = await deps.store.deliveries.describeDeliveryStates(tenantId, ids);
  return new Map(states.map((state) => [state.id, state]));
}

const toView = (row: DeliveryRow, states: ReadonlyMap<string, DeliveryState> = new Map()): DeliveryView => ({
  webhook_id: row.id,
  event: row.event,
  event_id: row.eventId,
  rule_id: row.ruleId,
  url: row.url,
  status: row.status,
  attempts: row.attempts,
  cycle: row.cycle,
  // A claimed row's next_attempt_at is its lease expiry, not a planned attempt.
  next_attempt_at:
    row.status === "pending" && row.nextAttemptAt !== null && row.leaseToken === null ? toIso(row.nextAttemptAt) : null,
  last_status_code: row.lastStatusCode,
  last_error: row.lastError,
  created_at: toIso(row.createdAt),
  completed_at: row.completedAt === null ? null : toIso(row.completedAt),
  ordered: row.streamKey !== null,
  waiting: waitingOf(row, states),
});

export type { DeliveryFilter };

export async function listDeliveries(
  deps: Deps,
  tenantId: string,
  filter: DeliveryFilter,
  page: { limit: number; cursor?: string },
): Promise<Page<DeliveryView>> {
  const rows = await deps.store.deliveries.listDeliveries(tenantId, filter, page.cursor ?? null, page.limit + 1);
  const states = await predecessorStates(deps, tenantId, rows);
  return toPage(
    rows,
    page.limit,
    (row) => row.id,
    (row) => toView(row, states),
  );
}

/** One delivery with every attempt of every cycle, oldest first. */
export async function getDelivery(
  deps: Deps,
  tenantId: string,
  webhookId: string,
): Promise<DeliveryView & { attempt_log: AttemptView[] }> {
  const row = await deps.store.deliveries.findDelivery(tenantId, webhookId);
  if (!row) throw notFound("delivery");
  const attempts = await deps.store.deliveries.listAttempts(webhookId);
  const event = attempts.some((attempt) => attempt.requestHeaders !== null)
    ? await deps.store.deliveries.findEventBody(row.eventId)
    : null;
  const requestOf = (headersJson: string | null): AttemptView["request"] => {
    if (headersJson === null || event === null) return null;
    const headers = JSON.parse(headersJson) as Record<string, string>;
    const envelope = { event: row.event, webhookId: row.id, timestamp: toIso(event.occurredAt), dataJson: event.data };
    return { headers, body: rebuildDeliveryBody(envelope, headers["X-Service-Signature"] ?? "") };
  };
  const attemptLog = attempts.map((attempt) => ({
    cycle: attempt.cycle,
    attempt: attempt.attempt,
    started_at: toIso(attempt.startedAt),
    duration_ms: attempt.durationMs,
    ok: attempt.ok,
    status_code: attempt.statusCode,
    error: attempt.error,
    response_excerpt: attempt.responseExcerpt,
    request: requestOf(attempt.requestHeaders),
  }));
  return { ...toView(row, await predecessorStates(deps, tenantId, [row])), attempt_log: attemptLog };
}

/**
 * Enqueues a rehearsal delivery to one rule: the catalog example of its event with
 * `"test": true`, sent through the normal path (signing, retries, dead letter, re-trigger).
 */
export async function enqueueTestDelivery(
  deps: Deps,
  tenantId: string,
  ruleId: string,
): Promise<{ webhook_id: string; event: string }> {
  const rule = await getRuleRow(deps, tenantId, ruleId);
  if (!isEventName(rule.event)) throw new Error(`rule ${rule.id} has an unknown event ${rule.event}`);
  const event = rule.event;
  const data = { ...EVENT_CATALOG[event].example, test: true };
  const emitted = await deps.store.transaction((tx) =>
    enqueueEvent(deps, tx, { tenantId, event, data, onlyRuleId: rule.id }),
  );
  const webhookId = emitted.deliveryIds[0];
  if (!webhookId) throw new Error("the test delivery was not enqueued");
  return { webhook_id: webhookId, event };
}
