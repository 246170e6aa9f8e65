import { newId } from "../../lib/ids.ts";
import type { ClaimedDelivery, DeliveryQueueQueries, FairClaim } from "../store-webhooks.ts";
import { CLAIM_WINDOW, RULE_DELETED, splitClaims, type CandidateRow, type DueRow } from "../delivery-queue-rows.ts";
import { dueNow, QUEUE_OPS, type QueueStatements } from "../sql/delivery-queue.ts";
import type { PgExec } from "./exec.ts";
import { recordBatch } from "./delivery-queue-record.ts";
import { POSTGRES, pgOps } from "./statements.ts";

// The scheduler's queue on PostgreSQL, the twin of src/db/sqlite/delivery-queue.ts: the claims
// here, the write of a batch of results in ./delivery-queue-record.ts, the statements both stores
// share in src/db/sql/delivery-queue.ts. Several instances share the table: each claim locks the
// rows it reads `FOR UPDATE SKIP LOCKED`, so a row another instance is claiming is skipped, never
// claimed twice; each exported operation is atomic on its own (one statement, or a transaction of
// its own: a SAVEPOINT when the caller is already inside one).

/**
 * The claim's plan whatever PostgreSQL's statistics say: the first claims after a queue fills
 * run before autovacuum has analysed it, and the planner, guessing a few dozen due rows, chose
 * a bitmap scan of every pending row and a sort of them all, spilling to disk (57 ms a claim at
 * 20,000 due rows against 0.3 ms walking deliveries_due_idx). Without bitmap and sequential
 * scans it walks the index in due order and stops at the window; JIT off because a disabled
 * path left in a plan (disable_cost) would push any plan past jit_above_cost. For this
 * transaction only; test/db/postgres-claim-plan.test.ts holds the plans to it.
 */
export const CLAIM_PLAN_SETTINGS = `
  SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`;

/**
 * A claim's lease changes no indexed column, so PostgreSQL updates the row in place (a HOT
 * update: no new entry in any of the table's indexes). Its end is in the lease token, `<id>@<ms>`,
 * and `next_attempt_at` keeps the due time: a leased row stays in deliveries_due_idx, and the
 * claims pass over it while the lease runs. A token without `@` (a lease taken at enqueue,
 * src/db/sql/webhooks.ts) ends at `next_attempt_at`, as on SQLite.
 */
const newLeaseToken = (now: number, until: number): string => `${newId("att", now)}@${until}`;

/**
 * Leases the due rows in one statement: the window (due order, `LIMIT`) is locked `FOR UPDATE
 * SKIP LOCKED` — rows another instance is claiming right now are skipped, and a row it claimed
 * and committed meanwhile is re-checked and dropped (leased) — then given the batch's token.
 * The rule (LEFT JOIN: it may be gone) and the event are joined as they are now.
 */
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
 * The fair claim's window, picked and locked on `deliveries` alone: due rows in due order
 * (deliveries_due_idx is that order, so the walk stops at the window's end), skipping tenants
 * and endpoints already at their cap, locked `FOR UPDATE SKIP LOCKED`. Only the window's rows
 * then meet their rule and event, one key lookup each. An endpoint is the rule's URL as it is
 * now, as on SQLite: a rule's URL may have changed since its deliveries were made.
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

/**
 * The picked rows only, leased with one token. They were read pending and due and are locked by
 * this transaction, so no guard on status or due time: one, and the planner walked every
 * pending row in the due index to apply it instead of looking the ids up by key.
 */
export const LEASE_IDS = `
  UPDATE deliveries SET lease_token = $2, updated_at = $1
  WHERE id = ANY($3::text[])`;

const queueOn = (db: PgExec): QueueStatements => pgOps(db, QUEUE_OPS);

export function pgDeliveryQueue(db: PgExec): DeliveryQueueQueries {
  const pool = queueOn(db);
  return {
    /**
     * A claim leases its rows until `now + leaseMs` (LEASE_OVER): if this instance dies mid-send
     * the row is due again then, and another instance claims it. Deliveries whose rule was
     * deleted are leased and cancelled in the same transaction, not sent.
     */
    claimDueDeliveries: (now, limit, leaseMs) =>
      db.transaction(async (tx) => {
        await tx.run(CLAIM_PLAN_SETTINGS);
        const token = newLeaseToken(now, now + leaseMs);
        const due = await tx.all<DueRow>(CLAIM_DUE, [now, limit, token]);
        if (due.length === 0) return [];
        return claimedFrom(tx, due, token, now);
      }),

    /**
     * Only the due rows that fit the fair-share caps are leased; the rest stay due exactly as
     * they were (their locks end with the transaction).
     */
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

    /**
     * One statement for the whole batch (three more when an ordered delivery ended). For each:
     * the attempt log row, then the decision — success, the retry's due time, or the dead letter
     * with its expiry.
     */
    recordAttempts: async (attempts) => (attempts.length === 0 ? [] : recordBatch(db, attempts)),

    releaseLeases: (ids, leaseToken, now) => pool.releaseLeases(ids, leaseToken, now),

    queueGauges: (now) => pool.queueGauges(now),
  };
}

/** Cancels rows whose rule is gone and turns the rest into claims carrying the lease token. */
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
  // Their successors in their streams (if any wait) are due now, under their streams' locks.
  const streams = await queue.streamsOf(orphaned);
  if (streams.length > 0) {
    await queue.lockStreams(streams);
    await queue.releaseSuccessors(orphaned, now);
  }
  return claimed;
}
