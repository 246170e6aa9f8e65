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
  ai: sqlite.prepare<{ ai_calls: number; ai_prompt_tokens: number; ai_completion_tokens: number }, [string, string]>(
    "SELECT ai_calls, ai_prompt_tokens, ai_completion_tokens FROM usage_counters WHERE tenant_id = ? AND period = ?",
  ),
  countVisitorRefusal: sqlite.prepare(
    `INSERT INTO usage_counters (tenant_id, period, visitor_refused) VALUES (?1, ?2, 1)
     ON CONFLICT (tenant_id, period) DO UPDATE SET visitor_refused = visitor_refused + 1`,
  ),
  visitorRefused: sqlite.prepare<{ visitor_refused: number }, [string, string]>("SELECT visitor_refused FROM usage_counters WHERE tenant_id = ? AND period = ?"),
  addAi: sqlite.prepare(
    `INSERT INTO usage_counters (tenant_id, period, ai_calls, ai_prompt_tokens, ai_completion_tokens) VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (tenant_id, period) DO UPDATE SET ai_calls = ai_calls + ?3, ai_prompt_tokens = ai_prompt_tokens + ?4, ai_completion_tokens = ai_completion_tokens + ?5`,
  ),
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
  /** The assistant's model use this period; `token_cap` null = no cap. */
  ai: { calls: number; prompt_tokens: number; completion_tokens: number; token_cap: number | null };
  /** Anonymous visitor messages and sessions refused this period by the per-address share or the daily cap (not counted in `used`). */
  visitor_refused: number;
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
    ai: { ...aiUsageOf(deps, tenantId, period), token_cap: PLANS[plan].monthlyAiTokens },
    visitor_refused: statements(deps.sqlite).visitorRefused.get(tenantId, period)?.visitor_refused ?? 0,
  };
}

/** One anonymous visitor message or session refused (see visitor-allowance.ts); the quota is not touched. */
export function countVisitorRefusal(deps: Pick<Deps, "sqlite" | "clock">, tenantId: string): void {
  statements(deps.sqlite).countVisitorRefusal.run(tenantId, periodOf(deps.clock.now()));
}

function aiUsageOf(deps: Deps, tenantId: string, period: string): { calls: number; prompt_tokens: number; completion_tokens: number } {
  const row = statements(deps.sqlite).ai.get(tenantId, period);
  return { calls: row?.ai_calls ?? 0, prompt_tokens: row?.ai_prompt_tokens ?? 0, completion_tokens: row?.ai_completion_tokens ?? 0 };
}

/** Whether the tenant's plan still allows model tokens this period; over the cap the rule engine answers. */
export function withinAiTokenCap(deps: Deps, tenantId: string, plan: PlanName): boolean {
  const cap = PLANS[plan].monthlyAiTokens;
  if (cap === null) return true;
  const used = aiUsageOf(deps, tenantId, periodOf(deps.clock.now()));
  return used.prompt_tokens + used.completion_tokens < cap;
}

/** Adds one turn's model calls and tokens (as the provider reported them); call it in the message's transaction. */
export function countAiUsage(deps: Deps, tenantId: string, usage: { calls: number; promptTokens: number; completionTokens: number }): void {
  if (usage.calls === 0) return;
  statements(deps.sqlite).addAi.run(tenantId, periodOf(deps.clock.now()), usage.calls, usage.promptTokens, usage.completionTokens);
}

/** Throws the 402 when the tenant's monthly messages are used up; reads only (the assistant checks before calling its model). */
export function assertMessageQuota(deps: Deps, tenantId: string, plan: PlanName): void {
  const now = deps.clock.now();
  const period = periodOf(now);
  const quota = PLANS[plan].monthlyMessages;
  if (quota !== null && (statements(deps.sqlite).get.get(tenantId, period)?.messages ?? 0) >= quota) {
    throw new AppError("quota_exceeded", 402, `The ${plan} plan's ${quota} messages for ${period} are used up; upgrade the plan or wait for ${toIso(periodEnd(now))}.`);
  }
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
  assertMessageQuota(deps, tenantId, plan);
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
