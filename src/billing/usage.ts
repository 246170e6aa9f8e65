import type { Deps } from "../deps.ts";
import type { MessageReservation, StoreQueries, Transaction, UsageCounterRow } from "../db/store.ts";
import { AppError } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { enqueueEvent } from "../webhooks/emit-event.ts";
import { PLANS, type PlanName } from "../plans/plans.ts";

/** The month periodOf answered last, as [from, to): every chat message asks, nearly always for it. */
let lastPeriod = { from: 0, to: 0, name: "" };

/** Quota periods are calendar months in UTC: `2026-01`. */
export function periodOf(nowMs: number): string {
  if (nowMs >= lastPeriod.from && nowMs < lastPeriod.to) return lastPeriod.name;
  const now = new Date(nowMs);
  lastPeriod = {
    from: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
    to: periodEnd(nowMs),
    name: toIso(nowMs).slice(0, 7),
  };
  return lastPeriod.name;
}

/** The first instant of the next period. */
export function periodEnd(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
}

export const QUOTA_THRESHOLD_PERCENT = 80;

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

export async function getUsage(deps: Pick<Deps, "store" | "clock">, tenantId: string, plan: PlanName): Promise<Usage> {
  const now = deps.clock.now();
  const period = periodOf(now);
  const counter = await deps.store.usage.findUsage(tenantId, period);
  const used = counter?.messages ?? 0;
  const quota = PLANS[plan].monthlyMessages;
  return {
    plan,
    period,
    used,
    quota,
    percent: quota === null ? null : Math.round((used / quota) * 1000) / 10,
    remaining: quota === null ? null : Math.max(0, quota - used),
    resets_at: toIso(periodEnd(now)),
    ai: { ...aiUsageOf(counter), token_cap: PLANS[plan].monthlyAiTokens },
    visitor_refused: counter?.visitorRefused ?? 0,
  };
}

/** One anonymous visitor message or session refused (see visitor-allowance.ts); the quota is not touched. */
export function countVisitorRefusal(deps: Pick<Deps, "store" | "clock">, tenantId: string): Promise<void> {
  return deps.store.usage.countVisitorRefusal(tenantId, periodOf(deps.clock.now()));
}

function aiUsageOf(counter: UsageCounterRow | null): {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
} {
  return {
    calls: counter?.aiCalls ?? 0,
    prompt_tokens: counter?.aiPromptTokens ?? 0,
    completion_tokens: counter?.aiCompletionTokens ?? 0,
  };
}

/** Whether the tenant's plan still allows model tokens this period; over the cap the rule engine answers. */
export async function withinAiTokenCap(
  deps: Pick<Deps, "store" | "clock">,
  tenantId: string,
  plan: PlanName,
): Promise<boolean> {
  const cap = PLANS[plan].monthlyAiTokens;
  if (cap === null) return true;
  const used = aiUsageOf(await deps.store.usage.findUsage(tenantId, periodOf(deps.clock.now())));
  return used.prompt_tokens + used.completion_tokens < cap;
}

/** Adds one turn's model calls and tokens (as the provider reported them), through the message's transaction. */
export async function countAiUsage(
  deps: Pick<Deps, "clock">,
  tx: Transaction,
  tenantId: string,
  usage: { calls: number; promptTokens: number; completionTokens: number },
): Promise<void> {
  if (usage.calls === 0) return;
  await tx.usage.addAiUsage(tenantId, periodOf(deps.clock.now()), usage);
}

/**
 * Throws the 402 when the tenant's monthly messages are used up; reads only, through `db` (the
 * store, or the message's transaction). The assistant checks before calling its model.
 */
export async function assertMessageQuota(
  deps: Pick<Deps, "clock">,
  db: StoreQueries,
  tenantId: string,
  plan: PlanName,
): Promise<void> {
  const now = deps.clock.now();
  const period = periodOf(now);
  const quota = PLANS[plan].monthlyMessages;
  if (quota !== null && ((await db.usage.findUsage(tenantId, period))?.messages ?? 0) >= quota)
    throw quotaExceeded(plan, quota, period, now);
}

const quotaExceeded = (plan: PlanName, quota: number, period: string, now: number): AppError =>
  new AppError(
    "quota_exceeded",
    402,
    `The ${plan} plan's ${quota} messages for ${period} are used up; upgrade the plan or wait for ${toIso(periodEnd(now))}.`,
  );

/**
 * Counts one message against the tenant's monthly quota, through the message's transaction,
 * before the turn writes anything else; returns the lookup version and the session (when
 * `sessionId` is given) read with it. Nearly every
 * message is reserved in one statement that holds the counter row for itself only (on
 * PostgreSQL it commits at once and a rollback of the turn takes it back). A message the
 * reservation leaves alone is either over the quota — 402, the quota-th message being the last
 * one accepted — or may be the first to reach 80 %: that one is counted exactly, inside the
 * transaction (settleCountedMessage), so quota.threshold_reached fires once per period and is
 * written with the count that caused it.
 */
export async function countMessage(
  deps: Pick<Deps, "clock" | "deliveriesEnqueued" | "deliveryHandoff">,
  tx: Transaction,
  tenantId: string,
  plan: PlanName,
  now: number,
  sessionId: string | null,
): Promise<Pick<MessageReservation, "lookupVersion" | "session">> {
  const period = periodOf(now);
  const quota = PLANS[plan].monthlyMessages;
  const reservation = await tx.usage.reserveMessage(
    tenantId,
    period,
    { quota, thresholdPercent: QUOTA_THRESHOLD_PERCENT },
    sessionId,
  );
  if (!reservation.reserved) {
    if (quota !== null && (reservation.messages ?? 0) >= quota) throw quotaExceeded(plan, quota, period, now);
    await settleCountedMessage(
      deps,
      tx,
      { tenantId, period },
      plan,
      await tx.usage.incrementMessages(tenantId, period),
      now,
    );
  }
  return reservation;
}

/**
 * After one message was counted against the tenant's monthly quota (`counter`: the counter
 * after it, from the message's transaction; `counted`: whose counter, for the period of `now`): refuses with 402 once
 * the quota is used up (the quota-th message is the last one accepted), which rolls the count
 * back with the rest of the message. The first message that reaches 80 % emits
 * quota.threshold_reached, once per period: the notified time is stored with the counter.
 */
async function settleCountedMessage(
  deps: Pick<Deps, "clock" | "deliveriesEnqueued" | "deliveryHandoff">,
  tx: Transaction,
  counted: { tenantId: string; period: string },
  plan: PlanName,
  counter: Pick<UsageCounterRow, "messages" | "thresholdNotifiedAt">,
  now: number,
): Promise<{ used: number; quota: number | null }> {
  const { tenantId, period } = counted;
  const quota = PLANS[plan].monthlyMessages;
  const used = counter.messages;
  // Counted first, refused after: the throw rolls the count back with the rest of the message
  // (one statement instead of a read and a write; exact under concurrency, as the upsert is).
  if (quota !== null && used > quota) throw quotaExceeded(plan, quota, period, now);
  if (quota !== null && counter.thresholdNotifiedAt === null && used * 100 >= quota * QUOTA_THRESHOLD_PERCENT) {
    await tx.usage.markThresholdNotified(tenantId, period, now);
    await enqueueEvent(deps, tx, {
      tenantId,
      event: "quota.threshold_reached",
      data: { tenant_id: tenantId, plan, period, used, quota, percent: Math.round((used / quota) * 1000) / 10 },
    });
  }
  return { used, quota };
}
