import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
import { AppError } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { emitEvent } from "../webhooks/emit-event.ts";
import { PLANS, type PlanName } from "./plans.ts";

/** Quota periods are calendar months in UTC: `2026-01`. */
export function periodOf(nowMs: number): string {
  return toIso(nowMs).slice(0, 7);
}

/** The first instant of the next period. */
export function periodEnd(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
}

export const QUOTA_THRESHOLD_PERCENT = 80;

const statements = preparedFor((sqlite) => ({
  get: sqlite.prepare<{ messages: number; threshold_notified_at: number | null }, [string, string]>(
    "SELECT messages, threshold_notified_at FROM usage_counters WHERE tenant_id = ? AND period = ?",
  ),
  increment: sqlite.prepare<{ messages: number; threshold_notified_at: number | null }, [string, string]>(
    `INSERT INTO usage_counters (tenant_id, period, messages) VALUES (?, ?, 1)
     ON CONFLICT (tenant_id, period) DO UPDATE SET messages = messages + 1
     RETURNING messages, threshold_notified_at`,
  ),
  markNotified: sqlite.prepare("UPDATE usage_counters SET threshold_notified_at = ? WHERE tenant_id = ? AND period = ?"),
}));

export interface Usage {
  plan: PlanName;
  period: string;
  used: number;
  /** null = unlimited. */
  quota: number | null;
  percent: number | null;
  remaining: number | null;
  resets_at: string;
}

export function getUsage(deps: Deps, tenantId: string, plan: PlanName): Usage {
  const now = deps.clock.now();
  const period = periodOf(now);
  const used = statements(deps.sqlite).get.get(tenantId, period)?.messages ?? 0;
  const quota = PLANS[plan].monthlyMessages;
  return {
    plan,
    period,
    used,
    quota,
    percent: quota === null ? null : Math.round((used / quota) * 1000) / 10,
    remaining: quota === null ? null : Math.max(0, quota - used),
    resets_at: toIso(periodEnd(now)),
  };
}

/**
 * Counts one message against the tenant's monthly quota; call it inside the message's
 * transaction. Refuses with 402 once the quota is used up (the quota-th message is the
 * last one accepted). The first message that reaches 80 % emits quota.threshold_reached,
 * once per period: the notified time is stored with the counter.
 */
export function countMessage(deps: Deps, tenantId: string, plan: PlanName): { used: number; quota: number | null } {
  const now = deps.clock.now();
  const period = periodOf(now);
  const sql = statements(deps.sqlite);
  const quota = PLANS[plan].monthlyMessages;
  if (quota !== null && (sql.get.get(tenantId, period)?.messages ?? 0) >= quota) {
    throw new AppError("quota_exceeded", 402, `The ${plan} plan's ${quota} messages for ${period} are used up; upgrade the plan or wait for ${toIso(periodEnd(now))}.`);
  }
  const counter = sql.increment.get(tenantId, period);
  const used = counter?.messages ?? 1;
  if (quota !== null && counter?.threshold_notified_at === null && used * 100 >= quota * QUOTA_THRESHOLD_PERCENT) {
    sql.markNotified.run(now, tenantId, period);
    emitEvent(deps, {
      tenantId,
      event: "quota.threshold_reached",
      data: { tenant_id: tenantId, plan, period, used, quota, percent: Math.round((used / quota) * 1000) / 10 },
    });
  }
  return { used, quota };
}
