import { type Dialect, many, one, type Ops, write } from "../statements.ts";
import type { QueueGauges } from "../store-webhooks.ts";
import { lockStreamsSql } from "./ordered-streams.ts";

// The scheduler queue's statements whose SQL is the same on both stores. The claims and the
// write of a batch of results differ by dialect and stay in each store, side by side
// (src/db/sqlite/delivery-queue.ts, src/db/postgres/delivery-queue*.ts).

/** The statements each store's queue runs inside its own transactions. */
export interface QueueStatements {
  /** A lease taken at enqueue that the scheduler had no room for: due again at once. */
  releaseLeases(ids: readonly string[], leaseToken: string, now: number): Promise<number>;
  /** Deliveries whose rule was deleted before they were sent. */
  cancelOrphans(ids: readonly string[], error: string, now: number): Promise<number>;
  /** The stream keys of those deliveries that are ordered. */
  streamsOf(ids: readonly string[]): Promise<string[]>;
  lockStreams(streamKeys: readonly string[]): Promise<void>;
  /**
   * Ordered delivery (src/webhooks/ordered-streams.ts): the deliveries waiting behind those that
   * just ended are due now. Only waiting rows carry waits_for: probes of deliveries_waits_for_idx.
   */
  releaseSuccessors(endedIds: readonly string[], now: number): Promise<number>;
  queueGauges(now: number): Promise<QueueGauges>;
}

/**
 * Due now and not leased. On PostgreSQL a lease leaves `next_attempt_at` alone (its end is in
 * the token, so the lease is a HOT update); on SQLite it pushes `next_attempt_at` past the lease.
 */
export const dueNow = (d: Dialect, now: string): string =>
  d.name === "postgres"
    ? `d.status = 'pending' AND d.next_attempt_at <= ${now} AND coalesce(nullif(split_part(d.lease_token, '@', 2), '')::bigint, 0) <= ${now}`
    : `d.status = 'pending' AND d.next_attempt_at <= ${now}`;

const asInt = (value: unknown) => Number(value ?? 0);

export const QUEUE_OPS: Ops<QueueStatements> = {
  releaseLeases: write(
    (d) => `UPDATE deliveries SET next_attempt_at = $3, lease_token = NULL, updated_at = $3
     WHERE ${d.inList("id", "$1")} AND lease_token = $2 AND status = 'pending'`,
    (ids, leaseToken, now) => [[...ids], leaseToken, now],
  ),
  cancelOrphans: write(
    (d) => `UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, lease_token = NULL, last_error = $2,
       completed_at = $3, updated_at = $3
     WHERE ${d.inList("id", "$1")}`,
    (ids, error, now) => [[...ids], error, now],
  ),
  streamsOf: many(
    (d) => `SELECT stream_key FROM deliveries WHERE ${d.inList("id", "$1")} AND stream_key IS NOT NULL`,
    (ids) => [[...ids]],
    (rows: Array<{ stream_key: string }>) => rows.map((row) => row.stream_key),
  ),
  lockStreams: one(
    lockStreamsSql,
    (streamKeys) => [[...streamKeys]],
    () => undefined,
  ),
  releaseSuccessors: write(
    (d) => `UPDATE deliveries SET status = 'pending', waits_for = NULL, next_attempt_at = $2, updated_at = $2
     WHERE ${d.inList("waits_for", "$1")} AND status = 'waiting'`,
    (endedIds, now) => [[...endedIds], now],
  ),
  queueGauges: one(
    (d) => `SELECT (SELECT count(*) FROM deliveries AS d WHERE ${dueNow(d, "$1")}) AS due,
       (SELECT count(*) FROM deliveries WHERE status = 'pending') AS pending,
       (SELECT count(*) FROM deliveries WHERE waits_for IS NOT NULL) AS waiting,
       (SELECT count(*) FROM dead_letters) AS "deadLetters"`,
    (now) => [now],
    (row: Record<keyof QueueGauges, unknown> | null) => ({
      due: asInt(row?.due),
      pending: asInt(row?.pending),
      waiting: asInt(row?.waiting),
      deadLetters: asInt(row?.deadLetters),
    }),
  ),
};
