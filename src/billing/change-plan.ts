import type { Deps } from "../deps.ts";
import { invalidField } from "../lib/validate.ts";
import { notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { enqueueEvent } from "../webhooks/emit-event.ts";
import { isPlanName, PLAN_NAMES, PLANS, type PlanName } from "../plans/plans.ts";

export type PlanChange = "upgrade" | "downgrade" | "cancellation" | "none";

export interface PlanChangeResult {
  tenantId: string;
  fromPlan: PlanName;
  toPlan: PlanName;
  change: PlanChange;
}

/** Moving to `free` from a paid plan is a cancellation; otherwise the plans' ranks decide. */
export function classifyPlanChange(fromPlan: PlanName, toPlan: PlanName): PlanChange {
  if (fromPlan === toPlan) return "none";
  if (toPlan === "free") return "cancellation";
  return PLANS[toPlan].rank > PLANS[fromPlan].rank ? "upgrade" : "downgrade";
}

/**
 * Sets a tenant's plan and, in the same transaction, emits subscription.changed. Setting the
 * plan it already has changes nothing and emits nothing.
 */
export async function changePlan(deps: Deps, tenantId: string, plan: string): Promise<PlanChangeResult> {
  if (!isPlanName(plan)) throw invalidField("plan", `must be one of: ${PLAN_NAMES.join(", ")}`);
  return deps.store.transaction(async (tx) => {
    const current = await tx.tenants.findTenantPlan(tenantId);
    if (current === null) throw notFound("tenant");
    const fromPlan = isPlanName(current) ? current : "free";
    const change = classifyPlanChange(fromPlan, plan);
    if (change !== "none") {
      const now = deps.clock.now();
      await tx.tenants.updateTenantPlan(tenantId, plan, now);
      await enqueueEvent(deps, tx, {
        tenantId,
        event: "subscription.changed",
        data: { tenant_id: tenantId, from_plan: fromPlan, to_plan: plan, change, changed_at: toIso(now) },
      });
    }
    return { tenantId, fromPlan, toPlan: plan, change };
  });
}
