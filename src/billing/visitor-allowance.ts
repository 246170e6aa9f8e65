import type { Deps } from "../deps.ts";
import { AppError } from "../lib/app-error.ts";
import type { Clock } from "../lib/clock.ts";
import type { SharedCounters } from "../db/store.ts";
import { createWindowLimiter } from "../lib/shared-window.ts";
import { PLANS, type PlanName } from "../plans/plans.ts";
import { countVisitorRefusal } from "./usage.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** However small the plan, one address may always hold a real conversation. */
export const MIN_HOURLY_VISITOR_MESSAGES = 10;

/** Messages one address may send a tenant per hour: `share` of its monthly quota, or null (unlimited plan). */
export function hourlyVisitorShare(plan: PlanName, share: number): number | null {
  const quota = PLANS[plan].monthlyMessages;
  return quota === null ? null : Math.max(MIN_HOURLY_VISITOR_MESSAGES, Math.floor(quota * share));
}

export interface VisitorAllowanceSettings {
  /** Fraction of the tenant's monthly quota one address may use per hour (0.02 = 2 %). */
  hourlyShare: number;
  /** New anonymous sessions one address may open per tenant per hour. */
  sessionsPerHour: number;
}

const tooMany = (retryAfterMs: number, message: string): AppError => {
  const retryAfter = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return new AppError("rate_limited", 429, `${message} Try again in ${retryAfter} s.`, undefined, {
    "retry-after": retryAfter,
  });
};

/**
 * What keeps one anonymous client from spending a tenant's monthly quota. Limits per session
 * are not enough, because sessions are free: here an address (the widget's visitors have no
 * other identity) is counted across every session it opens, per tenant:
 *
 * - sessions: `sessionsPerHour` new sessions per hour;
 * - messages: `hourlyShare` of the monthly quota per hour (at least 10), and the tenant's own
 *   daily cap on anonymous messages (bot config `limits.anonymous_daily_messages`).
 *
 * A refusal is a 429 with Retry-After, made before the message is stored, so the tenant's
 * quota is untouched; refusals are counted per month for GET /usage. With `shared` counters
 * (PostgreSQL, several instances) every window is counted in the database, so an address gets
 * the same allowance whichever instance it reaches; without (SQLite, one server per file) the
 * windows live in this process and the daily counts start again after a restart.
 */
export function createVisitorAllowance(
  clock: Clock,
  settings: VisitorAllowanceSettings,
  shared: SharedCounters | null = null,
) {
  const windows = createWindowLimiter(clock, shared);

  const refuse = (deps: Deps, tenantId: string, decisionWait: number, message: string): AppError => {
    // Bookkeeping for GET /usage: the refusal stands even if the count cannot be written now.
    countVisitorRefusal(deps, tenantId).catch((error: unknown) =>
      deps.log.error({ msg: "counting a visitor refusal failed", error: String(error) }),
    );
    return tooMany(decisionWait, message);
  };

  return {
    async admitSession(deps: Deps, tenantId: string, ip: string): Promise<void> {
      const decision = await windows.take(`visitor-sessions:${tenantId}:${ip}`, settings.sessionsPerHour, HOUR_MS);
      if (!decision.allowed)
        throw refuse(deps, tenantId, decision.retryAfterMs, "Too many new chats from your network.");
    },

    async admitMessage(
      deps: Deps,
      tenant: { id: string; plan: PlanName },
      ip: string,
      dailyCap: number | null,
    ): Promise<void> {
      const dailyKey = `visitor-daily:${tenant.id}`;
      if (dailyCap !== null && (await windows.windowCount(dailyKey, DAY_MS)) >= dailyCap) {
        const now = clock.now();
        throw refuse(
          deps,
          tenant.id,
          (Math.floor(now / DAY_MS) + 1) * DAY_MS - now,
          "This chat has reached its messages for today.",
        );
      }
      const hourly = hourlyVisitorShare(tenant.plan, settings.hourlyShare);
      if (hourly !== null) {
        const decision = await windows.take(`visitor-messages:${tenant.id}:${ip}`, hourly, HOUR_MS);
        if (!decision.allowed)
          throw refuse(deps, tenant.id, decision.retryAfterMs, "Too many messages from your network.");
      }
      // Counted whether or not a cap is set, so a cap set during the day counts the day's messages.
      await windows.addToWindow(dailyKey, DAY_MS);
    },
  };
}

export type VisitorAllowance = ReturnType<typeof createVisitorAllowance>;
