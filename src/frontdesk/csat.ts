import type { Deps } from "../deps.ts";
import { toIso } from "../lib/clock.ts";

const DAY_MS = 86_400_000;
export const CSAT_DAYS = 30;

export interface CsatDay {
  day: string;
  count: number;
  /** Mean score, to two decimals; null on a day without ratings. */
  average: number | null;
  /** How many ratings gave 1, 2, 3, 4 and 5. */
  distribution: [number, number, number, number, number];
}

function summarize(day: string, counts: number[]): CsatDay {
  const distribution = [0, 1, 2, 3, 4].map((i) => counts[i] ?? 0) as CsatDay["distribution"];
  const count = distribution.reduce((sum, n) => sum + n, 0);
  const total = distribution.reduce((sum, n, i) => sum + n * (i + 1), 0);
  return { day, count, average: count === 0 ? null : Math.round((total / count) * 100) / 100, distribution };
}

/** The visitors' ratings of the last 30 UTC days (today included): per day and over all of them. */
export async function summarizeRatings(
  deps: Pick<Deps, "store" | "clock">,
  tenantId: string,
): Promise<{ days: CsatDay[]; total: CsatDay }> {
  const today = Math.floor(deps.clock.now() / DAY_MS) * DAY_MS;
  const from = today - (CSAT_DAYS - 1) * DAY_MS;
  const rows = await deps.store.desk.countRatingsByDay(tenantId, from, today + DAY_MS);
  const byDay = new Map<string, number[]>();
  const all = [0, 0, 0, 0, 0];
  for (const row of rows) {
    const counts = byDay.get(row.day) ?? [0, 0, 0, 0, 0];
    counts[row.score - 1] = row.n;
    all[row.score - 1] = (all[row.score - 1] ?? 0) + row.n;
    byDay.set(row.day, counts);
  }
  const days = Array.from({ length: CSAT_DAYS }, (_, i) => {
    const day = toIso(from + i * DAY_MS).slice(0, 10);
    return summarize(day, byDay.get(day) ?? []);
  });
  return { days, total: summarize(`${days[0]?.day}..${days.at(-1)?.day}`, all) };
}
