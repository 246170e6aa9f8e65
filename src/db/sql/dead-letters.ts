import { deadLetters } from "../schema.ts";
import { type Dialect, filtered, many, one, type Ops, write } from "../statements.ts";
import type { DeadLetterQueries } from "../store-webhooks.ts";

export const DEAD_LETTER_LIST_FILTERS = ["tenant", "event", "before"] as const;

/**
 * A tenant's list is a range of dead_letters_tenant_{id,event}_idx; expired rows are hidden before
 * the sweep (retention is exact). Without a tenant (the CLI) it walks the primary key from the top.
 */
export function deadLetterListSql(
  d: Dialect,
  given: Record<(typeof DEAD_LETTER_LIST_FILTERS)[number], boolean>,
): string {
  const conditions: string[] = [];
  if (given.tenant) conditions.push("tenant_id = $1");
  if (given.event) conditions.push("event = $2");
  conditions.push("dead_at >= $3", "expires_at > $4");
  if (given.before) conditions.push("id < $5");
  return `SELECT ${d.columns(deadLetters)} FROM dead_letters WHERE ${conditions.join(" AND ")} ORDER BY id DESC LIMIT $6`;
}

export const DEAD_LETTER_OPS: Ops<DeadLetterQueries> = {
  listLiveDeadLetters: filtered(
    DEAD_LETTER_LIST_FILTERS,
    (filter, _now, beforeId, _limit) => ({
      tenant: filter.tenantId !== null,
      event: filter.event != null,
      before: beforeId !== null,
    }),
    deadLetterListSql,
    (filter, now, beforeId, limit) => [
      filter.tenantId,
      filter.event ?? null,
      filter.sinceMs ?? 0,
      now,
      beforeId,
      limit,
    ],
  ),
  findLiveDeadLetter: one(
    (d) => `SELECT ${d.columns(deadLetters)} FROM dead_letters WHERE id = $1 AND expires_at > $2`,
    (deadLetterId, now) => [deadLetterId, now],
  ),
  deleteDeadLetter: write("DELETE FROM dead_letters WHERE id = $1", (deadLetterId) => [deadLetterId]),
  discardDeadLetter: one(
    `DELETE FROM dead_letters WHERE id = $1 AND tenant_id = $2 AND expires_at > $3 RETURNING id, delivery_id AS "deliveryId"`,
    (tenantId, deadLetterId, now) => [deadLetterId, tenantId, now],
  ),
  // A fresh cycle: same webhook_id, attempts from 1 again, due now — or, ordered, waiting at
  // the end of its stream (src/webhooks/ordered-streams.ts).
  restartDeadDelivery: write(
    `UPDATE deliveries SET status = $3, attempts = 0, cycle = cycle + 1, next_attempt_at = $4, lease_token = NULL, waits_for = $5,
       last_status_code = NULL, last_error = NULL, completed_at = NULL, updated_at = $1
     WHERE id = $2 AND status = 'dead'`,
    (deliveryId, now, waitsFor = null) => [
      now,
      deliveryId,
      waitsFor ? "waiting" : "pending",
      waitsFor ? null : now,
      waitsFor,
    ],
    (changes) => changes > 0,
  ),
  listRuleDeadStreamDeliveries: many(
    `SELECT id, stream_key AS "streamKey" FROM deliveries
     WHERE tenant_id = $1 AND rule_id = $2 AND created_at >= $3 AND status = 'dead' AND stream_key IS NOT NULL ORDER BY id`,
    (tenantId, ruleId, sinceMs) => [tenantId, ruleId, sinceMs],
  ),
  // deliveries_tenant_rule_idx serves both, created_at checked on the way: not an id range, since
  // an id carries its generator's latest time, later than created_at after the clock stepped back.
  deleteRuleDeadLettersSince: write(
    `DELETE FROM dead_letters WHERE delivery_id IN (
       SELECT id FROM deliveries WHERE tenant_id = $1 AND rule_id = $2 AND created_at >= $3 AND status = 'dead')`,
    (tenantId, ruleId, sinceMs) => [tenantId, ruleId, sinceMs],
  ),
  // A leased row is in flight: left to its sender, whose result would otherwise be stale and the
  // send repeated. A retrying ordered row stays the head of its stream.
  recoverRuleDeliveries: write(
    `UPDATE deliveries SET status = 'pending', attempts = 0, cycle = cycle + 1, next_attempt_at = $4, lease_token = NULL,
       last_status_code = NULL, last_error = NULL, completed_at = NULL, updated_at = $4
     WHERE tenant_id = $1 AND rule_id = $2 AND created_at >= $3
       AND ((status = 'dead' AND stream_key IS NULL) OR (status = 'pending' AND attempts > 0 AND lease_token IS NULL))`,
    (tenantId, ruleId, sinceMs, now) => [tenantId, ruleId, sinceMs, now],
  ),
  purgeExpiredDeadLetters: write("DELETE FROM dead_letters WHERE expires_at <= $1", (now) => [now]),
};
