import type { Deps } from "../deps.ts";
import type { ClaimedDelivery } from "../db/store.ts";
import { createWindowLimiter } from "../lib/shared-window.ts";

const SECOND = 1000;

/**
 * Per-rule send rates (`rate_limit_per_s`): a sliding one-second window per rule, counted in
 * the database on PostgreSQL (`store.counters`: every instance takes from the same window) and
 * in memory on SQLite (one server per file). A refused delivery is not failed but made due
 * again later; the refusals of one rule are spread one slot apart (1 s / n), so a backlog is
 * re-read about once per delivery rather than every delivery at every window.
 */
export function createRuleRateLimit(deps: Pick<Deps, "clock" | "store">) {
  const windows = createWindowLimiter(deps.clock, deps.store.counters);
  /** Per rule, the earliest due time not yet handed to a waiting delivery by this process. */
  const nextSlot = new Map<string, number>();

  return {
    /** True: send it now. False: it was made due again later (unleased, no attempt spent). */
    async mayGoNow(delivery: ClaimedDelivery, perSecond: number): Promise<boolean> {
      const decision = await windows.take(`webhook-rule:${delivery.ruleId}`, perSecond, SECOND);
      if (decision.allowed) return true;
      const now = deps.clock.now();
      for (const [ruleId, slot] of nextSlot) if (slot < now) nextSlot.delete(ruleId);
      const dueAt = Math.max(now + decision.retryAfterMs, nextSlot.get(delivery.ruleId) ?? 0);
      nextSlot.set(delivery.ruleId, dueAt + Math.ceil(SECOND / perSecond));
      await deps.store.deliveries.postponeLeasedDelivery(delivery.id, delivery.leaseToken, dueAt, now);
      return false;
    },
  };
}

export type RuleRateLimit = ReturnType<typeof createRuleRateLimit>;
