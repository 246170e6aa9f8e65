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

// The twin of src/db/postgres/delivery-queue*.ts. Each operation is one BEGIN IMMEDIATE
// transaction, so a server and a CLI never claim the same row. Ties in due order go by `rowid`,
// which deliveries_due_idx carries (by `id` they were sorted in a temporary B-tree).

/** The fair claim's skip of tenants (?2) and endpoints (?3) at their caps, JSON arrays. */
const SKIP_CAPPED = `
         AND d.tenant_id NOT IN (SELECT value FROM json_each(?2))
         AND (r.url IS NULL OR r.url NOT IN (SELECT value FROM json_each(?3)))`;

function prepareStatements(sqlite: Database) {
  return {
    // deliveries_due_idx (partial on status = 'pending'): cheap however large the log grows.
    selectDue: sqlite.prepare<DueRow, [number, number]>(
      `SELECT d.id, d.tenant_id, d.rule_id, d.event, d.attempts, d.cycle, d.stream_key, r.url, r.secret, r.previous_secret, r.previous_secret_until, r.rate_limit_per_s, e.data, e.occurred_at
       FROM deliveries d
       JOIN events e ON e.id = d.event_id
       LEFT JOIN webhook_rules r ON r.id = d.rule_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= ?1
       ORDER BY d.next_attempt_at, d.rowid
       LIMIT ?2`,
    ),
    // selectDue's rows (same filter, order and limit, same transaction), one token for the batch.
    leaseDue: sqlite.prepare(
      `UPDATE deliveries SET next_attempt_at = ?3, lease_token = ?4, updated_at = ?1
       WHERE id IN (SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ?1 ORDER BY next_attempt_at, rowid LIMIT ?2)`,
    ),
    // A walk of deliveries_due_idx skipping capped tenants and endpoints; whole rows, as the window
    // is at most the free slots. The caps' lists go in only while some are full: each NOT IN
    // (json_each) builds a temporary list and Bloom filter per call.
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
    // Guarded by status and due time, cheaply, though BEGIN IMMEDIATE already keeps others out.
    leaseIds: sqlite.prepare(
      `UPDATE deliveries SET next_attempt_at = ?2, lease_token = ?3, updated_at = ?1
       WHERE id IN (SELECT value FROM json_each(?4)) AND status = 'pending' AND next_attempt_at <= ?1`,
    ),
    // An erasure may delete the delivery mid-send: its attempt then vanishes, not failing the batch.
    insertAttempt: sqlite.prepare(
      `INSERT INTO delivery_attempts (id, delivery_id, cycle, attempt, started_at, duration_ms, ok, status_code, error, response_excerpt, request_headers)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11 WHERE EXISTS (SELECT 1 FROM deliveries WHERE id = ?2)`,
    ),
    // Guarded by the lease token: a sender whose lease ran out must not overwrite a newer result.
    markRetry: sqlite.prepare(
      `UPDATE deliveries SET attempts = ?, next_attempt_at = ?, lease_token = NULL, last_status_code = ?, last_error = ?, updated_at = ?
       WHERE id = ? AND lease_token = ?`,
    ),
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
    // `next_attempt_at` past the lease: if this process dies mid-send the row is due again.
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

    // One transaction, one fsync for the batch.
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

function releaseSuccessor(sql: Statements, recorded: RecordedAttempt, now: number): void {
  if (mayHaveSuccessor(recorded)) sql.queue.releaseSuccessors([recorded.delivery.id], now);
}

function claimedFrom(sql: Statements, rows: DueRow[], leaseToken: string, now: number): ClaimedDelivery[] {
  const { claimed, orphaned } = splitClaims(rows, leaseToken);
  if (orphaned.length > 0) {
    sql.queue.cancelOrphans(orphaned, RULE_DELETED, now);
    sql.queue.releaseSuccessors(orphaned, now);
  }
  return claimed;
}
