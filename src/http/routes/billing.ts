import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { changePlan } from "../../billing/change-plan.ts";
import { PLAN_NAMES, PLANS } from "../../billing/plans.ts";
import { getUsage } from "../../billing/usage.ts";
import { requireTenant } from "../../tenants/find-tenant.ts";

export const BillingModel = {
  tenantQuery: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  subscriptionBody: strictObject({ plan: t.Union(PLAN_NAMES.map((plan) => t.Literal(plan))) }),
} as const;

function subscriptionView(deps: AppDeps, tenantId: string) {
  const tenant = requireTenant(deps, tenantId);
  return { tenant_id: tenant.id, plan: tenant.plan, monthly_messages: PLANS[tenant.plan].monthlyMessages, plans: PLAN_NAMES.map((name) => ({ plan: name, monthly_messages: PLANS[name].monthlyMessages })) };
}

export function billingRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .get("/subscription", ({ principal, query }) => subscriptionView(deps, tenantOf(principal, query.tenant_id, ["owner"])), {
      tenantAccess: true,
      rateLimit: "management",
      query: BillingModel.tenantQuery,
    })
    .put(
      "/subscription",
      ({ principal, query, body }) => {
        const tenantId = tenantOf(principal, query.tenant_id, ["owner"]);
        const result = changePlan(deps, tenantId, body.plan);
        return { ...subscriptionView(deps, tenantId), from_plan: result.fromPlan, change: result.change };
      },
      { tenantAccess: true, rateLimit: "management", query: BillingModel.tenantQuery, body: BillingModel.subscriptionBody },
    )
    .get(
      "/usage",
      ({ principal, query }) => {
        const tenant = requireTenant(deps, tenantOf(principal, query.tenant_id));
        return { tenant_id: tenant.id, ...getUsage(deps, tenant.id, tenant.plan) };
      },
      { tenantAccess: true, rateLimit: "management", query: BillingModel.tenantQuery },
    );
}
