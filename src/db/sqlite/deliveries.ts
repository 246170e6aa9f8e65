import type { Database } from "bun:sqlite";
import type { DeliveryAttemptRow, DeliveryRow } from "../rows.ts";
import { deliveries, deliveryAttempts } from "../schema.ts";
import type { DeliveryCounts, DeliveryQueries, RuleDeliveryCounts } from "../store-webhooks.ts";
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";
import { prepareVariants } from "./list-variants.ts";

export const DELIVERY_LIST_FILTERS = ["status", "event", "ruleId", "before"] as const;
type DeliveryListFilter = (typeof DELIVERY_LIST_FILTERS)[number];

/**
 * The delivery log's page for one combination of filters (list-variants.ts): each filter is
 * an equality on an index that ends in `id` (deliveries_tenant_{status,event,rule}_idx), so a
 * page is a range of it whatever the cursor, and the tenant's other rows are never read.
 */
export function deliveryListSql(given: Record<DeliveryListFilter, boolean>): string {
  const conditions = ["tenant_id = ?1"];
  if (given.status) conditions.push("status = ?2");
  if (given.event) conditions.push("event = ?3");
  if (given.ruleId) conditions.push("rule_id = ?4");
  if (given.before) conditions.push("id < ?5");
  return `SELECT ${selectColumns(deliveries)} FROM deliveries WHERE ${conditions.join(" AND ")} ORDER BY id DESC LIMIT ?6`;
}

type RawAttempt = Omit<DeliveryAttemptRow, "ok"> & { ok: number };

export function sqliteDeliveries(sqlite: Database): SyncOf<DeliveryQueries> {
  const columns = selectColumns(deliveries);
  const list = prepareVariants<DeliveryListFilter, DeliveryRow, [string, string | null, string | null, string | null, string | null, number]>(
    sqlite,
    DELIVERY_LIST_FILTERS,
    deliveryListSql,
  );
  const one = sqlite.prepare<DeliveryRow, [string, string]>(`SELECT ${columns} FROM deliveries WHERE id = ? AND tenant_id = ?`);
  const attempts = sqlite.prepare<RawAttempt, [string]>(
    `SELECT ${selectColumns(deliveryAttempts)} FROM delivery_attempts WHERE delivery_id = ? ORDER BY started_at, cycle, attempt`,
  );
  // Finished deliveries (succeeded, cancelled, or dead whose dead letter is gone) that finished
  // before the cutoff; their attempt logs go with them (ON DELETE CASCADE). A dead delivery whose
  // dead letter is still live stays: it can be re-triggered, and that needs its row.
  const purgeSpent = sqlite.prepare(
    `DELETE FROM deliveries WHERE id IN (
       SELECT d.id FROM deliveries d
       WHERE d.completed_at IS NOT NULL AND d.completed_at <= ?1 AND d.status != 'pending'
         AND NOT EXISTS (SELECT 1 FROM dead_letters l WHERE l.delivery_id = d.id)
       ORDER BY d.completed_at LIMIT ?2)`,
  );
  // Both windows are an id range on deliveries_tenant_idx: ids sort by creation time.
  const byRule = sqlite.prepare<RuleDeliveryCounts, [string, string]>(
    `SELECT s.rule_id AS ruleId, s.total, s.succeeded, s.dead, d.status AS lastStatus, d.last_status_code AS lastStatusCode, d.updated_at AS lastAt
     FROM (SELECT rule_id, count(*) AS total, sum(status = 'succeeded') AS succeeded, sum(status = 'dead') AS dead, max(id) AS last_id
           FROM deliveries WHERE tenant_id = ?1 AND id >= ?2 AND rule_id IS NOT NULL GROUP BY rule_id) AS s
     JOIN deliveries AS d ON d.id = s.last_id`,
  );
  const byDay = sqlite.prepare<DeliveryCounts & { day: string }, [string, string]>(
    `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, count(*) AS total,
       sum(status = 'succeeded') AS succeeded, sum(status = 'dead') AS dead
     FROM deliveries WHERE tenant_id = ? AND id >= ? GROUP BY day ORDER BY day`,
  );
  const details = sqlite.prepare<{ id: string; url: string; totalAttempts: number }, [string, string]>(
    `SELECT d.id, d.url, (SELECT count(*) FROM delivery_attempts AS a WHERE a.delivery_id = d.id) AS totalAttempts
     FROM deliveries AS d WHERE d.tenant_id = ? AND d.id IN (SELECT value FROM json_each(?))`,
  );
  return {
    countDeliveriesByRule: (tenantId, fromId) => byRule.all(tenantId, fromId),
    countDeliveriesByDay: (tenantId, fromId) => byDay.all(tenantId, fromId),
    describeDeliveries: (tenantId, deliveryIds) => (deliveryIds.length === 0 ? [] : details.all(tenantId, JSON.stringify(deliveryIds))),
    listDeliveries: (tenantId, filter, beforeId, limit) =>
      list({ status: filter.status != null, event: filter.event != null, ruleId: filter.ruleId != null, before: beforeId !== null }).all(
        tenantId, filter.status ?? null, filter.event ?? null, filter.ruleId ?? null, beforeId, limit,
      ),
    findDelivery: (tenantId, deliveryId) => one.get(deliveryId, tenantId),
    listAttempts: (deliveryId) => attempts.all(deliveryId).map((row) => ({ ...row, ok: row.ok === 1 })),
    purgeSpentDeliveries: (cutoffMs, limit) => purgeSpent.run(cutoffMs, limit).changes,
  };
}
