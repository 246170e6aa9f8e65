import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, pageFields, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import {
  createRule,
  deleteRule,
  getRuleRow,
  listRules,
  MAX_RATE_LIMIT_PER_S,
  RULE_ORDERINGS,
  toRuleView,
  updateRule,
} from "../../webhooks/rules.ts";
import { enqueueTestDelivery } from "../../webhooks/deliveries.ts";
import { EVENT_CATALOG, EVENT_NAMES } from "../../webhooks/events.ts";
import { deletedResponse, enumText, idOf, isoTime, nullableIsoTime, oneOf, pageOf } from "../response-schemas.ts";

const conditions = strictObject({
  min_confidence: t.Optional(
    t.Number({
      minimum: 0,
      maximum: 1,
      description: "Only events whose data.confidence is at least this (events without one count as 1).",
      examples: [0.8],
    }),
  ),
});
const eventField = oneOf(EVENT_NAMES, {
  description: "The event this rule delivers (GET /webhooks/events lists them).",
  examples: ["lead.created"],
});
const ruleFields = {
  name: t.String({
    minLength: 1,
    maxLength: 100,
    description: "A label for people (trimmed).",
    examples: ["CRM lead sync"],
  }),
  url: t.String({
    minLength: 1,
    maxLength: 2048,
    description: "http(s) URL receiving the signed POSTs; private and loopback addresses are refused.",
    examples: ["https://crm.example.com/hooks/parley"],
  }),
  secret: t.String({
    minLength: 16,
    maxLength: 256,
    description: "HMAC-SHA256 key of the signatures; write-only, never returned.",
    examples: ["whsec_3f9a1c7e5b2d4a6f8e0c"],
  }),
};
const rateLimit = t.Integer({
  minimum: 1,
  maximum: MAX_RATE_LIMIT_PER_S,
  description:
    "At most this many of the rule's deliveries are sent per second (across every instance); the others wait, they do not fail.",
  examples: [5],
});
const ordering = oneOf(RULE_ORDERINGS, {
  description:
    "per_session: the tenant's per_session rules with the same URL form one ordered stream per chat session; each delivery waits until the one before it succeeded or dead-lettered (docs/webhooks.md, Ordered delivery). Default none.",
  examples: ["per_session"],
});
const eventText = enumText(EVENT_NAMES, { examples: ["lead.created"] });
const ruleView = t.Object({
  rule_id: idOf("rule"),
  name: t.String(),
  event: eventText,
  url: t.String(),
  conditions: t.Object({ min_confidence: t.Optional(t.Number()) }),
  active: t.Boolean(),
  rate_limit_per_s: t.Nullable(t.Integer({ description: "Deliveries per second at most; null = no limit." })),
  ordering: enumText(RULE_ORDERINGS, {
    description: "per_session: delivered in order within each chat session; none: no order.",
  }),
  previous_secret_expires_at: nullableIsoTime(
    "While a secret rotation's overlap lasts: when the replaced secret stops signing.",
  ),
  created_at: isoTime(),
  updated_at: isoTime(),
});

export const RuleModel = {
  createBody: strictObject({
    name: ruleFields.name,
    event: eventField,
    url: ruleFields.url,
    secret: ruleFields.secret,
    conditions: t.Optional(conditions),
    active: t.Optional(
      t.Boolean({ default: true, description: "false: the rule matches nothing until re-activated. Default true." }),
    ),
    rate_limit_per_s: t.Optional(rateLimit),
    ordering: t.Optional(ordering),
  }),
  patchBody: strictObject({
    name: t.Optional(ruleFields.name),
    event: t.Optional(eventField),
    url: t.Optional(ruleFields.url),
    secret: t.Optional(ruleFields.secret),
    conditions: t.Optional(conditions),
    active: t.Optional(t.Boolean()),
    rate_limit_per_s: t.Optional(t.Nullable(rateLimit, { description: "null removes the limit." })),
    ordering: t.Optional(ordering),
  }),
  createResponse: t.Object({
    ok: t.Literal(true),
    rule_id: idOf("rule"),
    event: eventText,
    active: t.Boolean(),
    created_at: isoTime(),
  }),
  ruleView,
  rulePage: pageOf(ruleView),
  eventsResponse: t.Object({
    data: t.Array(
      t.Object({
        event: eventField,
        priority: oneOf(["info", "medium", "high", "critical"]),
        description: t.String(),
        has_confidence: t.Boolean({
          description: "Whether data.confidence is present, so conditions.min_confidence can filter it.",
        }),
        example: t.Record(t.String(), t.Unknown(), { description: "A realistic data object of this event." }),
      }),
    ),
  }),
  deleteResponse: deletedResponse("rule_id", "rule"),
  testResponse: t.Object({
    ok: t.Literal(true),
    webhook_id: idOf("wh", "The queued delivery: follow it at GET /webhooks/deliveries/{webhook_id}."),
    event: eventText,
  }),
  pageQuery: strictObject(pageFields),
} as const;

export function webhookRuleRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1/webhooks" })
    .use(securityPlugin(deps))
    .get(
      "/events",
      ({ principal }) => {
        tenantOf(principal, undefined, MANAGER_ROLES);
        return {
          data: EVENT_NAMES.map((name) => {
            const { priority, description, hasConfidence, example } = EVENT_CATALOG[name];
            return { event: name, priority, description, has_confidence: hasConfidence, example };
          }),
        };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        detail: {
          summary: "List the event catalog",
          description:
            "The nine events a rule can subscribe to, with their priority, whether they carry a confidence, and an example data object.",
        },
        response: { 200: RuleModel.eventsResponse },
      },
    )
    .post(
      "/rules-engine/rules",
      async ({ principal, body, set }) => {
        const rule = await createRule(deps, tenantOf(principal, undefined, MANAGER_ROLES), {
          ...body,
          active: body.active ?? true,
        });
        set.status = 201;
        return { ok: true, rule_id: rule.rule_id, event: rule.event, active: rule.active, created_at: rule.created_at };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        body: RuleModel.createBody,
        response: { 201: RuleModel.createResponse },
        detail: {
          summary: "Create a webhook rule",
          description:
            "Every future event of this tenant named `event` (and passing `conditions`) becomes one signed delivery to `url`. `active` defaults to true. The URL is checked against private addresses; the same event and URL twice is 409 rule_exists; past the plan's rule cap, 402 plan_limit.",
        },
      },
    )
    .get(
      "/rules-engine/rules",
      ({ principal, query }) =>
        listRules(deps, tenantOf(principal, undefined, MANAGER_ROLES), {
          limit: query.limit ?? 50,
          cursor: query.cursor,
        }),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: RuleModel.pageQuery,
        detail: {
          summary: "List webhook rules",
          description: "Oldest first, cursor paged. Secrets are never returned.",
        },
        response: { 200: RuleModel.rulePage },
      },
    )
    .get(
      "/rules-engine/rules/:id",
      async ({ principal, params }) =>
        toRuleView(await getRuleRow(deps, tenantOf(principal, undefined, MANAGER_ROLES), params.id)),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        detail: { summary: "Read a webhook rule", description: "Another tenant's rule is 404." },
        response: { 200: RuleModel.ruleView },
      },
    )
    .patch(
      "/rules-engine/rules/:id",
      ({ principal, params, body }) => updateRule(deps, tenantOf(principal, undefined, MANAGER_ROLES), params.id, body),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        body: RuleModel.patchBody,
        detail: {
          summary: "Update a webhook rule",
          description: "Send only the fields to change; the same checks as at creation apply.",
        },
        response: { 200: RuleModel.ruleView },
      },
    )
    .delete(
      "/rules-engine/rules/:id",
      async ({ principal, params }) => {
        await deleteRule(deps, tenantOf(principal, undefined, MANAGER_ROLES), params.id);
        return { ok: true, rule_id: params.id, deleted: true };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        detail: {
          summary: "Delete a webhook rule",
          description: "Deliveries already queued for it still run; no new ones are created.",
        },
        response: { 200: RuleModel.deleteResponse },
      },
    )
    .post(
      "/rules-engine/rules/:id/test",
      async ({ principal, params, set }) => {
        const enqueued = await enqueueTestDelivery(deps, tenantOf(principal, undefined, MANAGER_ROLES), params.id);
        set.status = 202;
        return { ok: true, ...enqueued };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        detail: {
          summary: "Send a test delivery",
          description:
            'Queues a delivery of the rule\'s event with its example data and `"test": true`; it takes the normal path (signing, retries, dead letter). 202 with its webhook_id.',
        },
        response: { 202: RuleModel.testResponse },
      },
    );
}
