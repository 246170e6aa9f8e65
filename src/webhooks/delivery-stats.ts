import type { Deps } from "../deps.ts";
import type { DeliveryCounts } from "../db/store.ts";
import { toIso } from "../lib/clock.ts";
import { idTimeBound } from "../lib/ids.ts";

const DAY_MS = 86_400_000;
/** The window of the admin page's webhook charts and per-rule stats. */
export const STATS_DAYS = 30;

export interface RuleDeliveryStats {
  rule_id: string;
  deliveries: number;
  succeeded: number;
  dead: number;
  /** succeeded ÷ (succeeded + dead): finished deliveries only; null before any finished. */
  success_rate: number | null;
  last_status: string;
  last_status_code: number | null;
  last_at: string;
}

export interface DayDeliveryStats {
  day: string;
  deliveries: number;
  succeeded: number;
  dead: number;
  success_rate: number | null;
}

export interface DeliveryDetails {
  url: string;
  /** Every attempt of every cycle (a re-triggered delivery starts a new cycle at attempt 1). */
  total_attempts: number;
}

const rate = (counts: DeliveryCounts): number | null => {
  const finished = counts.succeeded + counts.dead;
  return finished === 0 ? null : Math.round((counts.succeeded / finished) * 1000) / 1000;
};

const windowStart = (deps: Deps): string =>
  idTimeBound("wh", Math.floor(deps.clock.now() / DAY_MS) * DAY_MS - (STATS_DAYS - 1) * DAY_MS);

/** Per rule, over the last 30 days: how many deliveries, how many succeeded or died, and the newest one's outcome. */
export async function summarizeRuleDeliveries(deps: Deps, tenantId: string): Promise<RuleDeliveryStats[]> {
  return (await deps.store.deliveries.countDeliveriesByRule(tenantId, windowStart(deps))).map((row) => ({
    rule_id: row.ruleId,
    deliveries: row.total,
    succeeded: row.succeeded,
    dead: row.dead,
    success_rate: rate(row),
    last_status: row.lastStatus,
    last_status_code: row.lastStatusCode,
    last_at: toIso(row.lastAt),
  }));
}

/** Per UTC day of creation, over the last 30 days (days without deliveries are left out). */
export async function summarizeDailyDeliveries(deps: Deps, tenantId: string): Promise<DayDeliveryStats[]> {
  return (await deps.store.deliveries.countDeliveriesByDay(tenantId, windowStart(deps))).map((row) => ({
    day: row.day,
    deliveries: row.total,
    succeeded: row.succeeded,
    dead: row.dead,
    success_rate: rate(row),
  }));
}

/** URL and attempts across cycles of the tenant's deliveries among `webhookIds` (others are left out). */
async function describeDeliveries(
  deps: Deps,
  tenantId: string,
  webhookIds: readonly string[],
): Promise<Map<string, DeliveryDetails>> {
  const rows = await deps.store.deliveries.describeDeliveries(tenantId, webhookIds);
  return new Map(rows.map((row) => [row.id, { url: row.url, total_attempts: row.totalAttempts }]));
}

/**
 * Rows with their delivery's URL and attempts across every cycle, as the API's lists give them,
 * looked up per tenant (the administrator's CLI lists several); a row whose delivery is gone keeps
 * "" and 0.
 */
export async function withDeliveryDetails<T extends { webhook_id: string }>(
  deps: Deps,
  rows: readonly T[],
  tenantIdOf: (row: T) => string,
): Promise<Array<T & DeliveryDetails>> {
  const idsByTenant = new Map<string, string[]>();
  for (const row of rows) {
    const ids = idsByTenant.get(tenantIdOf(row));
    if (ids) ids.push(row.webhook_id);
    else idsByTenant.set(tenantIdOf(row), [row.webhook_id]);
  }
  const details = new Map<string, DeliveryDetails>();
  for (const [tenantId, ids] of idsByTenant)
    for (const [id, detail] of await describeDeliveries(deps, tenantId, ids)) details.set(id, detail);
  return rows.map((row) => ({ url: "", total_attempts: 0, ...row, ...details.get(row.webhook_id) }));
}
