import type { Deps } from "../deps.ts";
import { writeTransaction } from "../db/client.ts";
import { preparedFor } from "../db/prepared.ts";
import { notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { emitEvent } from "./emit-event.ts";
import { EVENT_CATALOG, isEventName } from "./events.ts";
import { getRuleRow } from "./rules.ts";
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
}

interface DeliveryRow {
  id: string;
  event: string;
  event_id: string;
  rule_id: string | null;
  url: string;
  status: string;
  attempts: number;
  cycle: number;
  next_attempt_at: number | null;
  lease_token: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  completed_at: number | null;
}

interface AttemptRow {
  cycle: number;
  attempt: number;
  started_at: number;
  duration_ms: number;
  ok: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

const toView = (row: DeliveryRow): DeliveryView => ({
  webhook_id: row.id,
  event: row.event,
  event_id: row.event_id,
  rule_id: row.rule_id,
  url: row.url,
  status: row.status,
  attempts: row.attempts,
  cycle: row.cycle,
  // A claimed row's next_attempt_at is its lease expiry, not a planned attempt.
  next_attempt_at: row.status === "pending" && row.next_attempt_at !== null && row.lease_token === null ? toIso(row.next_attempt_at) : null,
  last_status_code: row.last_status_code,
  last_error: row.last_error,
  created_at: toIso(row.created_at),
  completed_at: row.completed_at === null ? null : toIso(row.completed_at),
});

const COLUMNS = "id, event, event_id, rule_id, url, status, attempts, cycle, next_attempt_at, lease_token, last_status_code, last_error, created_at, completed_at";

const statements = preparedFor((sqlite) => ({
  list: sqlite.prepare<DeliveryRow, [string, string | null, string | null, string | null, string | null, number]>(
    `SELECT ${COLUMNS} FROM deliveries
     WHERE tenant_id = ?1 AND (?2 IS NULL OR status = ?2) AND (?3 IS NULL OR event = ?3) AND (?4 IS NULL OR rule_id = ?4)
       AND (?5 IS NULL OR id < ?5)
     ORDER BY id DESC LIMIT ?6`,
  ),
  one: sqlite.prepare<DeliveryRow, [string, string]>(`SELECT ${COLUMNS} FROM deliveries WHERE id = ? AND tenant_id = ?`),
  attempts: sqlite.prepare<AttemptRow, [string]>(
    "SELECT cycle, attempt, started_at, duration_ms, ok, status_code, error, response_excerpt FROM delivery_attempts WHERE delivery_id = ? ORDER BY started_at, cycle, attempt",
  ),
}));

export interface DeliveryFilter {
  status?: string;
  event?: string;
  ruleId?: string;
}

export function listDeliveries(deps: Deps, tenantId: string, filter: DeliveryFilter, page: { limit: number; cursor?: string }): Page<DeliveryView> {
  const rows = statements(deps.sqlite).list.all(tenantId, filter.status ?? null, filter.event ?? null, filter.ruleId ?? null, page.cursor ?? null, page.limit + 1);
  return toPage(rows, page.limit, (row) => row.id, toView);
}

/** One delivery with every attempt of every cycle, oldest first. */
export function getDelivery(deps: Deps, tenantId: string, webhookId: string): DeliveryView & { attempt_log: AttemptView[] } {
  const sql = statements(deps.sqlite);
  const row = sql.one.get(webhookId, tenantId);
  if (!row) throw notFound("delivery");
  const attemptLog = sql.attempts.all(webhookId).map((attempt) => ({
    cycle: attempt.cycle,
    attempt: attempt.attempt,
    started_at: toIso(attempt.started_at),
    duration_ms: attempt.duration_ms,
    ok: attempt.ok === 1,
    status_code: attempt.status_code,
    error: attempt.error,
    response_excerpt: attempt.response_excerpt,
  }));
  return { ...toView(row), attempt_log: attemptLog };
}

/**
 * Enqueues a rehearsal delivery to one rule: the catalog example of its event with
 * `"test": true`, sent through the normal path (signing, retries, dead letter, re-trigger).
 */
export function enqueueTestDelivery(deps: Deps, tenantId: string, ruleId: string): { webhook_id: string; event: string } {
  const rule = getRuleRow(deps, tenantId, ruleId);
  if (!isEventName(rule.event)) throw new Error(`rule ${rule.id} has an unknown event ${rule.event}`);
  const event = rule.event;
  const data = { ...EVENT_CATALOG[event].example, test: true };
  const emitted = writeTransaction(deps.sqlite, () => emitEvent(deps, { tenantId, event, data, onlyRuleId: rule.id }));
  const webhookId = emitted.deliveryIds[0];
  if (!webhookId) throw new Error("the test delivery was not enqueued");
  return { webhook_id: webhookId, event };
}
