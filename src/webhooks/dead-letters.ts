import type { Deps } from "../deps.ts";
import type { DeadLetterFilter, DeadLetterRow, StoreQueries } from "../db/store.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { toPage, type Page } from "../lib/page.ts";
import { lockStreamsOf, reenterStream } from "./ordered-streams.ts";

export interface DeadLetterView {
  dead_letter_id: string;
  webhook_id: string;
  tenant_id: string;
  rule_id: string | null;
  event: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  dead_at: string;
  expires_at: string;
}

const toView = (row: DeadLetterRow): DeadLetterView => ({
  dead_letter_id: row.id,
  webhook_id: row.deliveryId,
  tenant_id: row.tenantId,
  rule_id: row.ruleId,
  event: row.event,
  attempts: row.attempts,
  last_status_code: row.lastStatusCode,
  last_error: row.lastError,
  dead_at: toIso(row.deadAt),
  expires_at: toIso(row.expiresAt),
});

export type { DeadLetterFilter };

export async function listDeadLetters(
  deps: Pick<Deps, "store" | "clock">,
  filter: DeadLetterFilter,
  page: { limit: number; cursor?: string },
): Promise<Page<DeadLetterView>> {
  const rows = await deps.store.deadLetters.listLiveDeadLetters(
    filter,
    deps.clock.now(),
    page.cursor ?? null,
    page.limit + 1,
  );
  return toPage(rows, page.limit, (row) => row.id, toView);
}

/** A dead letter of the tenant (or of any tenant when tenantId is null). Another tenant's is "not found". */
export async function getDeadLetter(
  deps: Pick<Deps, "store" | "clock">,
  tenantId: string | null,
  deadLetterId: string,
): Promise<DeadLetterView> {
  return toView(await findDeadLetterRow(deps.store, deps.clock.now(), tenantId, deadLetterId));
}

async function findDeadLetterRow(
  store: StoreQueries,
  now: number,
  tenantId: string | null,
  deadLetterId: string,
): Promise<DeadLetterRow> {
  const row = await store.deadLetters.findLiveDeadLetter(deadLetterId, now);
  if (!row || (tenantId !== null && row.tenantId !== tenantId)) throw notFound("dead_letter");
  return row;
}

export interface RetriggerResult {
  retriggered: Array<{ dead_letter_id: string; webhook_id: string }>;
}

/**
 * Moves dead letters back to a fresh 4-attempt cycle with the same webhook_id, due at once.
 * The dead-letter row goes; if the new cycle fails too, a new one is written with a new
 * retention. All-or-nothing: an unknown id fails the whole call before anything changes. An
 * ordered delivery goes to the end of its stream: it waits if the stream has deliveries queued.
 */
export async function retriggerDeadLetters(
  deps: Deps,
  tenantId: string | null,
  deadLetterIds: readonly string[],
): Promise<RetriggerResult> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const rows: DeadLetterRow[] = [];
    for (const id of deadLetterIds) rows.push(await findDeadLetterRow(tx, now, tenantId, id));
    // An ordered delivery re-enters its stream at the end (src/webhooks/ordered-streams.ts).
    const streamKeys: Array<string | null> = [];
    for (const row of rows) {
      const delivery = await tx.deliveries.findDelivery(row.tenantId, row.deliveryId);
      streamKeys.push(delivery?.status === "dead" ? delivery.streamKey : null);
    }
    await lockStreamsOf(tx, streamKeys);
    // Oldest delivery first (ids sort by creation time): two of one stream re-enter in event order.
    const byAge = rows.map((row, index) => ({ row, streamKey: streamKeys[index] ?? null }));
    byAge.sort((a, b) => (a.row.deliveryId < b.row.deliveryId ? -1 : a.row.deliveryId > b.row.deliveryId ? 1 : 0));
    for (const { row, streamKey } of byAge) {
      const waitsFor = await reenterStream(tx, streamKey);
      // Only a delivery that is really dead is restarted; the dead letter goes only then, so a
      // row in an unexpected state keeps its record instead of vanishing.
      if (!(await tx.deadLetters.restartDeadDelivery(row.deliveryId, now, waitsFor))) {
        throw new AppError(
          "dead_letter_conflict",
          409,
          `The delivery ${row.deliveryId} of ${row.id} is not dead; nothing was re-triggered.`,
        );
      }
      await tx.deadLetters.deleteDeadLetter(row.id);
    }
    const retriggered = rows.map((row) => ({ dead_letter_id: row.id, webhook_id: row.deliveryId }));
    if (retriggered.length > 0) tx.onCommit(() => deps.deliveriesEnqueued.notify());
    return { retriggered };
  });
}

/** Bulk form: every live dead letter matching the filter (at most `max`, newest first). */
export async function retriggerMatchingDeadLetters(
  deps: Deps,
  filter: DeadLetterFilter,
  max = 10_000,
): Promise<RetriggerResult> {
  const ids = (await listDeadLetters(deps, filter, { limit: max })).data.map((row) => row.dead_letter_id);
  return retriggerDeadLetters(deps, filter.tenantId, ids);
}
