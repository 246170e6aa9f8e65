import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
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

interface Counts {
  total: number;
  succeeded: number;
  dead: number;
}

// Both windows are an id range on deliveries_tenant_idx: ids sort by creation time.
const statements = preparedFor((sqlite) => ({
  byRule: sqlite.prepare<Counts & { rule_id: string; last_status: string; last_status_code: number | null; last_at: number }, [string, string]>(
    `SELECT s.rule_id, s.total, s.succeeded, s.dead, d.status AS last_status, d.last_status_code, d.updated_at AS last_at
     FROM (SELECT rule_id, count(*) AS total, sum(status = 'succeeded') AS succeeded, sum(status = 'dead') AS dead, max(id) AS last_id
           FROM deliveries WHERE tenant_id = ?1 AND id >= ?2 AND rule_id IS NOT NULL GROUP BY rule_id) AS s
     JOIN deliveries AS d ON d.id = s.last_id`,
  ),
  byDay: sqlite.prepare<Counts & { day: string }, [string, string]>(
    `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, count(*) AS total,
       sum(status = 'succeeded') AS succeeded, sum(status = 'dead') AS dead
     FROM deliveries WHERE tenant_id = ? AND id >= ? GROUP BY day ORDER BY day`,
  ),
  details: sqlite.prepare<{ id: string; url: string; total_attempts: number }, [string, string]>(
    `SELECT d.id, d.url, (SELECT count(*) FROM delivery_attempts AS a WHERE a.delivery_id = d.id) AS total_attempts
     FROM deliveries AS d WHERE d.tenant_id = ? AND d.id IN (SELECT value FROM json_each(?))`,
  ),
}));

const rate = (counts: Counts): number | null => {
  const finished = counts.succeeded + counts.dead;
  return finished === 0 ? null : Math.round((counts.succeeded / finished) * 1000) / 1000;
};

const windowStart = (deps: Deps): string => idTimeBound("wh", Math.floor(deps.clock.now() / DAY_MS) * DAY_MS - (STATS_DAYS - 1) * DAY_MS);

/** Per rule, over the last 30 days: how many deliveries, how many succeeded or died, and the newest one's outcome. */
export function summarizeRuleDeliveries(deps: Deps, tenantId: string): RuleDeliveryStats[] {
  return statements(deps.sqlite)
    .byRule.all(tenantId, windowStart(deps))
    .map((row) => ({
      rule_id: row.rule_id,
      deliveries: row.total,
      succeeded: row.succeeded,
      dead: row.dead,
      success_rate: rate(row),
      last_status: row.last_status,
      last_status_code: row.last_status_code,
      last_at: toIso(row.last_at),
    }));
}

/** Per UTC day of creation, over the last 30 days (days without deliveries are left out). */
export function summarizeDailyDeliveries(deps: Deps, tenantId: string): DayDeliveryStats[] {
  return statements(deps.sqlite)
    .byDay.all(tenantId, windowStart(deps))
    .map((row) => ({ day: row.day, deliveries: row.total, succeeded: row.succeeded, dead: row.dead, success_rate: rate(row) }));
}

/** URL and attempts across cycles of the tenant's deliveries among `webhookIds` (others are left out). */
export function describeDeliveries(deps: Deps, tenantId: string, webhookIds: readonly string[]): Map<string, DeliveryDetails> {
  if (webhookIds.length === 0) return new Map();
  const rows = statements(deps.sqlite).details.all(tenantId, JSON.stringify(webhookIds));
  return new Map(rows.map((row) => [row.id, { url: row.url, total_attempts: row.total_attempts }]));
}
