import type { Clock } from "./clock.ts";

export interface WindowDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until one more request would be allowed (0 while under the limit). */
  retryAfterMs: number;
  /** Milliseconds until the oldest counted request leaves the window. */
  resetMs: number;
}

/**
 * A sliding-window log: each key keeps the times of its requests inside the window, so the
 * limit holds over every 60 s span (a fixed window lets 2× the limit through at its edge)
 * and Retry-After is exact: the moment the oldest counted request leaves the window.
 * Memory is bounded by keys × limit; idle keys are swept.
 */
export function createSlidingWindow(limit: number, windowMs: number, clock: Clock) {
  const hits = new Map<string, number[]>();
  let lastSweep = clock.now();

  function sweep(now: number) {
    if (now - lastSweep < windowMs) return;
    lastSweep = now;
    for (const [key, times] of hits) {
      if ((times.at(-1) ?? 0) <= now - windowMs) hits.delete(key);
    }
  }

  return {
    take(key: string): WindowDecision {
      const now = clock.now();
      sweep(now);
      const times = hits.get(key) ?? [];
      while (times.length > 0 && (times[0] ?? 0) <= now - windowMs) times.shift();
      const resetOf = (oldest: number | undefined) => (oldest === undefined ? windowMs : oldest + windowMs - now);
      if (times.length >= limit) {
        const wait = resetOf(times[0]);
        hits.set(key, times);
        return { allowed: false, limit, remaining: 0, retryAfterMs: wait, resetMs: wait };
      }
      times.push(now);
      hits.set(key, times);
      return { allowed: true, limit, remaining: limit - times.length, retryAfterMs: 0, resetMs: resetOf(times[0]) };
    },
    /** Whether `take` would refuse now, without counting anything. */
    isFull(key: string): WindowDecision | null {
      const now = clock.now();
      const times = hits.get(key);
      if (!times) return null;
      const live = times.filter((time) => time > now - windowMs);
      if (live.length < limit) return null;
      const wait = (live[0] ?? now) + windowMs - now;
      return { allowed: false, limit, remaining: 0, retryAfterMs: wait, resetMs: wait };
    },
    size: () => hits.size,
  };
}

export type SlidingWindow = ReturnType<typeof createSlidingWindow>;
