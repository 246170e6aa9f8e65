import type { Database } from "bun:sqlite";
import type { DeadLetterRow } from "../rows.ts";
import { deadLetters } from "../schema.ts";
import type { DeadLetterQueries } from "../store-webhooks.ts";
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";

export function sqliteDeadLetters(sqlite: Database): SyncOf<DeadLetterQueries> {
  const columns = selectColumns(deadLetters);
  // Expired rows are hidden even before the sweeper has run: retention is exact.
  const list = sqlite.prepare<DeadLetterRow, [string | null, string | null, number, number, string | null, number]>(
    `SELECT ${columns} FROM dead_letters
     WHERE (?1 IS NULL OR tenant_id = ?1) AND (?2 IS NULL OR event = ?2) AND dead_at >= ?3 AND expires_at > ?4
       AND (?5 IS NULL OR id < ?5)
     ORDER BY id DESC LIMIT ?6`,
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
    listLiveDeadLetters: (filter, now, beforeId, limit) => list.all(filter.tenantId, filter.event ?? null, filter.sinceMs ?? 0, now, beforeId, limit),
    findLiveDeadLetter: (deadLetterId, now) => byId.get(deadLetterId, now),
    deleteDeadLetter: (deadLetterId) => {
      deleteOne.run(deadLetterId);
    },
    discardDeadLetter: (tenantId, deadLetterId, now) => discard.get(deadLetterId, tenantId, now),
    restartDeadDelivery: (deliveryId, now) => restart.run(now, now, deliveryId).changes > 0,
    purgeExpiredDeadLetters: (now) => purgeExpired.run(now).changes,
  };
}
