import type { Deps } from "../deps.ts";

// Event retention (PARLEY_EVENT_RETENTION). One DELETE per batch, each its own short write:
// the sweeper never holds the write lock for more than one batch.

/**
 * Deletes up to `limit` finished deliveries (with their attempts) that finished at or before
 * `cutoffMs`. A dead delivery whose dead letter is still live stays: it can be re-triggered.
 */
export function purgeSpentDeliveries(deps: Pick<Deps, "store">, cutoffMs: number, limit: number): Promise<number> {
  return deps.store.deliveries.purgeSpentDeliveries(cutoffMs, limit);
}

/**
 * Deletes up to `limit` events that occurred at or before `cutoffMs` and have no delivery left
 * (a re-triggerable delivery keeps its event: the body is built from the event's data).
 */
export function purgeSpentEvents(deps: Pick<Deps, "store">, cutoffMs: number, limit: number): Promise<number> {
  return deps.store.outbox.purgeSpentEvents(cutoffMs, limit);
}
