import type { Deps } from "../deps.ts";

/** The window the expected reply time is measured over. */
export const REPLY_TIME_WINDOW_MS = 30 * 24 * 60 * 60_000;
/** Fewer answered hand-offs than this say too little: no expected reply time is shown. */
export const REPLY_TIME_MIN_SAMPLES = 5;
/** The newest hand-offs read: plenty for a median, and a bounded read for a busy tenant. */
const REPLY_TIME_MAX_SAMPLES = 500;

/**
 * How long a visitor handed to a person usually waits for the first reply: the median wait of
 * the tenant's answered hand-offs within business hours in the last 30 days (out-of-hours ones
 * wait for the opening, which says nothing about how fast the team answers). Null with too few.
 */
export async function expectedReplyMs(deps: Pick<Deps, "store" | "clock">, tenantId: string): Promise<number | null> {
  const waits = await deps.store.desk.listReplyWaits(
    tenantId,
    deps.clock.now() - REPLY_TIME_WINDOW_MS,
    REPLY_TIME_MAX_SAMPLES,
  );
  if (waits.length < REPLY_TIME_MIN_SAMPLES) return null;
  const sorted = waits.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : Math.round(((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2);
}
