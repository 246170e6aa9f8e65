import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, pageFields, strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { getDelivery, listDeliveries } from "../../webhooks/deliveries.ts";
import { listDeadLetters, retriggerDeadLetters, retriggerMatchingDeadLetters } from "../../webhooks/dead-letters.ts";
import { DELIVERY_STATUSES } from "../../db/schema.ts";
import { EVENT_NAMES } from "../../webhooks/events.ts";
import { invalidField } from "../../lib/validate.ts";
import { parseIsoTime } from "../../lib/clock.ts";
import { describeDeliveries, STATS_DAYS, summarizeDailyDeliveries, summarizeRuleDeliveries } from "../../webhooks/delivery-stats.ts";
import { discardDeadLetter } from "../../webhooks/discard-dead-letter.ts";
import type { Page } from "../../lib/page.ts";

const eventName = t.Union(EVENT_NAMES.map((name) => t.Literal(name)));

export const DeliveryModel = {
  listQuery: strictObject({
    ...pageFields,
    status: t.Optional(t.Union(DELIVERY_STATUSES.map((status) => t.Literal(status)))),
    event: t.Optional(eventName),
    rule_id: t.Optional(t.String({ maxLength: 64 })),
  }),
  deadLetterQuery: strictObject({ ...pageFields, event: t.Optional(eventName), since: t.Optional(t.String({ maxLength: 40 })) }),
  bulkRetriggerBody: strictObject({ event: t.Optional(eventName), since: t.Optional(t.String({ maxLength: 40 })) }),
} as const;

/** Adds each row's URL and its attempts across every cycle (the admin page shows both). */
async function withDetails<T extends { webhook_id: string }>(deps: AppDeps, tenantId: string, page: Page<T>): Promise<Page<T & { url: string; total_attempts: number }>> {
  const details = await describeDeliveries(deps, tenantId, page.data.map((row) => row.webhook_id));
  return { ...page, data: page.data.map((row) => ({ url: "", total_attempts: 0, ...row, ...details.get(row.webhook_id) })) };
}

const seconds = (ms: number) => ms / 1000;

/** An ISO 8601 time, or a 422 naming the field. */
function parseSince(since: string | undefined): number | undefined {
  if (since === undefined) return undefined;
  const ms = parseIsoTime(since);
  if (ms === null) throw invalidField("since", "must be an ISO 8601 time such as 2026-01-15T09:00:00Z");
  return ms;
}

export function webhookDeliveryRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1/webhooks" })
    .use(securityPlugin(deps))
    .get(
      "/deliveries",
      async ({ principal, query }) =>
        withDetails(
          deps,
          tenantOf(principal),
          await listDeliveries(deps, tenantOf(principal), { status: query.status, event: query.event, ruleId: query.rule_id }, { limit: query.limit ?? 50, cursor: query.cursor }),
        ),
      { apiKey: true, rateLimit: "management", query: DeliveryModel.listQuery },
    )
    .get("/deliveries/:webhook_id", ({ principal, params }) => getDelivery(deps, tenantOf(principal), params.webhook_id), {
      apiKey: true,
      rateLimit: "management",
      params: t.Object({ webhook_id: t.String({ maxLength: 64 }) }),
    })
    .get(
      "/dead-letters",
      async ({ principal, query }) =>
        withDetails(
          deps,
          tenantOf(principal),
          await listDeadLetters(deps, { tenantId: tenantOf(principal), event: query.event, sinceMs: parseSince(query.since) }, { limit: query.limit ?? 50, cursor: query.cursor }),
        ),
      { apiKey: true, rateLimit: "management", query: DeliveryModel.deadLetterQuery },
    )
    .post("/dead-letters/retrigger", ({ principal, body }) => retriggerMatchingDeadLetters(deps, { tenantId: tenantOf(principal), event: body.event, sinceMs: parseSince(body.since) }), {
      apiKey: true,
      rateLimit: "management",
      body: DeliveryModel.bulkRetriggerBody,
    })
    .post("/dead-letters/:id/retrigger", ({ principal, params }) => retriggerDeadLetters(deps, tenantOf(principal), [params.id]), {
      apiKey: true,
      rateLimit: "management",
      params: idParams,
    })
    .delete("/dead-letters/:id", ({ principal, params }) => discardDeadLetter(deps, tenantOf(principal), params.id), {
      apiKey: true,
      rateLimit: "management",
      params: idParams,
    })
    .get(
      "/stats",
      async ({ principal }) => ({
        days: STATS_DAYS,
        rules: await summarizeRuleDeliveries(deps, tenantOf(principal)),
        daily: await summarizeDailyDeliveries(deps, tenantOf(principal)),
      }),
      { apiKey: true, rateLimit: "management" },
    )
    .get(
      "/retry-policy",
      () => ({
        attempts_per_cycle: deps.config.retryDelaysMs.length + 1,
        retry_delays_s: deps.config.retryDelaysMs.map(seconds),
        delivery_timeout_s: seconds(deps.config.deliveryTimeoutMs),
        dead_letter_retention_s: seconds(deps.config.dlqRetentionMs),
        event_retention_s: seconds(deps.config.eventRetentionMs),
      }),
      { apiKey: true, rateLimit: "management" },
    );
}
