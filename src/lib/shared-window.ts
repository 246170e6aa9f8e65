import type { SharedCounters } from "../db/store.ts";
import type { WindowDecision } from "./sliding-window.ts";

/**
 * The sliding-window log of src/lib/sliding-window.ts with its hits kept in the database
 * (several instances on one PostgreSQL count against the same log): the same decisions, the
 * same exact Retry-After — the moment the oldest admitted hit leaves the window. Refused
 * requests are not logged, as in memory.
 */
export function decideFromHits(allowed: boolean, hits: readonly number[], limit: number, windowMs: number, now: number): WindowDecision {
  const oldest = hits[0];
  const resetMs = oldest === undefined ? windowMs : oldest + windowMs - now;
  if (!allowed) return { allowed: false, limit, remaining: 0, retryAfterMs: resetMs, resetMs };
  return { allowed: true, limit, remaining: Math.max(0, limit - hits.length), retryAfterMs: 0, resetMs };
}

export async function takeShared(counters: SharedCounters, key: string, limit: number, windowMs: number, now: number): Promise<WindowDecision> {
  const { allowed, hits } = await counters.take(key, limit, windowMs, now);
  return decideFromHits(allowed, hits, limit, windowMs, now);
}

/** Whether a take would be refused now, without taking anything (null: it would pass). */
export async function peekShared(counters: SharedCounters, key: string, limit: number, windowMs: number, now: number): Promise<WindowDecision | null> {
  const hits = await counters.liveHits(key, windowMs, now);
  return hits.length < limit ? null : decideFromHits(false, hits, limit, windowMs, now);
}
