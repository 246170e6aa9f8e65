import type { Deps } from "../deps.ts";
import { toIso } from "../lib/clock.ts";

/**
 * Deletes up to `limit` of the tenant's widget analytics rows from days (UTC) before the day of
 * `cutoffMs`: retention counts whole days, like the daily summary that reads them.
 */
export function purgeOldAnalyticsEvents(
  deps: Pick<Deps, "store">,
  tenantId: string,
  cutoffMs: number,
  limit: number,
): Promise<number> {
  return deps.store.analytics.purgeAnalyticsEventsBefore(tenantId, toIso(cutoffMs).slice(0, 10), limit);
}
