import { newId } from "../../lib/ids.ts";
import type { ClaimCandidate } from "../../scheduler/fair-share.ts";
import type { AttemptOutcome, ClaimedDelivery, DeliveryQueueQueries, FairClaim } from "../store-webhooks.ts";
import type { PgExec } from "./exec.ts";

// The scheduler's queue on PostgreSQL, the twin of src/db/sqlite/delivery-queue.ts. Several
// instances share the table: each claim locks the rows it reads `FOR UPDATE SKIP LOCKED`, so a
// row another instance is claiming is skipped, never claimed twice; each exported operation is
// one transaction of its own (a SAVEPOINT when the caller is already inside one).

interface DueRow {
  id: string;
  tenant_id: string;
  rule_id: string | null;
  event: string;
  attempts: number;
  cycle: number;
  url: string | null;
  secret: string | null;
  data: string;
  occurred_at: number;
}

/** A due row with the tenant under the name the fair-share picker reads. */
type CandidateRow = DueRow & ClaimCandidate;

/** As on SQLite: at most this many due rows are read per fair claim, never more than the free slots. */
const CLAIM_WINDOW = 64;

const RULE_DELETED = "rule_deleted: the rule was deleted before this delivery was sent";

/**
 * Leases the due rows in one statement: the window (due order, `LIMIT`) is locked `FOR UPDATE
 * SKIP LOCKED` — rows another instance is claiming right now are skipped, and a row it claimed
 * and committed meanwhile is re-checked and dropped (no longer due) — then pushed past the lease
 * with the batch's token. The old due time comes back from the window so the claims keep due
 * order; the rule (LEFT JOIN: it may be gone) and the event are joined as they are now.
 */
const CLAIM_DUE = `
  WITH due AS MATERIALIZED (
    SELECT id, next_attempt_at AS due_at FROM deliveries
    WHERE status = 'pending' AND next_attempt_at <= $1
    ORDER BY next_attempt_at, id
    LIMIT $2
    FOR UPDATE SKIP LOCKED
  ), claimed AS (
    UPDATE deliveries AS d SET next_attempt_at = $3, lease_token = $4, updated_at = $1
    FROM due WHERE d.id = due.id
    RETURNING d.id, d.tenant_id, d.rule_id, d.event_id, d.event, d.attempts, d.cycle, due.due_at
  )
  SELECT c.id, c.tenant_id, c.rule_id, c.event, c.attempts, c.cycle, r.url, r.secret, e.data, e.occurred_at::float8 AS occurred_at
  FROM claimed c
  JOIN events e ON e.id = c.event_id
  LEFT JOIN webhook_rules r ON r.id = c.rule_id
  ORDER BY c.due_at, c.id`;

/**
 * The fair claim's window: due rows in due order, skipping tenants and endpoints already at
 * their cap, locked `FOR UPDATE OF d SKIP LOCKED` until the transaction ends (only the
 * delivery rows: the rule and event are read, not locked).
 */
const SELECT_CANDIDATES = `
  SELECT d.id, d.tenant_id, d.tenant_id AS "tenantId", d.rule_id, d.event, d.attempts, d.cycle, r.url, r.secret, e.data,
    e.occurred_at::float8 AS occurred_at
  FROM deliveries d
  LEFT JOIN webhook_rules r ON r.id = d.rule_id
  JOIN events e ON e.id = d.event_id
  WHERE d.status = 'pending' AND d.next_attempt_at <= $1
    AND d.tenant_id <> ALL($2::text[])
    AND (r.url IS NULL OR r.url <> ALL($3::text[]))
  ORDER BY d.next_attempt_at, d.id
  LIMIT $4
  FOR UPDATE OF d SKIP LOCKED`;

/** The picked rows only (locked by this transaction), leased with one token. */
const LEASE_IDS = `
  UPDATE deliveries SET next_attempt_at = $2, lease_token = $3, updated_at = $1
  WHERE id = ANY($4::text[]) AND status = 'pending' AND next_attempt_at <= $1`;

const CANCEL = `
  UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, lease_token = NULL, last_error = $1, completed_at = $2, updated_at = $2
  WHERE id = ANY($3::text[])`;

// Only while the delivery still exists: an erasure may delete it while its send is in flight,
// and the attempt must then vanish too, not fail the whole batch. FOR KEY SHARE waits for a
// concurrent delete of the row and then sees it gone, so the foreign key never trips.
const INSERT_ATTEMPT = `
  INSERT INTO delivery_attempts (id, delivery_id, cycle, attempt, started_at, duration_ms, ok, status_code, error, response_excerpt)
  SELECT $1::text, $2::text, $3::int, $4::int, $5::bigint, $6::float8, $7::boolean, $8::int, $9::text, $10::text
  WHERE EXISTS (SELECT 1 FROM deliveries WHERE id = $2::text FOR KEY SHARE)`;

// Every state change is guarded by the lease token: a sender whose lease ran out must not
// overwrite the newer result.
const MARK_SUCCEEDED = `
  UPDATE deliveries SET status = 'succeeded', attempts = $1, next_attempt_at = NULL, lease_token = NULL,
    last_status_code = $2, last_error = NULL, completed_at = $3, updated_at = $3
  WHERE id = $4 AND lease_token = $5`;

const MARK_RETRY = `
  UPDATE deliveries SET attempts = $1, next_attempt_at = $2, lease_token = NULL, last_status_code = $3, last_error = $4, updated_at = $5
  WHERE id = $6 AND lease_token = $7`;

const MARK_DEAD = `
  UPDATE deliveries SET status = 'dead', attempts = $1, next_attempt_at = NULL, lease_token = NULL,
    last_status_code = $2, last_error = $3, completed_at = $4, updated_at = $4
  WHERE id = $5 AND lease_token = $6`;

const INSERT_DEAD_LETTER = `
  INSERT INTO dead_letters (id, delivery_id, tenant_id, rule_id, event, attempts, last_status_code, last_error, dead_at, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

const GAUGES = `
  SELECT (SELECT count(*)::int FROM deliveries WHERE status = 'pending' AND next_attempt_at <= $1) AS due,
    (SELECT count(*)::int FROM deliveries WHERE status = 'pending') AS pending,
    (SELECT count(*)::int FROM dead_letters) AS "deadLetters"`;

export function pgDeliveryQueue(db: PgExec): DeliveryQueueQueries {
  return {
    /**
     * Claiming pushes `next_attempt_at` past the lease: if this instance dies mid-send the row
     * is due again then, and another instance claims it. Deliveries whose rule was deleted are
     * leased and cancelled in the same transaction, not sent.
     */
    claimDueDeliveries: (now, limit, leaseMs) =>
      db.transaction(async (tx) => {
        const leaseToken = newId("att", now);
        const due = await tx.all<DueRow>(CLAIM_DUE, [now, limit, now + leaseMs, leaseToken]);
        if (due.length === 0) return [];
        return claimedFrom(tx, due, leaseToken, now);
      }),

    /**
     * Only the due rows that fit the fair-share caps are leased; the rest stay due exactly as
     * they were (their locks end with the transaction).
     */
    claimFairShare: (now, limit, leaseMs, fair) =>
      db.transaction(async (tx): Promise<FairClaim> => {
        const window = Math.max(1, Math.min(limit, CLAIM_WINDOW));
        const candidates = await tx.all<CandidateRow>(SELECT_CANDIDATES, [now, fair.fullTenants(), fair.fullEndpoints(), window]);
        if (candidates.length === 0) return { claimed: [], more: false };
        const picked = fair.pick(candidates, limit);
        const more = picked.length < candidates.length || candidates.length === window;
        if (picked.length === 0) return { claimed: [], more };
        const leaseToken = newId("att", now);
        await tx.run(LEASE_IDS, [now, now + leaseMs, leaseToken, picked.map((row) => row.id)]);
        return { claimed: await claimedFrom(tx, picked, leaseToken, now), more };
      }),

    /**
     * All in one transaction. For each: the attempt log row, then success, a retry
     * `retryDelaysMs[n-1]` after the failed attempt ended, or — after the last attempt — the
     * dead letter with its retention.
     */
    recordAttempts: (attempts, policy) =>
      db.transaction(async (tx) => {
        const outcomes: AttemptOutcome[] = [];
        for (const { delivery, result, startedAt, finishedAt } of attempts) {
          const attempt = delivery.attempts + 1;
          await tx.run(INSERT_ATTEMPT, [
            newId("att", startedAt), delivery.id, delivery.cycle, attempt, startedAt, result.durationMs,
            result.ok, result.statusCode, result.error, result.responseExcerpt,
          ]);
          if (result.ok) {
            const changed = await tx.run(MARK_SUCCEEDED, [attempt, result.statusCode, finishedAt, delivery.id, delivery.leaseToken]);
            outcomes.push(changed > 0 ? "succeeded" : "stale");
            continue;
          }
          const delay = policy.retryDelaysMs[attempt - 1];
          if (delay !== undefined) {
            const changed = await tx.run(MARK_RETRY, [attempt, finishedAt + delay, result.statusCode, result.error, finishedAt, delivery.id, delivery.leaseToken]);
            outcomes.push(changed > 0 ? "retry" : "stale");
            continue;
          }
          const changed = await tx.run(MARK_DEAD, [attempt, result.statusCode, result.error, finishedAt, delivery.id, delivery.leaseToken]);
          if (changed === 0) {
            outcomes.push("stale");
            continue;
          }
          await tx.run(INSERT_DEAD_LETTER, [
            newId("dlq", finishedAt), delivery.id, delivery.tenantId, delivery.ruleId, delivery.event, attempt,
            result.statusCode, result.error, finishedAt, finishedAt + policy.dlqRetentionMs,
          ]);
          outcomes.push("dead");
        }
        return outcomes;
      }),

    queueGauges: async (now) => (await db.get<{ due: number; pending: number; deadLetters: number }>(GAUGES, [now])) ?? { due: 0, pending: 0, deadLetters: 0 },
  };
}

/** Cancels rows whose rule is gone (one statement) and turns the rest into claims carrying the lease token. */
async function claimedFrom(tx: PgExec, rows: readonly DueRow[], leaseToken: string, now: number): Promise<ClaimedDelivery[]> {
  const claimed: ClaimedDelivery[] = [];
  const orphaned: string[] = [];
  for (const row of rows) {
    if (row.rule_id === null || row.url === null || row.secret === null) {
      orphaned.push(row.id);
      continue;
    }
    claimed.push({
      id: row.id,
      tenantId: row.tenant_id,
      ruleId: row.rule_id,
      event: row.event,
      attempts: row.attempts,
      cycle: row.cycle,
      leaseToken,
      url: row.url,
      secret: row.secret,
      data: row.data,
      occurredAt: row.occurred_at,
    });
  }
  if (orphaned.length > 0) await tx.run(CANCEL, [RULE_DELETED, now, orphaned]);
  return claimed;
}
