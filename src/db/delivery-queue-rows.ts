import type { ClaimCandidate, ClaimedDelivery, FinishedAttempt, RecordedAttempt } from "./store-webhooks.ts";

// What both stores' delivery queues (src/db/sqlite/delivery-queue.ts,
// src/db/postgres/delivery-queue.ts) read and decide alike.

/** A due delivery as the claim queries select it, with its rule's current URL and secret. */
export interface DueRow {
  id: string;
  tenant_id: string;
  rule_id: string | null;
  event: string;
  attempts: number;
  cycle: number;
  url: string | null;
  secret: string | null;
  previous_secret: string | null;
  /** A string on PostgreSQL (bigint). */
  previous_secret_until: number | string | null;
  rate_limit_per_s: number | null;
  data: string;
  occurred_at: number;
  stream_key: string | null;
}

/** A due row with the tenant under the name the fair-share picker reads. */
export type CandidateRow = DueRow & ClaimCandidate;

/**
 * At most this many due rows are read per fair claim, and never more than the free slots: the
 * first row read always fits (tenants and URLs at their cap are skipped in SQL), so a claim
 * that frees one slot of a capped receiver reads one row, not a thousand. When the window was
 * full the claim reports `more` and the scheduler claims again at once, with the tenants and
 * URLs this claim filled now skipped in SQL.
 */
export const CLAIM_WINDOW = 64;

/** The error a pending delivery is cancelled with when its rule is gone by the time it is claimed. */
export const RULE_DELETED = "rule_deleted: the rule was deleted before this delivery was sent";

/**
 * Leased rows as claims carrying the lease token, and the ids of those whose rule is gone
 * (the store cancels them with RULE_DELETED instead of sending).
 */
export function splitClaims(
  rows: readonly DueRow[],
  leaseToken: string,
): { claimed: ClaimedDelivery[]; orphaned: string[] } {
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
      previousSecret: row.previous_secret,
      previousSecretUntil: row.previous_secret_until === null ? null : Number(row.previous_secret_until),
      rateLimitPerS: row.rate_limit_per_s,
      data: row.data,
      occurredAt: row.occurred_at,
      streamKey: row.stream_key,
    });
  }
  return { claimed, orphaned };
}

/** The attempt log's request_headers column: JSON text, or null when none were kept. */
export const requestHeadersJson = (attempt: FinishedAttempt): string | null =>
  attempt.requestHeaders ? JSON.stringify(attempt.requestHeaders) : null;

/**
 * Whether a result that ends this delivery may have a successor to release: it is ordered, or
 * not known not to be (a claim that did not carry its stream key).
 */
export const mayHaveSuccessor = (attempt: RecordedAttempt): boolean =>
  attempt.decision.outcome !== "retry" && attempt.delivery.streamKey !== null;
