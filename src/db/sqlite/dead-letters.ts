import type { Database } from "bun:sqlite";
import type { DeadLetterRow } from "../rows.ts";
import { deadLetters } from "../schema.ts";
import type { DeadLetterQueries } from "../store-webhooks.ts";
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";
import { prepareVariants } from "./list-variants.ts";

export const DEAD_LETTER_LIST_FILTERS = ["tenant", "event", "before"] as const;
type DeadLetterListFilter = (typeof DEAD_LETTER_LIST_FILTERS)[number];

/**
 * The dead-letter list for one combination of filters (list-variants.ts). A tenant's list is a
 * range of dead_letters_tenant_{id,event}_idx in id order; expired rows are hidden even before
 * the sweeper has run (retention is exact). Without a tenant (the administrator's CLI) the
 * list walks the primary key from the newest id and stops at the page's end.
 */
export function deadLetterListSql(given: Record<DeadLetterListFilter, boolean>): string {
  const conditions: string[] = [];
  if (given.tenant) conditions.push("tenant_id = ?1");
  if (given.event) conditions.push("event = ?2");
  conditions.push("dead_at >= ?3", "expires_at > ?4");
  if (given.before) conditions.push("id < ?5");
  return `SELECT ${selectColumns(deadLetters)} FROM dead_letters WHERE ${conditions.join(" AND ")} ORDER BY id DESC LIMIT ?6`;
}

export function sqliteDeadLetters(sqlite: Database): SyncOf<DeadLetterQueries> {
  const columns = selectColumns(deadLetters);
  const list = prepareVariants<DeadLetterListFilter, DeadLetterRow, [string | null, string | null, number, number, string | null, number]>(
    sqlite,
    DEAD_LETTER_LIST_FILTERS,
    deadLetterListSql,
  );
  const byId = sqlite.prepare<DeadLetterRow, [string, number]>(`SELECT ${columns} FROM dead_letters WHERE id = ? AND expires_at > ?`);
  const deleteOne = sqlite.prepare("DELETE FROM dead_letters WHERE id = ?");
  // A fresh cycle: same webhook_id, attempts from 1 again, due now.
  const restart = sqlite.prepare(
    `UPDATE deliveries SET status = 'pending', attempts = 0, cycle = cycle + 1, next_attempt_at = ?, lease_token = NULL,
       last_status_code = NULL, last_error = NULL, completed_at = NULL, updated_at = ?
     WHERE id = ? AND status = 'dead'`,
  );
  const purgeExpired = sqlite.prepare("DELETE FROM dead_letters WHERE expires_at <= ?");
  // One statement checks tenant and retention and deletes: nothing to race with a re-trigger.
  const discard = sqlite.prepare<{ id: string; deliveryId: string }, [string, string, number]>(
    `DELETE FROM dead_letters WHERE id = ? AND tenant_id = ? AND expires_at > ? RETURNING id, delivery_id AS "deliveryId"`,
  );
  return {
    listLiveDeadLetters: (filter, now, beforeId, limit) => list({ tenant: filter.tenantId !== null, event: filter.event != null, before: beforeId !== null }).all(filter.tenantId, filter.event ?? null, filter.sinceMs ?? 0, now, beforeId, limit),
    findLiveDeadLetter: (deadLetterId, now) => byId.get(deadLetterId, now),
    deleteDeadLetter: (deadLetterId) => {
      deleteOne.run(deadLetterId);
    },
    discardDeadLetter: (tenantId, deadLetterId, now) => discard.get(deadLetterId, tenantId, now),
    restartDeadDelivery: (deliveryId, now) => restart.run(now, now, deliveryId).changes > 0,
    purgeExpiredDeadLetters: (now) => purgeExpired.run(now).changes,
  };
}
