import { asNumber, type Dialect, many, one, type Ops, write } from "../statements.ts";
import type { DeliveryQueries, OutboxQueries } from "../store-webhooks.ts";

// Ordered delivery (src/webhooks/ordered-streams.ts); releasing a successor is part of each
// store's result write.

/**
 * An advisory lock per stream (class 1), in hash order so two writers never deadlock, held to
 * COMMIT: a look at the tail and the release of the one it waits for cannot interleave.
 * SQLite's writes are serial already.
 */
const lockStreamsSql = (d: Dialect): string =>
  d.name === "postgres"
    ? `SELECT count(pg_advisory_xact_lock(1, h)) AS n FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest($1::text[]) AS k ORDER BY h) AS s`
    : "SELECT 0 AS n WHERE $1 IS NULL";

export const OUTBOX_STREAM_OPS: Pick<Ops<OutboxQueries>, "lockStreams" | "findStreamTail"> = {
  lockStreams: one(
    lockStreamsSql,
    (streamKeys) => [[...streamKeys]],
    () => undefined,
  ),
  // deliveries_stream_idx gives the stream's few unfinished rows, deliveries_waits_for_idx who waits
  // behind each; exactly one has nobody (the chain's end).
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
  // Only waiting rows carry waits_for: a walk of deliveries_waits_for_idx.
  releaseStrandedWaiters: write(
    `UPDATE deliveries SET status = 'pending', waits_for = NULL, next_attempt_at = $1, updated_at = $1
     WHERE waits_for IS NOT NULL AND status = 'waiting'
       AND NOT EXISTS (SELECT 1 FROM deliveries AS p WHERE p.id = deliveries.waits_for AND p.status IN ('pending', 'waiting'))`,
    (now) => [now],
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
