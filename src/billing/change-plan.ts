import { eq } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { tenants } from "../db/schema.ts";
import { writeTransaction } from "../db/client.ts";
import { invalidField } from "../lib/validate.ts";
import { requireTenantSync } from "../tenants/find-tenant.ts";
import { toIso } from "../lib/clock.ts";
import { emitEvent } from "../webhooks/emit-event.ts";
import { isPlanName, PLAN_NAMES, PLANS, type PlanName } from "./plans.ts";

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
export function changePlan(deps: Deps, tenantId: string, plan: string): PlanChangeResult {
  if (!isPlanName(plan)) throw invalidField("plan", `must be one of: ${PLAN_NAMES.join(", ")}`);
  return writeTransaction(deps.sqlite, () => {
    const tenant = requireTenantSync(deps, tenantId);
    const change = classifyPlanChange(tenant.plan, plan);
    if (change !== "none") {
      const now = deps.clock.now();
      deps.db.update(tenants).set({ plan, updatedAt: now }).where(eq(tenants.id, tenantId)).run();
      emitEvent(deps, {
        tenantId,
        event: "subscription.changed",
        data: { tenant_id: tenantId, from_plan: tenant.plan, to_plan: plan, change, changed_at: toIso(now) },
      });
    }
    return { tenantId, fromPlan: tenant.plan, toPlan: plan, change };
  });
}
