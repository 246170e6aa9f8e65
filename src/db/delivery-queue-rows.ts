import type { ClaimCandidate, ClaimedDelivery, FinishedAttempt, RecordedAttempt } from "./store-webhooks.ts";

// What both stores' delivery queues read and decide alike.

/** A due delivery as the claims select it, with its rule's current URL and secret. */
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
  previous_secret_until: number | string | null;
  rate_limit_per_s: number | null;
  data: string;
  occurred_at: number;
  stream_key: string | null;
}

export type CandidateRow = DueRow & ClaimCandidate;

/**
 * Rows read per fair claim at most, never more than the free slots: capped tenants and URLs are
 * skipped in SQL, so the first row always fits; a full window reports `more` to claim again.
 */
export const CLAIM_WINDOW = 64;

export const RULE_DELETED = "rule_deleted: the rule was deleted before this delivery was sent";

/** Leased rows as claims, and the ids of those whose rule is gone (cancelled with RULE_DELETED). */
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

export const requestHeadersJson = (attempt: FinishedAttempt): string | null =>
  attempt.requestHeaders ? JSON.stringify(attempt.requestHeaders) : null;

/** An ended delivery may have a successor unless known unordered (a claim may not carry its stream key). */
export const mayHaveSuccessor = (attempt: RecordedAttempt): boolean =>
  attempt.decision.outcome !== "retry" && attempt.delivery.streamKey !== null;
