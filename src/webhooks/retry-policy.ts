import type { AttemptDecision, FinishedAttempt, RecordedAttempt } from "../db/store-webhooks.ts";

/** The schedule a delivery follows (PARLEY_RETRY_DELAYS, PARLEY_DLQ_RETENTION). */
export interface RetryPolicy {
  /** The wait before attempt n + 1, measured from the end of failed attempt n. */
  readonly retryDelaysMs: readonly number[];
  /** How long a dead letter is kept before the sweeper deletes it. */
  readonly dlqRetentionMs: number;
}

/**
 * What follows attempt number `attempt` (1-based) of a delivery's cycle, which ended at
 * `finishedAt`: done, another attempt after the configured wait, or — when no wait is left —
 * the dead-letter table with its retention. Pure: the store writes what this decides.
 */
export function decideAttempt(policy: RetryPolicy, attempt: number, ok: boolean, finishedAt: number): AttemptDecision {
  if (ok) return { outcome: "succeeded" };
  const delay = policy.retryDelaysMs[attempt - 1];
  if (delay !== undefined) return { outcome: "retry", nextAttemptAt: finishedAt + delay };
  return { outcome: "dead", expiresAt: finishedAt + policy.dlqRetentionMs };
}

/** A finished attempt with the policy's decision, as the store records it. */
export function decideFinishedAttempt(policy: RetryPolicy, finished: FinishedAttempt): RecordedAttempt {
  const attempt = finished.delivery.attempts + 1;
  return { ...finished, decision: decideAttempt(policy, attempt, finished.result.ok, finished.finishedAt) };
}

/** Every finished attempt of a batch with its decision. */
export function decideFinishedAttempts(policy: RetryPolicy, finished: readonly FinishedAttempt[]): RecordedAttempt[] {
  return finished.map((attempt) => decideFinishedAttempt(policy, attempt));
}
