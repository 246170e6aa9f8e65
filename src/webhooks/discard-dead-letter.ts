import type { Deps } from "../deps.ts";
import { notFound } from "../lib/app-error.ts";

export interface DiscardResult {
  dead_letter_id: string;
  webhook_id: string;
}

/**
 * Drops a dead letter the administrator has given up on: it leaves the queue and can no
 * longer be re-triggered. The delivery stays `dead` in the log with its attempts, and is
 * purged with the other finished deliveries. Another tenant's dead letter is "not found".
 */
export async function discardDeadLetter(deps: Deps, tenantId: string, deadLetterId: string): Promise<DiscardResult> {
  const row = await deps.store.deadLetters.discardDeadLetter(tenantId, deadLetterId, deps.clock.now());
  if (!row) throw notFound("dead_letter");
  return { dead_letter_id: row.id, webhook_id: row.deliveryId };
}
