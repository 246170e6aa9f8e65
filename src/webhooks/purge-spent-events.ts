import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";

// Event retention (PARLEY_EVENT_RETENTION). One DELETE per batch, each its own short write:
// the sweeper never holds the write lock for more than one batch.

const statements = preparedFor((sqlite) => ({
  // Finished deliveries (succeeded, cancelled, or dead whose dead letter is gone) that finished
  // before the cutoff; their attempt logs go with them (ON DELETE CASCADE). A dead delivery whose
  // dead letter is still live stays: it can be re-triggered, and that needs its row.
  deliveries: sqlite.prepare(
    `DELETE FROM deliveries WHERE id IN (
       SELECT d.id FROM deliveries d
       WHERE d.completed_at IS NOT NULL AND d.completed_at <= ?1 AND d.status != 'pending'
         AND NOT EXISTS (SELECT 1 FROM dead_letters l WHERE l.delivery_id = d.id)
       ORDER BY d.completed_at LIMIT ?2)`,
  ),
  // Events older than the cutoff with no delivery left: nothing pending, nothing dead. A
  // re-triggerable delivery keeps its event, because the body is built from the event's data.
  events: sqlite.prepare(
    `DELETE FROM events WHERE id IN (
       SELECT e.id FROM events e
       WHERE e.occurred_at <= ?1 AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)
       ORDER BY e.occurred_at LIMIT ?2)`,
  ),
}));

/** Deletes up to `limit` finished deliveries (with their attempts) that finished at or before `cutoffMs`. */
export function purgeSpentDeliveries(deps: Pick<Deps, "sqlite">, cutoffMs: number, limit: number): number {
  return statements(deps.sqlite).deliveries.run(cutoffMs, limit).changes;
}

/** Deletes up to `limit` events that occurred at or before `cutoffMs` and have no delivery left. */
export function purgeSpentEvents(deps: Pick<Deps, "sqlite">, cutoffMs: number, limit: number): number {
  return statements(deps.sqlite).events.run(cutoffMs, limit).changes;
}
