import { newId } from "../../lib/ids.ts";
import { mayHaveSuccessor } from "../delivery-queue-rows.ts";
import { QUEUE_OPS } from "../sql/delivery-queue.ts";
import type { AttemptOutcome, RecordedAttempt } from "../store-webhooks.ts";
import type { PgExec } from "./exec.ts";
import { pgOps } from "./statements.ts";

// A batch of results in one statement, the batch one JSON parameter (design-notes.md).

/**
 * 1. `locked`: the deliveries that still exist (an erasure may delete one mid-send), locked in id
 *    order so two batches never deadlock; no attempt then outlives its delivery, which matters
 *    since the attempt log has no foreign key here (./schema.ts).
 * 2. `logged`: an attempt row per result whose delivery exists, stale or not.
 * 3. `current`: per delivery, the first result holding the lease; it clears it, so later ones are stale.
 * 4. `changed`: the state change; a retry leaves status and completed_at alone.
 * 5. `buried`: a dead letter for each delivery that died.
 */
export const RECORD_BATCH = `
  WITH r AS MATERIALIZED (
    SELECT * FROM ROWS FROM (json_to_recordset($1::text::json) AS (id text, lease_token text, outcome text, attempt int,
      next_attempt_at bigint, status_code int, last_error text, finished_at bigint, attempt_id text, cycle int,
      started_at bigint, duration_ms float8, ok boolean, error text, excerpt text, request_headers text,
      dead_id text, tenant_id text, rule_id text, event text, expires_at bigint)) WITH ORDINALITY
      AS r(id, lease_token, outcome, attempt, next_attempt_at, status_code, last_error, finished_at,
        attempt_id, cycle, started_at, duration_ms, ok, error, excerpt, request_headers,
        dead_id, tenant_id, rule_id, event, expires_at, ord)
  ), locked AS MATERIALIZED (
    SELECT id, lease_token FROM deliveries WHERE id = ANY(ARRAY(SELECT id FROM r)) ORDER BY id FOR NO KEY UPDATE
  ), logged AS (
    INSERT INTO delivery_attempts (id, delivery_id, cycle, attempt, started_at, duration_ms, ok, status_code, error, response_excerpt, request_headers)
    SELECT r.attempt_id, r.id, r.cycle, r.attempt, r.started_at, r.duration_ms, r.ok, r.status_code, r.error, r.excerpt, r.request_headers
    FROM r JOIN locked l ON l.id = r.id ORDER BY r.ord
  ), current AS (
    SELECT DISTINCT ON (r.id) r.* FROM r JOIN locked l ON l.id = r.id AND l.lease_token = r.lease_token ORDER BY r.id, r.ord
  ), changed AS (
    UPDATE deliveries AS d SET
      status = CASE c.outcome WHEN 'retry' THEN d.status ELSE c.outcome END,
      attempts = c.attempt,
      next_attempt_at = c.next_attempt_at,
      lease_token = NULL,
      last_status_code = c.status_code,
      last_error = c.last_error,
      completed_at = CASE c.outcome WHEN 'retry' THEN d.completed_at ELSE c.finished_at END,
      updated_at = c.finished_at
    FROM current c WHERE d.id = c.id AND d.lease_token = c.lease_token
    RETURNING c.*, d.stream_key
  ), buried AS (
    INSERT INTO dead_letters (id, delivery_id, tenant_id, rule_id, event, attempts, last_status_code, last_error, dead_at, expires_at)
    SELECT dead_id, id, tenant_id, rule_id, event, attempt, status_code, error, finished_at, expires_at
    FROM changed WHERE outcome = 'dead'
  )
  SELECT ord::int AS ord, outcome, stream_key FROM changed`;

interface Applied {
  ord: number;
  outcome: AttemptOutcome;
  stream_key: string | null;
}

/** The batch as a JSON array; ids are made in batch order (each attempt's, then its dead letter's). */
function batchJson(attempts: readonly RecordedAttempt[]): string {
  return JSON.stringify(
    attempts.map((recorded) => {
      const { delivery, result, startedAt, finishedAt, decision } = recorded;
      const attemptId = newId("att", startedAt);
      return {
        id: delivery.id,
        lease_token: delivery.leaseToken,
        outcome: decision.outcome,
        attempt: delivery.attempts + 1,
        next_attempt_at: decision.outcome === "retry" ? decision.nextAttemptAt : null,
        status_code: result.statusCode,
        last_error: result.ok ? null : result.error,
        finished_at: finishedAt,
        attempt_id: attemptId,
        cycle: delivery.cycle,
        started_at: startedAt,
        duration_ms: result.durationMs,
        ok: result.ok,
        error: result.error,
        excerpt: result.responseExcerpt,
        request_headers: recorded.requestHeaders ?? null,
        dead_id: decision.outcome === "dead" ? newId("dlq", finishedAt) : null,
        tenant_id: delivery.tenantId,
        rule_id: delivery.ruleId,
        event: delivery.event,
        expires_at: decision.outcome === "dead" ? decision.expiresAt : null,
      };
    }),
  );
}

/**
 * Committed on its own unless a delivery that ended may have a successor: then one transaction
 * takes the streams' locks after it and releases successors in a statement whose snapshot sees a
 * delivery that joined behind meanwhile.
 */
export async function recordBatch(db: PgExec, attempts: readonly RecordedAttempt[]): Promise<AttemptOutcome[]> {
  const batch = [batchJson(attempts)];
  const outcomesOf = (applied: readonly Applied[]) => {
    const outcomes: AttemptOutcome[] = attempts.map(() => "stale");
    for (const row of applied) outcomes[row.ord - 1] = row.outcome;
    return outcomes;
  };
  if (!attempts.some(mayHaveSuccessor)) return outcomesOf(await db.all<Applied>(RECORD_BATCH, batch));
  return db.transaction(async (tx) => {
    const applied = await tx.all<Applied>(RECORD_BATCH, batch);
    const ended = applied.filter((row) => row.outcome !== "retry" && row.stream_key !== null);
    if (ended.length > 0) {
      const statements = pgOps(tx, QUEUE_OPS);
      await statements.lockStreams(ended.map((row) => row.stream_key as string));
      const now = Math.max(...attempts.map((attempt) => attempt.finishedAt));
      await statements.releaseSuccessors(
        ended.map((row) => attempts[row.ord - 1]?.delivery.id as string),
        now,
      );
    }
    return outcomesOf(applied);
  });
}
