import type { StoreQueries } from "../db/store.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { isPlanName, PLANS, type PlanName } from "./plans.ts";

export interface PlanCap {
  /** The limit's name in the 402's details: `webhook_rules`, `test_cases`. */
  limit: string;
  /** What is counted, in the message: "webhook rules". */
  noun: string;
  max: (plan: (typeof PLANS)[PlanName]) => number;
  count: () => Promise<number>;
}

/**
 * Refuses one more of something the plan caps: 402 `plan_limit` naming the limit, its value and
 * the current count, so the owner knows whether to delete one or upgrade. What a bigger plan let
 * a tenant keep after a downgrade stays; only new ones are refused. Called inside the transaction
 * that inserts: the tenant's lock on this cap, held to its end, keeps a concurrent add from
 * counting before this one's insert is committed.
 */
export async function assertPlanRoom(db: StoreQueries, tenantId: string, cap: PlanCap): Promise<void> {
  await db.tenants.lockPlanCap(tenantId, cap.limit);
  const tenantPlan = await db.tenants.findTenantPlan(tenantId);
  if (tenantPlan === null) throw notFound("tenant");
  const plan = isPlanName(tenantPlan) ? tenantPlan : "free";
  const max = cap.max(PLANS[plan]);
  const current = await cap.count();
  if (current >= max) {
    throw new AppError(
      "plan_limit",
      402,
      `The ${plan} plan allows ${max} ${cap.noun} and this tenant has ${current}; delete one or upgrade the plan.`,
      {
        limit: cap.limit,
        max,
        current,
      },
    );
  }
}
