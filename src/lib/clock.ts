/** The only place that reads the wall clock. Domain code receives a Clock through deps. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface FakeClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

/** A clock tests drive by hand: every 30 s / 5 min / 7 d schedule is tested without waiting. */
export function createFakeClock(startMs = Date.UTC(2026, 0, 15, 9, 0, 0)): FakeClock {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}

export const toIso = (ms: number): string => new Date(ms).toISOString();
