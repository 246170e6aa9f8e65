import { newId } from "../../lib/ids.ts";
import type {
  AttemptOutcome,
  ClaimedDelivery,
  DeliveryQueueQueries,
  FairClaim,
  QueueGauges,
  RecordedAttempt,
} from "../store-webhooks.ts";
import { CLAIM_WINDOW, RULE_DELETED, splitClaims, type CandidateRow, type DueRow } from "../delivery-queue-rows.ts";
import { requestHeadersJson } from "../delivery-queue-rows.ts";
import type { PgExec } from "./exec.ts";
import { lockStreamsSql } from "../sql/ordered-streams.ts";
import { POSTGRES } from "./statements.ts";

// The scheduler's queue on PostgreSQL, the twin of src/db/sqlite/delivery-queue.ts. Several
// instances share the table: each claim locks the rows it reads `FOR UPDATE SKIP LOCKED`, so a
// row another instance is claiming is skipped, never claimed twice; each exported operation is
// one transaction of its own (a SAVEPOINT when the caller is already inside one).

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
const LEASE_OVER = (now: string) => `coalesce(nullif(split_part(d.lease_token, '@', 2), '')::bigint, 0) <= ${now}`;
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
    WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND ${LEASE_OVER("$1")}
    ORDER BY d.next_attempt_at, d.id
    LIMIT $2
    FOR UPDATE SKIP LOCKED
  ), claimed AS (
    UPDATE deliveries AS d SET lease_token = $3, updated_at = $1
    FROM due WHERE d.id = due.id
    RETURNING d.id, d.tenant_id, d.rule_id, d.event_id, d.event, d.attempts, d.cycle, due.due_at
  )
  SELECT c.id, c.tenant_id, c.rule_id, c.event, c.attempts, c.cycle, r.url, r.secret, r.previous_secret, r.previous_secret_until, r.rate_limit_per_s, e.data, e.occurred_at::float8 AS occurred_at
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
    SELECT d.id, d.tenant_id, d.rule_id, d.event_id, d.event, d.attempts, d.cycle, d.next_attempt_at FROM deliveries d
    WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND ${LEASE_OVER("$1")}
      AND d.tenant_id <> ALL($2::text[])
      AND NOT EXISTS (SELECT 1 FROM webhook_rules r WHERE r.id = d.rule_id AND r.url = ANY($3::text[]))
    ORDER BY d.next_attempt_at, d.id
    LIMIT $4
    FOR UPDATE SKIP LOCKED
  )
  SELECT p.id, p.tenant_id, p.tenant_id AS "tenantId", p.rule_id, p.event, p.attempts, p.cycle, r.url, r.secret, r.previous_secret, r.previous_secret_until, r.rate_limit_per_s, e.data,
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

// A lease taken at enqueue that the scheduler had no room for: due again at once.
const RELEASE_LEASES = `
  UPDATE deliveries SET next_attempt_at = $3, lease_token = NULL, updated_at = $3
  WHERE id = ANY($1::text[]) AND lease_token = $2 AND status = 'pending'`;

const CANCEL = `
  UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, lease_token = NULL, last_error = $1, completed_at = $2, updated_at = $2
  WHERE id = ANY($3::text[])`;

// recordAttempts is a constant number of statements per batch, whatever its size (it was two
// per attempt, one after the other: ~130 round trips for a batch of 64). Each statement takes
// the whole batch as parallel arrays, one element per row, read back with `unnest` in order.

// 1. The batch's deliveries that still exist, with their lease tokens, locked until COMMIT.
// An erasure may delete a delivery while its send is in flight: a row deleted before this
// statement is simply missing (its attempt must vanish too, not fail the batch); one being
// deleted now is waited for and then missing; and once locked, no delete can get in before
// COMMIT, so the foreign keys below never trip. FOR NO KEY UPDATE is the lock the UPDATE below
// takes anyway; taking the rows in id order means two batches never deadlock on each other.
export const LOCK_BATCH = `
  SELECT id, lease_token, stream_key FROM deliveries
  WHERE id = ANY($1::text[])
  ORDER BY id
  FOR NO KEY UPDATE`;

// 2. The attempt log: one row per result whose delivery still exists (stale or not).
const INSERT_ATTEMPTS = `
  INSERT INTO delivery_attempts (id, delivery_id, cycle, attempt, started_at, duration_ms, ok, status_code, error, response_excerpt, request_headers)
  SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::bigint[], $6::float8[], $7::boolean[], $8::int[], $9::text[], $10::text[], $11::text[])`;

// 3. Every current result's state change, one row per delivery. Still guarded by the lease
// token (a sender whose lease ran out must not overwrite the newer result), although the rows
// are locked and their tokens were just read. The outcome decides what changes:
//   succeeded — status 'succeeded', completed; last_error cleared
//   retry     — status and completed_at untouched, due again at next_attempt_at
//   dead      — status 'dead', completed
// next_attempt_at is NULL except for a retry, last_error NULL for a success (both set by the caller).
export const RECORD_RESULTS = `
  UPDATE deliveries AS d SET
    status = CASE r.outcome WHEN 'retry' THEN d.status ELSE r.outcome END,
    attempts = r.attempt,
    next_attempt_at = r.next_attempt_at,
    lease_token = NULL,
    last_status_code = r.status_code,
    last_error = r.error,
    completed_at = CASE r.outcome WHEN 'retry' THEN d.completed_at ELSE r.finished_at END,
    updated_at = r.finished_at
  FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::bigint[], $6::int[], $7::text[], $8::bigint[])
    AS r(id, lease_token, outcome, attempt, next_attempt_at, status_code, error, finished_at)
  WHERE d.id = r.id AND d.lease_token = r.lease_token`;

// 4. A dead letter for each delivery that died, with its retention.
const INSERT_DEAD_LETTERS = `
  INSERT INTO dead_letters (id, delivery_id, tenant_id, rule_id, event, attempts, last_status_code, last_error, dead_at, expires_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[], $9::bigint[], $10::bigint[])`;

// 5. Ordered delivery (src/webhooks/ordered-streams.ts): the deliveries waiting behind those that
// just ended are due now. Their streams are locked first (LOCK_STREAMS, the lock a delivery joining
// a stream holds while it looks for the stream's tail), so one that joined behind a delivery
// ending here is committed before this statement looks, and released by it.
const RELEASE_SUCCESSORS = `
  UPDATE deliveries SET status = 'pending', waits_for = NULL, next_attempt_at = $2, updated_at = $2
  WHERE waits_for = ANY($1::text[]) AND status = 'waiting'`;
const LOCK_STREAMS = lockStreamsSql(POSTGRES);

const GAUGES = `
  SELECT (SELECT count(*)::int FROM deliveries d WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND ${LEASE_OVER("$1")}) AS due,
    (SELECT count(*)::int FROM deliveries WHERE status = 'pending') AS pending,
    (SELECT count(*)::int FROM deliveries WHERE waits_for IS NOT NULL) AS waiting,
    (SELECT count(*)::int FROM dead_letters) AS "deadLetters"`;

export function pgDeliveryQueue(db: PgExec): DeliveryQueueQueries {
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
     * All in one transaction, four statements at most whatever the batch's size. For each: the
     * attempt log row, then the decision — success, the retry's due time, or the dead letter
     * with its expiry.
     */
    recordAttempts: async (attempts) => {
      if (attempts.length === 0) return [];
      return db.transaction((tx) => recordBatch(tx, attempts));
    },

    releaseLeases: (ids, leaseToken, now) => db.run(RELEASE_LEASES, [ids, leaseToken, now]),

    queueGauges: async (now) =>
      (await db.get<QueueGauges>(GAUGES, [now])) ?? { due: 0, pending: 0, waiting: 0, deadLetters: 0 },
  };
}

/** Cancels rows whose rule is gone (one statement) and turns the rest into claims carrying the lease token. */
async function claimedFrom(
  tx: PgExec,
  rows: readonly DueRow[],
  leaseToken: string,
  now: number,
): Promise<ClaimedDelivery[]> {
  const { claimed, orphaned } = splitClaims(rows, leaseToken);
  if (orphaned.length > 0) {
    await tx.run(CANCEL, [RULE_DELETED, now, orphaned]);
    await releaseSuccessors(tx, orphaned, now);
  }
  return claimed;
}

/** The orphans' successors in their streams (if any wait) are due now, under their streams' locks. */
async function releaseSuccessors(tx: PgExec, endedIds: readonly string[], now: number): Promise<void> {
  const streams = await tx.all<{ stream_key: string }>(
    "SELECT stream_key FROM deliveries WHERE id = ANY($1::text[]) AND stream_key IS NOT NULL",
    [endedIds],
  );
  if (streams.length === 0) return;
  await tx.run(LOCK_STREAMS, [streams.map((row) => row.stream_key)]);
  await tx.run(RELEASE_SUCCESSORS, [endedIds, now]);
}

/**
 * recordAttempts inside its transaction. The outcomes are decided here from the locked rows,
 * in batch order, exactly as one statement per result in that order would decide them: a
 * result whose delivery is gone records nothing; one whose lease token no longer matches logs
 * its attempt and changes nothing; a current one clears the lease, so a second result for the
 * same delivery later in the batch is stale. Ids are made in the same order as before (each
 * attempt's, then its dead letter's), so they sort as they did.
 */
async function recordBatch(tx: PgExec, attempts: readonly RecordedAttempt[]): Promise<AttemptOutcome[]> {
  const ids = [...new Set(attempts.map(({ delivery }) => delivery.id))];
  const locked = await tx.all<{ id: string; lease_token: string | null; stream_key: string | null }>(LOCK_BATCH, [ids]);
  /** Each live delivery's lease token as it stands after the results so far. */
  const lease = new Map(locked.map((row) => [row.id, row.lease_token]));
  const streamOf = new Map(locked.map((row) => [row.id, row.stream_key]));
  /** Ordered deliveries that ended here, and their streams. */
  const ended = { ids: [] as string[], streams: [] as string[] };

  // One array per column of each statement, filled in batch order.
  const log = {
    id: [] as string[],
    deliveryId: [] as string[],
    cycle: [] as number[],
    attempt: [] as number[],
    startedAt: [] as number[],
    durationMs: [] as number[],
    ok: [] as boolean[],
    statusCode: [] as (number | null)[],
    error: [] as (string | null)[],
    excerpt: [] as (string | null)[],
    requestHeaders: [] as (string | null)[],
  };
  const change = {
    id: [] as string[],
    leaseToken: [] as string[],
    outcome: [] as AttemptOutcome[],
    attempt: [] as number[],
    nextAttemptAt: [] as (number | null)[],
    statusCode: [] as (number | null)[],
    error: [] as (string | null)[],
    finishedAt: [] as number[],
  };
  const dead = {
    id: [] as string[],
    deliveryId: [] as string[],
    tenantId: [] as string[],
    ruleId: [] as string[],
    event: [] as string[],
    attempts: [] as number[],
    statusCode: [] as (number | null)[],
    error: [] as (string | null)[],
    deadAt: [] as number[],
    expiresAt: [] as number[],
  };

  const outcomes = attempts.map((recorded): AttemptOutcome => {
    const { delivery, result, startedAt, finishedAt, decision } = recorded;
    const attempt = delivery.attempts + 1;
    const attemptId = newId("att", startedAt);
    if (!lease.has(delivery.id)) return "stale";
    log.id.push(attemptId);
    log.deliveryId.push(delivery.id);
    log.cycle.push(delivery.cycle);
    log.attempt.push(attempt);
    log.startedAt.push(startedAt);
    log.durationMs.push(result.durationMs);
    log.ok.push(result.ok);
    log.statusCode.push(result.statusCode);
    log.error.push(result.error);
    log.excerpt.push(result.responseExcerpt);
    log.requestHeaders.push(requestHeadersJson(recorded));
    const token = lease.get(delivery.id);
    if (token === null || token !== delivery.leaseToken) return "stale";
    lease.set(delivery.id, null);

    const outcome = decision.outcome;
    change.id.push(delivery.id);
    change.leaseToken.push(delivery.leaseToken);
    change.outcome.push(outcome);
    change.attempt.push(attempt);
    change.nextAttemptAt.push(decision.outcome === "retry" ? decision.nextAttemptAt : null);
    change.statusCode.push(result.statusCode);
    change.error.push(result.ok ? null : result.error);
    change.finishedAt.push(finishedAt);
    const streamKey = streamOf.get(delivery.id);
    if (decision.outcome !== "retry" && streamKey) {
      ended.ids.push(delivery.id);
      ended.streams.push(streamKey);
    }
    if (decision.outcome === "dead") {
      dead.id.push(newId("dlq", finishedAt));
      dead.deliveryId.push(delivery.id);
      dead.tenantId.push(delivery.tenantId);
      dead.ruleId.push(delivery.ruleId);
      dead.event.push(delivery.event);
      dead.attempts.push(attempt);
      dead.statusCode.push(result.statusCode);
      dead.error.push(result.error);
      dead.deadAt.push(finishedAt);
      dead.expiresAt.push(decision.expiresAt);
    }
    return outcome;
  });

  if (log.id.length > 0) {
    await tx.run(INSERT_ATTEMPTS, [
      log.id,
      log.deliveryId,
      log.cycle,
      log.attempt,
      log.startedAt,
      log.durationMs,
      log.ok,
      log.statusCode,
      log.error,
      log.excerpt,
      log.requestHeaders,
    ]);
  }
  if (change.id.length > 0) {
    const changed = await tx.run(RECORD_RESULTS, [
      change.id,
      change.leaseToken,
      change.outcome,
      change.attempt,
      change.nextAttemptAt,
      change.statusCode,
      change.error,
      change.finishedAt,
    ]);
    // The rows are locked and their tokens were read in this transaction: anything else is a bug.
    if (changed !== change.id.length)
      throw new Error(`recordAttempts: ${changed} of ${change.id.length} locked deliveries changed`);
  }
  if (ended.ids.length > 0) {
    await tx.run(LOCK_STREAMS, [ended.streams]);
    await tx.run(RELEASE_SUCCESSORS, [ended.ids, Math.max(...attempts.map((attempt) => attempt.finishedAt))]);
  }
  if (dead.id.length > 0) {
    await tx.run(INSERT_DEAD_LETTERS, [
      dead.id,
      dead.deliveryId,
      dead.tenantId,
      dead.ruleId,
      dead.event,
      dead.attempts,
      dead.statusCode,
      dead.error,
      dead.deadAt,
      dead.expiresAt,
    ]);
  }
  return outcomes;
}
