import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
import { toIso } from "../lib/clock.ts";

const statements = preparedFor((sqlite) => ({
  // analytics_events_tenant_day_idx serves the inner query: (tenant_id, day < ?) is one range.
  purge: sqlite.prepare("DELETE FROM analytics_events WHERE id IN (SELECT id FROM analytics_events WHERE tenant_id = ?1 AND day < ?2 LIMIT ?3)"),
}));

/**
 * Deletes up to `limit` of the tenant's widget analytics rows from days (UTC) before the day of
 * `cutoffMs`: retention counts whole days, like the daily summary that reads them.
 */
export function purgeOldAnalyticsEvents(deps: Pick<Deps, "sqlite">, tenantId: string, cutoffMs: number, limit: number): number {
  return statements(deps.sqlite).purge.run(tenantId, toIso(cutoffMs).slice(0, 10), limit).changes;
}
