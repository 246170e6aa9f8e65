import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { changePlan } from "../../billing/change-plan.ts";
import { PLAN_NAMES, PLANS } from "../../plans/plans.ts";
import { getUsage } from "../../billing/usage.ts";
import { requireTenant } from "../../tenants/find-tenant.ts";
import { idOf, isoTime } from "../response-schemas.ts";

const planText = t.String({ enum: [...PLAN_NAMES], examples: ["starter"] });
const subscriptionSchema = t.Object({
  tenant_id: idOf("ten"),
  plan: planText,
  monthly_messages: t.Nullable(t.Integer(), { description: "The plan's monthly message quota; null = unlimited." }),
  plans: t.Array(t.Object({ plan: planText, monthly_messages: t.Nullable(t.Integer()) })),
});

export const BillingModel = {
  tenantQuery: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  subscriptionBody: strictObject({
    plan: t.Union(
      PLAN_NAMES.map((plan) => t.Literal(plan)),
      { description: "The new plan.", examples: ["pro"] },
    ),
  }),
  subscriptionView: subscriptionSchema,
  changeResponse: t.Composite([
    subscriptionSchema,
    t.Object({
      from_plan: planText,
      change: t.String({
        enum: ["upgrade", "downgrade", "cancellation", "none"],
        description: "What subscription.changed reports.",
      }),
    }),
  ]),
  usageResponse: t.Object({
    tenant_id: idOf("ten"),
    plan: planText,
    period: t.String({ description: "The UTC month counted.", examples: ["2026-01"] }),
    used: t.Integer({ description: "Chat messages this period." }),
    quota: t.Nullable(t.Integer(), { description: "null = unlimited." }),
    percent: t.Nullable(t.Number()),
    remaining: t.Nullable(t.Integer()),
    resets_at: isoTime(),
    ai: t.Object({
      calls: t.Integer(),
      prompt_tokens: t.Integer(),
      completion_tokens: t.Integer(),
      token_cap: t.Nullable(t.Integer()),
    }),
    visitor_refused: t.Integer({ description: "Anonymous visitor messages and sessions refused this period." }),
  }),
} as const;

async function subscriptionView(deps: AppDeps, tenantId: string) {
  const tenant = await requireTenant(deps, tenantId);
  return {
    tenant_id: tenant.id,
    plan: tenant.plan,
    monthly_messages: PLANS[tenant.plan].monthlyMessages,
    plans: PLAN_NAMES.map((name) => ({ plan: name, monthly_messages: PLANS[name].monthlyMessages })),
  };
}

export function billingRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .get(
      "/subscription",
      ({ principal, query }) => subscriptionView(deps, tenantOf(principal, query.tenant_id, ["owner"])),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: BillingModel.tenantQuery,
        detail: {
          summary: "Read the subscription",
          description:
            "The tenant's plan, its monthly quota and the plans on offer. The API key, or the owner's Bearer token.",
        },
        response: { 200: BillingModel.subscriptionView },
      },
    )
    .put(
      "/subscription",
      async ({ principal, query, body }) => {
        const tenantId = tenantOf(principal, query.tenant_id, ["owner"]);
        const result = await changePlan(deps, tenantId, body.plan);
        return { ...(await subscriptionView(deps, tenantId)), from_plan: result.fromPlan, change: result.change };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        query: BillingModel.tenantQuery,
        body: BillingModel.subscriptionBody,
        detail: {
          summary: "Change the plan",
          description: "Emits subscription.changed (upgrade, downgrade or cancellation) to the tenant's rules.",
        },
        response: { 200: BillingModel.changeResponse },
      },
    )
    .get(
      "/usage",
      async ({ principal, query }) => {
        const tenant = await requireTenant(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES));
        return { tenant_id: tenant.id, ...(await getUsage(deps, tenant.id, tenant.plan)) };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        query: BillingModel.tenantQuery,
        detail: {
          summary: "Read this month's usage",
          description:
            "Messages used against the quota (quota.threshold_reached fires at 80 %), the assistant's token use and refused visitor traffic.",
        },
        response: { 200: BillingModel.usageResponse },
      },
    );
}
