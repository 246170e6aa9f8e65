import type { Database } from "bun:sqlite";
import { newId } from "../../lib/ids.ts";
import type {
  AttemptOutcome,
  ClaimedDelivery,
  DeliveryQueueQueries,
  FairClaim,
  RecordedAttempt,
} from "../store-webhooks.ts";
import { CLAIM_WINDOW, RULE_DELETED, splitClaims, type CandidateRow, type DueRow } from "../delivery-queue-rows.ts";
import { mayHaveSuccessor, requestHeadersJson } from "../delivery-queue-rows.ts";
import { QUEUE_OPS, type QueueStatements } from "../sql/delivery-queue.ts";
import type { SyncOf } from "./gate.ts";
import { prepareVariants } from "./list-variants.ts";
import { sqliteOps } from "./statements.ts";

// The scheduler's queue on SQLite, the twin of src/db/postgres/delivery-queue*.ts (the statements
// both share are in src/db/sql/delivery-queue.ts). One SQL operation per statement, prepared once per database;
// each exported operation is one BEGIN IMMEDIATE transaction, so two processes on one file (a
// server and a CLI) never claim the same row.
//
// Due rows are taken in due order, ties in insertion order (`rowid`, which deliveries_due_idx
// carries: ordering ties by `id` instead sorted every group of rows due in the same millisecond
// in a temporary B-tree, a cost per row on every claim).

/** The fair claim's skip of tenants (?2) and endpoints (?3) at their caps, JSON arrays. */
const SKIP_CAPPED = `
         AND d.tenant_id NOT IN (SELECT value FROM json_each(?2))
         AND (r.url IS NULL OR r.url NOT IN (SELECT value FROM json_each(?3)))`;

function prepareStatements(sqlite: Database) {
  return {
    // Served by deliveries_due_idx (partial on status = 'pending'): cheap however large the log grows.
    selectDue: sqlite.prepare<DueRow, [number, number]>(
      `SELECT d.id, d.tenant_id, d.rule_id, d.event, d.attempts, d.cycle, d.stream_key, r.url, r.secret, r.previous_secret, r.previous_secret_until, r.rate_limit_per_s, e.data, e.occurred_at
       FROM deliveries d
       JOIN events e ON e.id = d.event_id
       LEFT JOIN webhook_rules r ON r.id = d.rule_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= ?1
       ORDER BY d.next_attempt_at, d.rowid
       LIMIT ?2`,
    ),
    // The same rows as selectDue (same filter, order and limit, inside the same transaction),
    // leased in one statement with one token for the batch.
    leaseDue: sqlite.prepare(
      `UPDATE deliveries SET next_attempt_at = ?3, lease_token = ?4, updated_at = ?1
       WHERE id IN (SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ?1 ORDER BY next_attempt_at, rowid LIMIT ?2)`,
    ),
    // The fair claim's rows (src/scheduler/fair-share.ts): due rows in due order, skipping
    // tenants and endpoints already at their cap. Still a walk of deliveries_due_idx; only rows
    // of tenants with room reach the rule and event lookups. Whole rows are read at once (the
    // window is at most the free slots, so few are read for nothing): one statement less per claim.
    // Only while some tenant or endpoint is at its cap do the caps' lists go in: each NOT IN
    // (json_each) builds a temporary list and its Bloom filter on every call (three due rows:
    // 23 µs without them against 31–35; under chat load 105 against 134). Both variants take
    // the same four arguments (list-variants.ts).
    selectCandidates: prepareVariants<"capped", CandidateRow, [number, string, string, number]>(
      sqlite,
      ["capped"],
      ({ capped }) =>
        `SELECT d.id, d.tenant_id, d.tenant_id AS tenantId, d.rule_id, d.event, d.attempts, d.cycle, d.stream_key, r.url, r.secret, r.previous_secret, r.previous_secret_until, r.rate_limit_per_s, e.data, e.occurred_at
         FROM deliveries d
         LEFT JOIN webhook_rules r ON r.id = d.rule_id
         JOIN events e ON e.id = d.event_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= ?1${capped ? SKIP_CAPPED : ""}
         ORDER BY d.next_attempt_at, d.rowid
         LIMIT ?4`,
    ),
    // The picked rows only, leased with one token; guarded by status and due time so a row
    // another process claimed in between (impossible inside BEGIN IMMEDIATE, but cheap) is left alone.
    leaseIds: sqlite.prepare(
      `UPDATE deliveries SET next_attempt_at = ?2, lease_token = ?3, updated_at = ?1
       WHERE id IN (SELECT value FROM json_each(?4)) AND status = 'pending' AND next_attempt_at <= ?1`,
    ),
    // Only while the delivery still exists: an erasure (src/chat/erase-person.ts) may delete it
    // while its send is in flight, and the attempt must then vanish too, not fail the whole batch.
    insertAttempt: sqlite.prepare(
      `INSERT INTO delivery_attempts (id, delivery_id, cycle, attempt, started_at, duration_ms, ok, status_code, error, response_excerpt, request_headers)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11 WHERE EXISTS (SELECT 1 FROM deliveries WHERE id = ?2)`,
    ),
    // Every state change below is guarded by the lease token: a sender whose lease ran out
    // (it hung past the lease and the row was claimed again) must not overwrite the newer result.
    markRetry: sqlite.prepare(
      `UPDATE deliveries SET attempts = ?, next_attempt_at = ?, lease_token = NULL, last_status_code = ?, last_error = ?, updated_at = ?
       WHERE id = ? AND lease_token = ?`,
    ),
    // A delivery that succeeded or died: completed, its lease cleared; last_error NULL for a success.
    markEnded: sqlite.prepare(
      `UPDATE deliveries SET status = ?, attempts = ?, next_attempt_at = NULL, lease_token = NULL,
         last_status_code = ?, last_error = ?, completed_at = ?, updated_at = ?
       WHERE id = ? AND lease_token = ?`,
    ),
    insertDeadLetter: sqlite.prepare(
      `INSERT INTO dead_letters (id, delivery_id, tenant_id, rule_id, event, attempts, last_status_code, last_error, dead_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
}

type Statements = ReturnType<typeof prepareStatements> & { queue: SyncOf<QueueStatements> };

export function sqliteDeliveryQueue(sqlite: Database): SyncOf<DeliveryQueueQueries> {
  const sql: Statements = { ...prepareStatements(sqlite), queue: sqliteOps(sqlite, QUEUE_OPS) };
  return {
    /**
     * Claiming pushes `next_attempt_at` past the lease: if this process dies mid-send the row
     * is due again then — at least once, never lost. Deliveries whose rule was deleted are
     * cancelled, not sent.
     */
    claimDueDeliveries: (now, limit, leaseMs) =>
      sqlite
        .transaction(() => {
          const due = sql.selectDue.all(now, limit);
          if (due.length === 0) return [];
          const leaseToken = newId("att", now);
          sql.leaseDue.run(now, limit, now + leaseMs, leaseToken);
          return claimedFrom(sql, due, leaseToken, now);
        })
        .immediate(),

    /**
     * The scheduler's claim: only the due rows that fit the fair-share caps (per tenant, per
     * endpoint, sick endpoints) are leased, tenants taking turns. The rest stay due exactly as
     * they were: their retry schedule, attempts and lease are untouched.
     */
    claimFairShare: (now, limit, leaseMs, fair) =>
      sqlite
        .transaction((): FairClaim => {
          const window = Math.max(1, Math.min(limit, CLAIM_WINDOW));
          const fullTenants = fair.fullTenants();
          const fullEndpoints = fair.fullEndpoints();
          const capped = fullTenants.length > 0 || fullEndpoints.length > 0;
          const candidates = sql
            .selectCandidates({ capped })
            .all(now, JSON.stringify(fullTenants), JSON.stringify(fullEndpoints), window);
          if (candidates.length === 0) return { claimed: [], more: false };
          const picked = fair.pick(candidates, limit);
          const more = picked.length < candidates.length || candidates.length === window;
          if (picked.length === 0) return { claimed: [], more };
          const leaseToken = newId("att", now);
          sql.leaseIds.run(now, now + leaseMs, leaseToken, JSON.stringify(picked.map((row) => row.id)));
          return { claimed: claimedFrom(sql, picked, leaseToken, now), more };
        })
        .immediate(),

    /**
     * All in one transaction (one fsync for a whole batch). For each: the attempt log row, then
     * the decision — success, the retry's due time, or the dead letter with its expiry; a
     * delivery that ended releases the one of its stream waiting behind it.
     */
    recordAttempts: (attempts) =>
      sqlite
        .transaction(() =>
          attempts.map((recorded): AttemptOutcome => {
            const { delivery, result, startedAt, finishedAt, decision } = recorded;
            const attempt = delivery.attempts + 1;
            sql.insertAttempt.run(
              newId("att", startedAt),
              delivery.id,
              delivery.cycle,
              attempt,
              startedAt,
              result.durationMs,
              result.ok ? 1 : 0,
              result.statusCode,
              result.error,
              result.responseExcerpt,
              requestHeadersJson(recorded),
            );
            if (decision.outcome === "retry") {
              const changed = sql.markRetry.run(
                attempt,
                decision.nextAttemptAt,
                result.statusCode,
                result.error,
                finishedAt,
                delivery.id,
                delivery.leaseToken,
              ).changes;
              return changed > 0 ? "retry" : "stale";
            }
            const changed = sql.markEnded.run(
              decision.outcome,
              attempt,
              result.statusCode,
              decision.outcome === "succeeded" ? null : result.error,
              finishedAt,
              finishedAt,
              delivery.id,
              delivery.leaseToken,
            ).changes;
            if (changed === 0) return "stale";
            releaseSuccessor(sql, recorded, finishedAt);
            if (decision.outcome === "succeeded") return "succeeded";
            sql.insertDeadLetter.run(
              newId("dlq", finishedAt),
              delivery.id,
              delivery.tenantId,
              delivery.ruleId,
              delivery.event,
              attempt,
              result.statusCode,
              result.error,
              finishedAt,
              decision.expiresAt,
            );
            return "dead";
          }),
        )
        .immediate(),

    releaseLeases: (ids, leaseToken, now) => sql.queue.releaseLeases(ids, leaseToken, now),

    queueGauges: (now) => sql.queue.queueGauges(now),
  };
}

/** Ordered delivery: the one of its stream waiting behind a delivery that just ended is due now. */
function releaseSuccessor(sql: Statements, recorded: RecordedAttempt, now: number): void {
  if (mayHaveSuccessor(recorded)) sql.queue.releaseSuccessors([recorded.delivery.id], now);
}

/** Cancels rows whose rule is gone and turns the rest into claims carrying the lease token. */
function claimedFrom(sql: Statements, rows: DueRow[], leaseToken: string, now: number): ClaimedDelivery[] {
  const { claimed, orphaned } = splitClaims(rows, leaseToken);
  if (orphaned.length > 0) {
    sql.queue.cancelOrphans(orphaned, RULE_DELETED, now);
    sql.queue.releaseSuccessors(orphaned, now);
  }
  return claimed;
}
