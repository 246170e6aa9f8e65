import { asNumber, type Dialect, many, one, type Ops, write } from "../statements.ts";
import type { DeliveryQueries, OutboxQueries } from "../store-webhooks.ts";

// Ordered delivery (src/webhooks/ordered-streams.ts), one statement each for both stores: a
// stream's writers serialised, its tail found, and the states the delivery log explains a
// waiting delivery with. The release of the next delivery when one ends is part of each store's
// result write (src/db/{sqlite,postgres}/delivery-queue.ts).

/**
 * PostgreSQL: one transaction-scoped advisory lock per stream (two-key form, class 1: a lock
 * space of its own), taken in hash order so two writers of the same streams never deadlock.
 * Held until COMMIT: a new delivery's look at the tail and the release of the one it waits for
 * cannot interleave. SQLite's write transactions are serial already: a statement that does nothing.
 */
export const lockStreamsSql = (d: Dialect): string =>
  d.name === "postgres"
    ? `SELECT count(pg_advisory_xact_lock(1, h)) AS n FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest($1::text[]) AS k ORDER BY h) AS s`
    : "SELECT 0 AS n WHERE $1 IS NULL";

export const OUTBOX_STREAM_OPS: Pick<Ops<OutboxQueries>, "lockStreams" | "findStreamTail"> = {
  lockStreams: one(
    lockStreamsSql,
    (streamKeys) => [[...streamKeys]],
    () => undefined,
  ),
  // deliveries_stream_idx gives the stream's unfinished rows (few: one session's backlog), and
  // deliveries_waits_for_idx whether one waits behind each; exactly one has none (the chain's end).
  findStreamTail: one(
    `SELECT d.id FROM deliveries AS d
     WHERE d.stream_key = $1 AND d.status IN ('pending', 'waiting')
       AND NOT EXISTS (SELECT 1 FROM deliveries AS w WHERE w.waits_for = d.id)
     ORDER BY d.id DESC LIMIT 1`,
    (streamKey) => [streamKey],
    (row: { id: string } | null) => row?.id ?? null,
  ),
};

export const DELIVERY_STREAM_OPS: Pick<Ops<DeliveryQueries>, "describeDeliveryStates" | "releaseStrandedWaiters"> = {
  // Only waiting rows carry waits_for, so this walks deliveries_waits_for_idx: the waiting rows,
  // each with one look at the delivery it waits for.
  releaseStrandedWaiters: write(
    `UPDATE deliveries SET status = 'pending', waits_for = NULL, next_attempt_at = $1, updated_at = $1
     WHERE waits_for IS NOT NULL AND status = 'waiting'
       AND NOT EXISTS (SELECT 1 FROM deliveries AS p WHERE p.id = deliveries.waits_for AND p.status IN ('pending', 'waiting'))`,
    (now) => [now],
    (changes) => changes,
  ),
  describeDeliveryStates: many(
    (d) =>
      `SELECT id, status, attempts, lease_token IS NOT NULL AS leased FROM deliveries WHERE tenant_id = $1 AND ${d.inList("id", "$2")}`,
    (tenantId, deliveryIds) => [tenantId, [...deliveryIds]],
    (rows: Array<{ id: string; status: string; attempts: unknown; leased: unknown }>) =>
      rows.map((row) => ({
        id: row.id,
        status: row.status,
        attempts: asNumber(row.attempts),
        leased: Boolean(row.leased),
      })),
  ),
};
