import { getTableColumns } from "drizzle-orm";
import type { DeliveryAttemptRow, WebhookRuleRow } from "../rows.ts";
import { deliveries, deliveryAttempts, webhookRules } from "../schema.ts";
import {
  asBoolean,
  asNullableNumber,
  asNumber,
  type Dialect,
  filtered,
  insertRow,
  many,
  one,
  type Ops,
  write,
  writePerCall,
} from "../statements.ts";
import { DELIVERY_STREAM_OPS, OUTBOX_STREAM_OPS } from "./ordered-streams.ts";
import type {
  DeliveryCounts,
  DeliveryQueries,
  DeliveryTarget,
  OutboxQueries,
  RuleDeliveryCounts,
  WebhookRuleQueries,
} from "../store-webhooks.ts";

// Rules, outbox and delivery log; the scheduler's queue differs per store (*/delivery-queue.ts).

type RawRule = Omit<WebhookRuleRow, "active" | "previousSecretUntil"> & {
  active: number | boolean;
  previousSecretUntil: unknown;
};
const toRule = (row: RawRule): WebhookRuleRow => ({
  ...row,
  active: asBoolean(row.active),
  previousSecretUntil: asNullableNumber(row.previousSecretUntil),
});

const RULE_COLUMNS = new Map(Object.entries(getTableColumns(webhookRules)).map(([key, column]) => [key, column.name]));
const ruleChanges = (changes: object) => Object.entries(changes).filter(([, value]) => value !== undefined);

export const WEBHOOK_RULE_OPS: Ops<WebhookRuleQueries> = {
  findRule: one(
    (d) => `SELECT ${d.columns(webhookRules)} FROM webhook_rules WHERE id = $1 AND tenant_id = $2`,
    (tenantId, ruleId) => [ruleId, tenantId],
    (row: RawRule | null) => row && toRule(row),
  ),
  findRuleTenantId: one(
    'SELECT tenant_id AS "tenantId" FROM webhook_rules WHERE id = $1',
    (ruleId) => [ruleId],
    (row: { tenantId: string } | null) => row?.tenantId ?? null,
  ),
  findRuleIdByTarget: one(
    "SELECT id FROM webhook_rules WHERE tenant_id = $1 AND event = $2 AND url = $3",
    (tenantId, event, url) => [tenantId, event, url],
    (row: { id: string } | null) => row?.id ?? null,
  ),
  countRules: one(
    "SELECT count(*) AS n FROM webhook_rules WHERE tenant_id = $1",
    (tenantId) => [tenantId],
    (row: { n: unknown } | null) => asNumber(row?.n),
  ),
  insertRule: insertRow(webhookRules),
  // Any subset of columns (undefined left out): built per call, as rule edits are rare.
  updateRule: writePerCall(
    (_d, _ruleId, changes) => {
      const sets = ruleChanges(changes).map(([key], index) => {
        const column = RULE_COLUMNS.get(key);
        if (!column || key === "id" || key === "tenantId")
          throw new Error(`webhook_rules has no updatable column ${key}`);
        return `${column} = $${index + 2}`;
      });
      if (sets.length === 0) throw new Error("No values to set");
      return `UPDATE webhook_rules SET ${sets.join(", ")} WHERE id = $1`;
    },
    (ruleId, changes) => [ruleId, ...ruleChanges(changes).map(([, value]) => value)],
  ),
  deleteRule: write("DELETE FROM webhook_rules WHERE id = $1", (ruleId) => [ruleId]),
  listRules: filtered(
    ["after"],
    (_tenantId, afterId, _limit) => ({ after: afterId !== null }),
    (d, given) =>
      `SELECT ${d.columns(webhookRules)} FROM webhook_rules WHERE tenant_id = $1${given.after ? " AND id > $2" : ""} ORDER BY id LIMIT $3`,
    (tenantId, afterId, limit) => [tenantId, afterId, limit],
    (rows: RawRule[]) => rows.map(toRule),
  ),
};

const TARGET_COLUMNS = `id, url, secret, previous_secret AS "previousSecret", previous_secret_until AS "previousSecretUntil",
  rate_limit_per_s AS "rateLimitPerS", ordering`;
type RawTarget = Omit<DeliveryTarget, "previousSecretUntil"> & { previousSecretUntil: unknown };
const toTarget = (row: RawTarget): DeliveryTarget => ({
  ...row,
  previousSecretUntil: asNullableNumber(row.previousSecretUntil),
});

/** Ids (ASCII) in byte order: SQLite's BINARY and PostgreSQL's "C". */
const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const OUTBOX_OPS: Ops<OutboxQueries> = {
  insertEvent: write(
    "INSERT INTO events (id, tenant_id, event, data, confidence, occurred_at) VALUES ($1, $2, $3, $4, $5, $6)",
    (row) => [row.id, row.tenantId, row.event, row.data, row.confidence, row.occurredAt],
  ),
  // Sorted in JavaScript: webhook_rules_match_idx does not end in id, and every event would pay
  // SQLite's temporary B-tree for ORDER BY id.
  listMatchingTargets: many(
    `SELECT ${TARGET_COLUMNS} FROM webhook_rules
     WHERE tenant_id = $1 AND event = $2 AND active = TRUE AND (min_confidence IS NULL OR min_confidence <= $3)`,
    (tenantId, event, confidence) => [tenantId, event, confidence],
    (rows: RawTarget[]) => rows.map(toTarget).sort(byId),
  ),
  listRuleTarget: many(
    `SELECT ${TARGET_COLUMNS} FROM webhook_rules WHERE id = $1 AND tenant_id = $2`,
    (tenantId, ruleId) => [ruleId, tenantId],
    (rows: RawTarget[]) => rows.map(toTarget),
  ),
  // A waiting delivery has no next_attempt_at: outside deliveries_due_idx until released.
  insertPendingDelivery: write(
    `INSERT INTO deliveries (id, tenant_id, event_id, rule_id, event, url, status, attempts, cycle, next_attempt_at, lease_token, created_at, updated_at,
       stream_key, waits_for)
     VALUES ($1, $2, $3, $4, $5, $6, $12, 0, 1, $8, $9, $7, $7, $10, $11)`,
    (d) => [
      d.id,
      d.tenantId,
      d.eventId,
      d.ruleId,
      d.event,
      d.url,
      d.now,
      d.waitsFor ? null : (d.lease?.until ?? d.now),
      d.lease?.token ?? null,
      d.streamKey ?? null,
      d.waitsFor ?? null,
      d.waitsFor ? "waiting" : "pending",
    ],
  ),
  ...OUTBOX_STREAM_OPS,
  // A re-triggerable delivery keeps its event: the body is built from the event's data.
  purgeSpentEvents: write(
    `DELETE FROM events WHERE id IN (
       SELECT e.id FROM events e
       WHERE e.occurred_at <= $1 AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)
       ORDER BY e.occurred_at LIMIT $2)`,
    (cutoffMs, limit) => [cutoffMs, limit],
  ),
};

export const DELIVERY_LIST_FILTERS = ["status", "event", "ruleId", "before"] as const;

/** Each filter is an equality on an index ending in `id`, so a page is one range of it. */
export function deliveryListSql(d: Dialect, given: Record<(typeof DELIVERY_LIST_FILTERS)[number], boolean>): string {
  const conditions = ["tenant_id = $1"];
  if (given.status) conditions.push("status = $2");
  if (given.event) conditions.push("event = $3");
  if (given.ruleId) conditions.push("rule_id = $4");
  if (given.before) conditions.push("id < $5");
  return `SELECT ${d.columns(deliveries)} FROM deliveries WHERE ${conditions.join(" AND ")} ORDER BY id DESC LIMIT $6`;
}

type RawAttempt = Omit<DeliveryAttemptRow, "ok"> & { ok: number | boolean };
type RawCounts<T> = { [K in keyof T]: unknown };
const toCounts = <T extends DeliveryCounts>(row: RawCounts<T>): T =>
  ({ ...row, total: asNumber(row.total), succeeded: asNumber(row.succeeded), dead: asNumber(row.dead) }) as T;
const COUNT_OUTCOMES = `count(*) AS total, sum(CASE WHEN status = 'succeeded' THEN 1 ELSE 0 END) AS succeeded,
  sum(CASE WHEN status = 'dead' THEN 1 ELSE 0 END) AS dead`;

export const DELIVERY_OPS: Ops<DeliveryQueries> = {
  ...DELIVERY_STREAM_OPS,
  listDeliveries: filtered(
    DELIVERY_LIST_FILTERS,
    (_tenantId, filter, beforeId, _limit) => ({
      status: filter.status != null,
      event: filter.event != null,
      ruleId: filter.ruleId != null,
      before: beforeId !== null,
    }),
    deliveryListSql,
    (tenantId, filter, beforeId, limit) => [
      tenantId,
      filter.status ?? null,
      filter.event ?? null,
      filter.ruleId ?? null,
      beforeId,
      limit,
    ],
  ),
  findDelivery: one(
    (d) => `SELECT ${d.columns(deliveries)} FROM deliveries WHERE id = $1 AND tenant_id = $2`,
    (tenantId, deliveryId) => [deliveryId, tenantId],
  ),
  listAttempts: many(
    (d) =>
      `SELECT ${d.columns(deliveryAttempts)} FROM delivery_attempts WHERE delivery_id = $1 ORDER BY started_at, cycle, attempt`,
    (deliveryId) => [deliveryId],
    (rows: RawAttempt[]) => rows.map((row) => ({ ...row, ok: asBoolean(row.ok) })),
  ),
  findEventBody: one(
    `SELECT data, occurred_at AS "occurredAt" FROM events WHERE id = $1`,
    (eventId) => [eventId],
    (row: { data: string; occurredAt: unknown } | null) =>
      row && { data: row.data, occurredAt: Number(row.occurredAt) },
  ),
  postponeLeasedDelivery: write(
    `UPDATE deliveries SET next_attempt_at = $3, lease_token = NULL, updated_at = $4
     WHERE id = $1 AND lease_token = $2 AND status = 'pending'`,
    (deliveryId, leaseToken, dueAt, now) => [deliveryId, leaseToken, dueAt, now],
    (changes) => changes > 0,
  ),
  // A dead delivery whose dead letter is live stays: a re-trigger needs its row. Attempts go by
  // cascade (a trigger on PostgreSQL).
  purgeSpentDeliveries: write(
    `DELETE FROM deliveries WHERE id IN (
       SELECT d.id FROM deliveries d
       WHERE d.completed_at IS NOT NULL AND d.completed_at <= $1 AND d.status != 'pending'
         AND NOT EXISTS (SELECT 1 FROM dead_letters l WHERE l.delivery_id = d.id)
       ORDER BY d.completed_at LIMIT $2)`,
    (cutoffMs, limit) => [cutoffMs, limit],
  ),
  // Both windows are an id range of deliveries_tenant_idx: ids sort by creation time.
  countDeliveriesByRule: many(
    `SELECT s.rule_id AS "ruleId", s.total, s.succeeded, s.dead, d.status AS "lastStatus", d.last_status_code AS "lastStatusCode",
       d.updated_at AS "lastAt"
     FROM (SELECT rule_id, ${COUNT_OUTCOMES}, max(id) AS last_id
           FROM deliveries WHERE tenant_id = $1 AND id >= $2 AND rule_id IS NOT NULL GROUP BY rule_id) AS s
     JOIN deliveries AS d ON d.id = s.last_id
     ORDER BY s.rule_id`,
    (tenantId, fromId) => [tenantId, fromId],
    (rows: Array<RawCounts<RuleDeliveryCounts>>) =>
      rows.map((row) => ({ ...toCounts<RuleDeliveryCounts>(row), lastAt: asNumber(row.lastAt) })),
  ),
  countDeliveriesByDay: many(
    (d) => `SELECT ${d.utcDay("created_at")} AS day, ${COUNT_OUTCOMES}
     FROM deliveries WHERE tenant_id = $1 AND id >= $2 GROUP BY day ORDER BY day`,
    (tenantId, fromId) => [tenantId, fromId],
    (rows: Array<RawCounts<DeliveryCounts & { day: string }>>) =>
      rows.map((row) => toCounts<DeliveryCounts & { day: string }>(row)),
  ),
  describeDeliveries: many(
    (
      d,
    ) => `SELECT d.id, d.url, (SELECT count(*) FROM delivery_attempts AS a WHERE a.delivery_id = d.id) AS "totalAttempts"
     FROM deliveries AS d WHERE d.tenant_id = $1 AND ${d.inList("d.id", "$2")}`,
    (tenantId, deliveryIds) => [tenantId, [...deliveryIds]],
    (rows: Array<{ id: string; url: string; totalAttempts: unknown }>) =>
      rows.map((row) => ({ ...row, totalAttempts: asNumber(row.totalAttempts) })),
  ),
};
