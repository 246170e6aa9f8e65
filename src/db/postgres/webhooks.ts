import { getTableColumns } from "drizzle-orm";
import type { DeadLetterRow, DeliveryAttemptRow, DeliveryRow, WebhookRuleRow } from "../rows.ts";
import type {
  DeadLetterQueries,
  DeliveryCounts,
  DeliveryQueries,
  DeliveryTarget,
  OutboxQueries,
  RuleDeliveryCounts,
  WebhookRuleQueries,
} from "../store-webhooks.ts";
import { pgColumns } from "./columns.ts";
import type { PgExec } from "./exec.ts";
import { deadLetters, deliveries, deliveryAttempts, webhookRules } from "./schema.ts";

// The webhook aggregates on PostgreSQL: the same statements as src/db/sqlite/{webhook-rules,
// outbox,deliveries,dead-letters}.ts, translated. Lists with optional filters build only the
// conditions (and parameters) they need, as the SQLite variants do: PostgreSQL cannot type a
// parameter that no condition uses, and `($2 IS NULL OR col = $2)` defeats an index here too.

/** Appends a parameter and returns its placeholder (`$n`). */
function binder(params: unknown[]) {
  return (value: unknown, cast = ""): string => {
    params.push(value);
    return `$${params.length}${cast}`;
  };
}

export function pgWebhookRules(db: PgExec): WebhookRuleQueries {
  const columns = pgColumns(webhookRules);
  const columnNames = new Map(Object.entries(getTableColumns(webhookRules)).map(([key, column]) => [key, column.name]));
  return {
    findRule: (tenantId, ruleId) => db.get<WebhookRuleRow>(`SELECT ${columns} FROM webhook_rules WHERE id = $1 AND tenant_id = $2`, [ruleId, tenantId]),
    findRuleIdByTarget: async (tenantId, event, url) =>
      (await db.get<{ id: string }>("SELECT id FROM webhook_rules WHERE tenant_id = $1 AND event = $2 AND url = $3", [tenantId, event, url]))?.id ?? null,
    countRules: async (tenantId) => (await db.get<{ n: number }>("SELECT count(*)::int AS n FROM webhook_rules WHERE tenant_id = $1", [tenantId]))?.n ?? 0,
    insertRule: async (row) => {
      await db.run(
        "INSERT INTO webhook_rules (id, tenant_id, name, event, url, secret, min_confidence, active, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        [row.id, row.tenantId, row.name, row.event, row.url, row.secret, row.minConfidence, row.active, row.createdAt, row.updatedAt],
      );
    },
    // Any subset of columns, as the SQLite store's query builder (undefined values are left out).
    updateRule: async (ruleId, changes) => {
      const params: unknown[] = [];
      const bind = binder(params);
      const sets = Object.entries(changes)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => {
          const column = columnNames.get(key);
          if (!column || key === "id" || key === "tenantId") throw new Error(`webhook_rules has no updatable column ${key}`);
          return `${column} = ${bind(value)}`;
        });
      if (sets.length === 0) throw new Error("No values to set");
      await db.run(`UPDATE webhook_rules SET ${sets.join(", ")} WHERE id = ${bind(ruleId)}`, params);
    },
    deleteRule: async (ruleId) => {
      await db.run("DELETE FROM webhook_rules WHERE id = $1", [ruleId]);
    },
    listRules: (tenantId, afterId, limit) =>
      afterId === null
        ? db.all<WebhookRuleRow>(`SELECT ${columns} FROM webhook_rules WHERE tenant_id = $1 ORDER BY id LIMIT $2`, [tenantId, limit])
        : db.all<WebhookRuleRow>(`SELECT ${columns} FROM webhook_rules WHERE tenant_id = $1 AND id > $2 ORDER BY id LIMIT $3`, [tenantId, afterId, limit]),
  };
}

export function pgOutbox(db: PgExec): OutboxQueries {
  return {
    insertEvent: async (row) => {
      await db.run("INSERT INTO events (id, tenant_id, event, data, confidence, occurred_at) VALUES ($1, $2, $3, $4, $5, $6)", [
        row.id, row.tenantId, row.event, row.data, row.confidence, row.occurredAt,
      ]);
    },
    listMatchingTargets: (tenantId, event, confidence) =>
      db.all<DeliveryTarget>(
        `SELECT id, url, secret FROM webhook_rules
         WHERE tenant_id = $1 AND event = $2 AND active AND (min_confidence IS NULL OR min_confidence <= $3)
         ORDER BY id`,
        [tenantId, event, confidence],
      ),
    listRuleTarget: (tenantId, ruleId) => db.all<DeliveryTarget>("SELECT id, url, secret FROM webhook_rules WHERE id = $1 AND tenant_id = $2", [ruleId, tenantId]),
    insertPendingDelivery: async (d) => {
      await db.run(
        `INSERT INTO deliveries (id, tenant_id, event_id, rule_id, event, url, status, attempts, cycle, next_attempt_at, lease_token, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, 1, $8, $9, $7, $7)`,
        [d.id, d.tenantId, d.eventId, d.ruleId, d.event, d.url, d.now, d.lease?.until ?? d.now, d.lease?.token ?? null],
      );
    },
    // Events older than the cutoff with no delivery left (see the SQLite twin).
    purgeSpentEvents: (cutoffMs, limit) =>
      db.run(
        `DELETE FROM events WHERE id IN (
           SELECT e.id FROM events e
           WHERE e.occurred_at <= $1 AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)
           ORDER BY e.occurred_at LIMIT $2)`,
        [cutoffMs, limit],
      ),
  };
}

export function pgDeliveries(db: PgExec): DeliveryQueries {
  const columns = pgColumns(deliveries);
  const attemptColumns = pgColumns(deliveryAttempts);
  return {
    // The window is an id range on deliveries_tenant_idx (ids sort by creation time). Ordered
    // by rule id, the order SQLite's GROUP BY over deliveries_tenant_rule_idx gives.
    countDeliveriesByRule: (tenantId, fromId) =>
      db.all<RuleDeliveryCounts>(
        `SELECT s.rule_id AS "ruleId", s.total, s.succeeded, s.dead, d.status AS "lastStatus", d.last_status_code AS "lastStatusCode",
           d.updated_at::float8 AS "lastAt"
         FROM (SELECT rule_id, count(*)::int AS total, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
                 count(*) FILTER (WHERE status = 'dead')::int AS dead, max(id) AS last_id
               FROM deliveries WHERE tenant_id = $1 AND id >= $2 AND rule_id IS NOT NULL GROUP BY rule_id) AS s
         JOIN deliveries AS d ON d.id = s.last_id
         ORDER BY s.rule_id`,
        [tenantId, fromId],
      ),
    countDeliveriesByDay: (tenantId, fromId) =>
      db.all<DeliveryCounts & { day: string }>(
        `SELECT to_char(to_timestamp(created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS total,
           count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded, count(*) FILTER (WHERE status = 'dead')::int AS dead
         FROM deliveries WHERE tenant_id = $1 AND id >= $2 GROUP BY day ORDER BY day`,
        [tenantId, fromId],
      ),
    describeDeliveries: async (tenantId, deliveryIds) =>
      deliveryIds.length === 0
        ? []
        : db.all<{ id: string; url: string; totalAttempts: number }>(
            `SELECT d.id, d.url, (SELECT count(*)::int FROM delivery_attempts AS a WHERE a.delivery_id = d.id) AS "totalAttempts"
             FROM deliveries AS d WHERE d.tenant_id = $1 AND d.id = ANY($2::text[])`,
            [tenantId, [...deliveryIds]],
          ),
    listDeliveries: (tenantId, filter, beforeId, limit) => {
      const params: unknown[] = [];
      const bind = binder(params);
      const conditions = [`tenant_id = ${bind(tenantId)}`];
      if (filter.status != null) conditions.push(`status = ${bind(filter.status)}`);
      if (filter.event != null) conditions.push(`event = ${bind(filter.event)}`);
      if (filter.ruleId != null) conditions.push(`rule_id = ${bind(filter.ruleId)}`);
      if (beforeId !== null) conditions.push(`id < ${bind(beforeId)}`);
      return db.all<DeliveryRow>(`SELECT ${columns} FROM deliveries WHERE ${conditions.join(" AND ")} ORDER BY id DESC LIMIT ${bind(limit)}`, params);
    },
    findDelivery: (tenantId, deliveryId) => db.get<DeliveryRow>(`SELECT ${columns} FROM deliveries WHERE id = $1 AND tenant_id = $2`, [deliveryId, tenantId]),
    listAttempts: (deliveryId) =>
      db.all<DeliveryAttemptRow>(`SELECT ${attemptColumns} FROM delivery_attempts WHERE delivery_id = $1 ORDER BY started_at, cycle, attempt`, [deliveryId]),
    // Finished deliveries whose dead letter (if any) is gone; attempts go by ON DELETE CASCADE.
    purgeSpentDeliveries: (cutoffMs, limit) =>
      db.run(
        `DELETE FROM deliveries WHERE id IN (
           SELECT d.id FROM deliveries d
           WHERE d.completed_at IS NOT NULL AND d.completed_at <= $1 AND d.status != 'pending'
             AND NOT EXISTS (SELECT 1 FROM dead_letters l WHERE l.delivery_id = d.id)
           ORDER BY d.completed_at LIMIT $2)`,
        [cutoffMs, limit],
      ),
  };
}

export function pgDeadLetters(db: PgExec): DeadLetterQueries {
  const columns = pgColumns(deadLetters);
  return {
    // Expired rows are hidden even before the sweeper has run (retention is exact).
    listLiveDeadLetters: (filter, now, beforeId, limit) => {
      const params: unknown[] = [];
      const bind = binder(params);
      const conditions: string[] = [];
      if (filter.tenantId !== null) conditions.push(`tenant_id = ${bind(filter.tenantId)}`);
      if (filter.event != null) conditions.push(`event = ${bind(filter.event)}`);
      conditions.push(`dead_at >= ${bind(filter.sinceMs ?? 0)}`, `expires_at > ${bind(now)}`);
      if (beforeId !== null) conditions.push(`id < ${bind(beforeId)}`);
      return db.all<DeadLetterRow>(`SELECT ${columns} FROM dead_letters WHERE ${conditions.join(" AND ")} ORDER BY id DESC LIMIT ${bind(limit)}`, params);
    },
    findLiveDeadLetter: (deadLetterId, now) => db.get<DeadLetterRow>(`SELECT ${columns} FROM dead_letters WHERE id = $1 AND expires_at > $2`, [deadLetterId, now]),
    deleteDeadLetter: async (deadLetterId) => {
      await db.run("DELETE FROM dead_letters WHERE id = $1", [deadLetterId]);
    },
    // One statement checks tenant and retention and deletes: nothing to race with a re-trigger.
    discardDeadLetter: (tenantId, deadLetterId, now) =>
      db.get<{ id: string; deliveryId: string }>(
        `DELETE FROM dead_letters WHERE id = $1 AND tenant_id = $2 AND expires_at > $3 RETURNING id, delivery_id AS "deliveryId"`,
        [deadLetterId, tenantId, now],
      ),
    // A fresh cycle: same webhook_id, attempts from 1 again, due now.
    restartDeadDelivery: async (deliveryId, now) =>
      (await db.run(
        `UPDATE deliveries SET status = 'pending', attempts = 0, cycle = cycle + 1, next_attempt_at = $1, lease_token = NULL,
           last_status_code = NULL, last_error = NULL, completed_at = NULL, updated_at = $1
         WHERE id = $2 AND status = 'dead'`,
        [now, deliveryId],
      )) > 0,
    purgeExpiredDeadLetters: (now) => db.run("DELETE FROM dead_letters WHERE expires_at <= $1", [now]),
  };
}
