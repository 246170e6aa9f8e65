import { asNumber, type Dialect, many, one, type Ops, write } from "../statements.ts";
import type { QueueGauges } from "../store-webhooks.ts";
import { OUTBOX_STREAM_OPS } from "./ordered-streams.ts";

/** The queue's statements both stores share; the claims and result writes differ per store. */
export interface QueueStatements {
  /** A lease taken at enqueue that the scheduler had no room for: due again at once. */
  releaseLeases(ids: readonly string[], leaseToken: string, now: number): Promise<number>;
  /** Deliveries whose rule was deleted before they were sent. */
  cancelOrphans(ids: readonly string[], error: string, now: number): Promise<number>;
  streamsOf(ids: readonly string[]): Promise<string[]>;
  lockStreams(streamKeys: readonly string[]): Promise<void>;
  /** The deliveries waiting behind those that ended are due now (probes of deliveries_waits_for_idx). */
  releaseSuccessors(endedIds: readonly string[], now: number): Promise<number>;
  queueGauges(now: number): Promise<QueueGauges>;
}

/** Due and not leased: on PostgreSQL a lease's end is in its token, so the lease is a HOT update. */
export const dueNow = (d: Dialect, now: string): string =>
  d.name === "postgres"
    ? `d.status = 'pending' AND d.next_attempt_at <= ${now} AND coalesce(nullif(split_part(d.lease_token, '@', 2), '')::bigint, 0) <= ${now}`
    : `d.status = 'pending' AND d.next_attempt_at <= ${now}`;

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
  lockStreams: OUTBOX_STREAM_OPS.lockStreams,
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
      due: asNumber(row?.due),
      pending: asNumber(row?.pending),
      waiting: asNumber(row?.waiting),
      deadLetters: asNumber(row?.deadLetters),
    }),
  ),
};
