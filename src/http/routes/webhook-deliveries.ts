import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { getDelivery, listDeliveries } from "../../webhooks/deliveries.ts";
import { listDeadLetters, retriggerDeadLetters, retriggerMatchingDeadLetters } from "../../webhooks/dead-letters.ts";
import { invalidField } from "../../lib/validate.ts";
import { parseIsoTime } from "../../lib/clock.ts";
import {
  type DeliveryDetails,
  STATS_DAYS,
  summarizeDailyDeliveries,
  summarizeRuleDeliveries,
  withDeliveryDetails,
} from "../../webhooks/delivery-stats.ts";
import { discardDeadLetter } from "../../webhooks/discard-dead-letter.ts";
import type { Page } from "../../lib/page.ts";
import { DeliveryModel } from "./webhook-delivery-schemas.ts";

/** Adds each row's URL and its attempts across every cycle (the admin page shows both). */
async function withDetails<T extends { webhook_id: string }>(
  deps: AppDeps,
  tenantId: string,
  page: Page<T>,
): Promise<Page<T & DeliveryDetails>> {
  return { ...page, data: await withDeliveryDetails(deps, page.data, () => tenantId) };
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
          tenantOf(principal, undefined, MANAGER_ROLES),
          await listDeliveries(
            deps,
            tenantOf(principal, undefined, MANAGER_ROLES),
            { status: query.status, event: query.event, ruleId: query.rule_id },
            { limit: query.limit ?? 50, cursor: query.cursor },
          ),
        ),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: DeliveryModel.listQuery,
        detail: {
          summary: "List webhook deliveries",
          description: "Newest first, cursor paged; filter by status, event or rule.",
        },
        response: { 200: DeliveryModel.deliveryPage },
      },
    )
    .get(
      "/deliveries/:webhook_id",
      ({ principal, params }) => getDelivery(deps, tenantOf(principal, undefined, MANAGER_ROLES), params.webhook_id),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: t.Object({ webhook_id: t.String({ maxLength: 64 }) }),
        detail: {
          summary: "Read a delivery with its attempt log",
          description: "Every attempt of every cycle: status code, error, duration and the first 1 KiB of the answer.",
        },
        response: { 200: DeliveryModel.deliveryDetail },
      },
    )
    .get(
      "/dead-letters",
      async ({ principal, query }) =>
        withDetails(
          deps,
          tenantOf(principal, undefined, MANAGER_ROLES),
          await listDeadLetters(
            deps,
            {
              tenantId: tenantOf(principal, undefined, MANAGER_ROLES),
              event: query.event,
              sinceMs: parseSince(query.since),
            },
            { limit: query.limit ?? 50, cursor: query.cursor },
          ),
        ),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: DeliveryModel.deadLetterQuery,
        detail: {
          summary: "List dead letters",
          description:
            "Deliveries whose four attempts all failed, kept for the retention period; filter by event or since.",
        },
        response: { 200: DeliveryModel.deadLetterPage },
      },
    )
    .post(
      "/dead-letters/retrigger",
      ({ principal, body }) =>
        retriggerMatchingDeadLetters(deps, {
          tenantId: tenantOf(principal, undefined, MANAGER_ROLES),
          event: body.event,
          sinceMs: parseSince(body.since),
        }),
      {
        tenantAccess: true,
        rateLimit: "management",
        body: DeliveryModel.bulkRetriggerBody,
        detail: {
          summary: "Re-trigger dead letters in bulk",
          description:
            "Every dead letter matching event and since goes back to a fresh 4-attempt cycle with the same webhook_id.",
        },
        response: { 200: DeliveryModel.retriggerResponse },
      },
    )
    .post(
      "/dead-letters/:id/retrigger",
      ({ principal, params }) => retriggerDeadLetters(deps, tenantOf(principal, undefined, MANAGER_ROLES), [params.id]),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        detail: {
          summary: "Re-trigger one dead letter",
          description:
            "A fresh 4-attempt cycle with the same webhook_id; if it fails again it returns with a new retention.",
        },
        response: { 200: DeliveryModel.retriggerResponse },
      },
    )
    .delete(
      "/dead-letters/:id",
      ({ principal, params }) => discardDeadLetter(deps, tenantOf(principal, undefined, MANAGER_ROLES), params.id),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        detail: { summary: "Discard a dead letter", description: "Deletes it without sending it again." },
        response: { 200: DeliveryModel.discardResponse },
      },
    )
    .get(
      "/stats",
      async ({ principal }) => ({
        days: STATS_DAYS,
        rules: await summarizeRuleDeliveries(deps, tenantOf(principal, undefined, MANAGER_ROLES)),
        daily: await summarizeDailyDeliveries(deps, tenantOf(principal, undefined, MANAGER_ROLES)),
      }),
      {
        tenantAccess: true,
        rateLimit: "management",
        detail: {
          summary: "Delivery statistics",
          description: "Per rule (success rate, last status) and per day over the last 30 days.",
        },
        response: { 200: DeliveryModel.statsResponse },
      },
    )
    .get(
      "/retry-policy",
      ({ principal }) => {
        tenantOf(principal, undefined, MANAGER_ROLES);
        return {
          attempts_per_cycle: deps.config.retryDelaysMs.length + 1,
          retry_delays_s: deps.config.retryDelaysMs.map(seconds),
          delivery_timeout_s: seconds(deps.config.deliveryTimeoutMs),
          dead_letter_retention_s: seconds(deps.config.dlqRetentionMs),
          event_retention_s: seconds(deps.config.eventRetentionMs),
        };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        detail: {
          summary: "The retry policy",
          description:
            "This server's retry delays, delivery timeout and retention (PARLEY_RETRY_DELAYS, PARLEY_DELIVERY_TIMEOUT, PARLEY_DLQ_RETENTION).",
        },
        response: { 200: DeliveryModel.retryPolicyResponse },
      },
    );
}
