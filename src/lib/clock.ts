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

/** An ISO 8601 date or date-time (`2026-01-15`, `2026-01-15T09:00:00Z`) as epoch ms, or null. */
export function parseIsoTime(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}
