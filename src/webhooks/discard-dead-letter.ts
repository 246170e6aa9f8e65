import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
import { notFound } from "../lib/app-error.ts";

const statements = preparedFor((sqlite) => ({
  // One statement checks tenant and retention and deletes: nothing to race with a re-trigger.
  discard: sqlite.prepare<{ id: string; delivery_id: string }, [string, string, number]>(
    "DELETE FROM dead_letters WHERE id = ? AND tenant_id = ? AND expires_at > ? RETURNING id, delivery_id",
  ),
}));

export interface DiscardResult {
  dead_letter_id: string;
  webhook_id: string;
}

/**
 * Drops a dead letter the administrator has given up on: it leaves the queue and can no
 * longer be re-triggered. The delivery stays `dead` in the log with its attempts, and is
 * purged with the other finished deliveries. Another tenant's dead letter is "not found".
 */
export function discardDeadLetter(deps: Deps, tenantId: string, deadLetterId: string): DiscardResult {
  const row = statements(deps.sqlite).discard.get(deadLetterId, tenantId, deps.clock.now());
  if (!row) throw notFound("dead_letter");
  return { dead_letter_id: row.id, webhook_id: row.delivery_id };
}
