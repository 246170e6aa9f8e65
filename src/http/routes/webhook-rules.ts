import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, pageFields, strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { createRule, deleteRule, getRuleRow, listRules, toRuleView, updateRule } from "../../webhooks/rules.ts";
import { enqueueTestDelivery } from "../../webhooks/deliveries.ts";
import { EVENT_CATALOG, EVENT_NAMES } from "../../webhooks/events.ts";

const conditions = strictObject({ min_confidence: t.Optional(t.Number()) });

export const RuleModel = {
  createBody: strictObject({
    name: t.String(),
    event: t.String(),
    url: t.String(),
    secret: t.String(),
    conditions: t.Optional(conditions),
    active: t.Boolean(),
  }),
  patchBody: strictObject({
    name: t.Optional(t.String()),
    event: t.Optional(t.String()),
    url: t.Optional(t.String()),
    secret: t.Optional(t.String()),
    conditions: t.Optional(conditions),
    active: t.Optional(t.Boolean()),
  }),
  createResponse: t.Object({ ok: t.Boolean(), rule_id: t.String(), event: t.String(), active: t.Boolean(), created_at: t.String() }),
  pageQuery: strictObject(pageFields),
} as const;

export function webhookRuleRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1/webhooks" })
    .use(securityPlugin(deps))
    .get("/events", () => ({ data: EVENT_NAMES.map((name) => ({ event: name, ...EVENT_CATALOG[name] })) }), { apiKey: true, rateLimit: "management" })
    .post(
      "/rules-engine/rules",
      async ({ principal, body, set }) => {
        const rule = await createRule(deps, tenantOf(principal), body);
        set.status = 201;
        return { ok: true, rule_id: rule.rule_id, event: rule.event, active: rule.active, created_at: rule.created_at };
      },
      { apiKey: true, rateLimit: "management", body: RuleModel.createBody, response: { 201: RuleModel.createResponse } },
    )
    .get("/rules-engine/rules", ({ principal, query }) => listRules(deps, tenantOf(principal), { limit: query.limit ?? 50, cursor: query.cursor }), {
      apiKey: true,
      rateLimit: "management",
      query: RuleModel.pageQuery,
    })
    .get("/rules-engine/rules/:id", async ({ principal, params }) => toRuleView(await getRuleRow(deps, tenantOf(principal), params.id)), {
      apiKey: true,
      rateLimit: "management",
      params: idParams,
    })
    .patch("/rules-engine/rules/:id", ({ principal, params, body }) => updateRule(deps, tenantOf(principal), params.id, body), {
      apiKey: true,
      rateLimit: "management",
      params: idParams,
      body: RuleModel.patchBody,
    })
    .delete(
      "/rules-engine/rules/:id",
      async ({ principal, params }) => {
        await deleteRule(deps, tenantOf(principal), params.id);
        return { ok: true, rule_id: params.id, deleted: true };
      },
      { apiKey: true, rateLimit: "management", params: idParams },
    )
    .post(
      "/rules-engine/rules/:id/test",
      async ({ principal, params, set }) => {
        const enqueued = await enqueueTestDelivery(deps, tenantOf(principal), params.id);
        set.status = 202;
        return { ok: true, ...enqueued };
      },
      { apiKey: true, rateLimit: "management", params: idParams },
    );
}
