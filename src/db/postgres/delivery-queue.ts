import { newId } from "../../lib/ids.ts";
import type { ClaimedDelivery, DeliveryQueueQueries, FairClaim } from "../store-webhooks.ts";
import { CLAIM_WINDOW, RULE_DELETED, splitClaims, type CandidateRow, type DueRow } from "../delivery-queue-rows.ts";
import { dueNow, QUEUE_OPS, type QueueStatements } from "../sql/delivery-queue.ts";
import type { PgExec } from "./exec.ts";
import { recordBatch } from "./delivery-queue-record.ts";
import { POSTGRES, pgOps } from "./statements.ts";

// The twin of src/db/sqlite/delivery-queue.ts. Claims lock `FOR UPDATE SKIP LOCKED`, so two
// instances never claim one row.

/**
 * The claim's plan whatever the statistics say: before autovacuum's first analysis the planner
 * chose a bitmap scan and a sort of every pending row (design-notes.md). JIT off, because the
 * disabled paths' cost would push any plan past jit_above_cost. test/db/postgres-claim-plan.test.ts.
 */
export const CLAIM_PLAN_SETTINGS = `
  SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`;

/**
 * `<id>@<ms>`: the lease's end in its token changes no indexed column, so the lease is a HOT update.
 * A token without `@` (leased at enqueue) ends at `next_attempt_at`, as on SQLite.
 */
const newLeaseToken = (now: number, until: number): string => `${newId("att", now)}@${until}`;

/** One statement; a row another instance leased meanwhile is re-checked and dropped. The rule may be gone. */
export const CLAIM_DUE = `
  WITH due AS MATERIALIZED (
    SELECT d.id, d.next_attempt_at AS due_at FROM deliveries d
    WHERE ${dueNow(POSTGRES, "$1")}
    ORDER BY d.next_attempt_at, d.id
    LIMIT $2
    FOR UPDATE SKIP LOCKED
  ), claimed AS (
    UPDATE deliveries AS d SET lease_token = $3, updated_at = $1
    FROM due WHERE d.id = due.id
    RETURNING d.id, d.tenant_id, d.rule_id, d.event_id, d.event, d.attempts, d.cycle, d.stream_key, due.due_at
  )
  SELECT c.id, c.tenant_id, c.rule_id, c.event, c.attempts, c.cycle, c.stream_key, r.url, r.secret, r.previous_secret, r.previous_secret_until, r.rate_limit_per_s, e.data, e.occurred_at::float8 AS occurred_at
  FROM claimed c
  JOIN events e ON e.id = c.event_id
  LEFT JOIN webhook_rules r ON r.id = c.rule_id
  ORDER BY c.due_at, c.id`;

/**
 * Picked and locked on `deliveries` alone, in deliveries_due_idx order; only the window's rows meet
 * their rule and event. An endpoint is the rule's current URL, as on SQLite.
 */
export const SELECT_CANDIDATES = `
  WITH picked AS MATERIALIZED (
    SELECT d.id, d.tenant_id, d.rule_id, d.event_id, d.event, d.attempts, d.cycle, d.stream_key, d.next_attempt_at FROM deliveries d
    WHERE ${dueNow(POSTGRES, "$1")}
      AND d.tenant_id <> ALL($2::text[])
      AND NOT EXISTS (SELECT 1 FROM webhook_rules r WHERE r.id = d.rule_id AND r.url = ANY($3::text[]))
    ORDER BY d.next_attempt_at, d.id
    LIMIT $4
    FOR UPDATE SKIP LOCKED
  )
  SELECT p.id, p.tenant_id, p.tenant_id AS "tenantId", p.rule_id, p.event, p.attempts, p.cycle, p.stream_key, r.url, r.secret, r.previous_secret, r.previous_secret_until, r.rate_limit_per_s, e.data,
    e.occurred_at::float8 AS occurred_at
  FROM picked p
  LEFT JOIN webhook_rules r ON r.id = p.rule_id
  JOIN events e ON e.id = p.event_id
  ORDER BY p.next_attempt_at, p.id`;

/** No guard on status or due time: the rows are locked, and with one the planner walked the due index. */
export const LEASE_IDS = `
  UPDATE deliveries SET lease_token = $2, updated_at = $1
  WHERE id = ANY($3::text[])`;

const queueOn = (db: PgExec): QueueStatements => pgOps(db, QUEUE_OPS);

export function pgDeliveryQueue(db: PgExec): DeliveryQueueQueries {
  const pool = queueOn(db);
  return {
    claimDueDeliveries: (now, limit, leaseMs) =>
      db.transaction(async (tx) => {
        await tx.run(CLAIM_PLAN_SETTINGS);
        const token = newLeaseToken(now, now + leaseMs);
        const due = await tx.all<DueRow>(CLAIM_DUE, [now, limit, token]);
        if (due.length === 0) return [];
        return claimedFrom(tx, due, token, now);
      }),

    claimFairShare: (now, limit, leaseMs, fair) =>
      db.transaction(async (tx): Promise<FairClaim> => {
        const window = Math.max(1, Math.min(limit, CLAIM_WINDOW));
        await tx.run(CLAIM_PLAN_SETTINGS);
        const candidates = await tx.all<CandidateRow>(SELECT_CANDIDATES, [
          now,
          fair.fullTenants(),
          fair.fullEndpoints(),
          window,
        ]);
        if (candidates.length === 0) return { claimed: [], more: false };
        const picked = fair.pick(candidates, limit);
        const more = picked.length < candidates.length || candidates.length === window;
        if (picked.length === 0) return { claimed: [], more };
        const token = newLeaseToken(now, now + leaseMs);
        await tx.run(LEASE_IDS, [now, token, picked.map((row) => row.id)]);
        return { claimed: await claimedFrom(tx, picked, token, now), more };
      }),

    recordAttempts: async (attempts) => (attempts.length === 0 ? [] : recordBatch(db, attempts)),

    releaseLeases: (ids, leaseToken, now) => pool.releaseLeases(ids, leaseToken, now),

    queueGauges: (now) => pool.queueGauges(now),
  };
}

async function claimedFrom(
  tx: PgExec,
  rows: readonly DueRow[],
  leaseToken: string,
  now: number,
): Promise<ClaimedDelivery[]> {
  const { claimed, orphaned } = splitClaims(rows, leaseToken);
  if (orphaned.length === 0) return claimed;
  const queue = queueOn(tx);
  await queue.cancelOrphans(orphaned, RULE_DELETED, now);
  // Their successors are released under their streams' locks.
  const streams = await queue.streamsOf(orphaned);
  if (streams.length > 0) {
    await queue.lockStreams(streams);
    await queue.releaseSuccessors(orphaned, now);
  }
  return claimed;
}
