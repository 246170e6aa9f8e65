import type { Clock } from "./clock.ts";
import { createSlidingWindow, type SlidingWindow, type WindowDecision } from "./sliding-window.ts";

export interface SlidingHits {
  allowed: boolean;
  /** Epoch ms, oldest first, this hit included when admitted. */
  hits: number[];
}

/** Limits counted in the database, shared by every instance (a store provides them: `store.counters`). */
export interface SharedCounters {
  /** A sliding-window log: admits the hit at `now` if fewer than `limit` hits are inside the last `windowMs`. */
  take(key: string, limit: number, windowMs: number, now: number): Promise<SlidingHits>;
  /** The admitted hits inside the last `windowMs`, without taking one. */
  liveHits(key: string, windowMs: number, now: number): Promise<number[]>;
  /** A fixed window (e.g. a UTC day): adds one to `key`'s count in the window holding `now`; the count after. */
  addToWindow(key: string, windowMs: number, now: number): Promise<number>;
  /** That count without adding. */
  windowCount(key: string, windowMs: number, now: number): Promise<number>;
  /** Deletes windows that have ended; how many rows. */
  purgeExpired(now: number): Promise<number>;
}

/**
 * The sliding-window log of src/lib/sliding-window.ts with its hits kept in the database
 * (several instances on one PostgreSQL count against the same log): the same decisions, the
 * same exact Retry-After — the moment the oldest admitted hit leaves the window. Refused
 * requests are not logged, as in memory.
 */
export function decideFromHits(
  allowed: boolean,
  hits: readonly number[],
  limit: number,
  windowMs: number,
  now: number,
): WindowDecision {
  const oldest = hits[0];
  const resetMs = oldest === undefined ? windowMs : oldest + windowMs - now;
  if (!allowed) return { allowed: false, limit, remaining: 0, retryAfterMs: resetMs, resetMs };
  return { allowed: true, limit, remaining: Math.max(0, limit - hits.length), retryAfterMs: 0, resetMs };
}

export async function takeShared(
  counters: SharedCounters,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<WindowDecision> {
  const { allowed, hits } = await counters.take(key, limit, windowMs, now);
  return decideFromHits(allowed, hits, limit, windowMs, now);
}

/** Whether a take would be refused now, without taking anything (null: it would pass). */
export async function peekShared(
  counters: SharedCounters,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<WindowDecision | null> {
  const hits = await counters.liveHits(key, windowMs, now);
  return hits.length < limit ? null : decideFromHits(false, hits, limit, windowMs, now);
}

/**
 * The limits' one entry point, whichever store: sliding windows (`take`/`peek`) and fixed
 * windows (`addToWindow`/`windowCount`, e.g. a UTC day). With `shared` counters (PostgreSQL,
 * several instances) they are counted in the database for the whole cluster; without (SQLite,
 * one server per file) in this process's memory, with the same decisions.
 */
export interface WindowLimiter {
  take(key: string, limit: number, windowMs: number): Promise<WindowDecision>;
  /** The refusal a take would get now, without counting anything; null when it would pass. */
  peek(key: string, limit: number, windowMs: number): Promise<WindowDecision | null>;
  addToWindow(key: string, windowMs: number): Promise<number>;
  windowCount(key: string, windowMs: number): Promise<number>;
}

export function createWindowLimiter(clock: Clock, shared: SharedCounters | null): WindowLimiter {
  if (shared) {
    return {
      take: (key, limit, windowMs) => takeShared(shared, key, limit, windowMs, clock.now()),
      peek: (key, limit, windowMs) => peekShared(shared, key, limit, windowMs, clock.now()),
      addToWindow: (key, windowMs) => shared.addToWindow(key, windowMs, clock.now()),
      windowCount: (key, windowMs) => shared.windowCount(key, windowMs, clock.now()),
    };
  }
  // One sliding-window log per (limit, window) pair, each swept of idle keys by itself.
  const sliding = new Map<string, SlidingWindow>();
  const slidingFor = (limit: number, windowMs: number): SlidingWindow => {
    const id = `${limit}/${windowMs}`;
    let window = sliding.get(id);
    if (!window) sliding.set(id, (window = createSlidingWindow(limit, windowMs, clock)));
    return window;
  };
  // Fixed windows: the current window's count per key; a key from an ended window counts 0.
  const fixed = new Map<string, { start: number; count: number }>();
  let lastSweep = clock.now();
  const current = (key: string, windowMs: number) => {
    const now = clock.now();
    if (now - lastSweep >= 60_000) {
      lastSweep = now;
      for (const [name, entry] of fixed) if (entry.start + windowMs <= now) fixed.delete(name);
    }
    const start = Math.floor(now / windowMs) * windowMs;
    const entry = fixed.get(key);
    return entry && entry.start === start ? entry : { start, count: 0 };
  };
  return {
    take: async (key, limit, windowMs) => slidingFor(limit, windowMs).take(key),
    peek: async (key, limit, windowMs) => slidingFor(limit, windowMs).isFull(key),
    addToWindow: async (key, windowMs) => {
      const entry = current(key, windowMs);
      entry.count += 1;
      fixed.set(key, entry);
      return entry.count;
    },
    windowCount: async (key, windowMs) => current(key, windowMs).count,
  };
}
