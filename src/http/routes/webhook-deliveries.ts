import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, pageFields, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { getDelivery, listDeliveries } from "../../webhooks/deliveries.ts";
import { listDeadLetters, retriggerDeadLetters, retriggerMatchingDeadLetters } from "../../webhooks/dead-letters.ts";
import { DELIVERY_STATUSES } from "../../db/schema.ts";
import { EVENT_NAMES } from "../../webhooks/events.ts";
import { invalidField } from "../../lib/validate.ts";
import { parseIsoTime } from "../../lib/clock.ts";
import {
  describeDeliveries,
  STATS_DAYS,
  summarizeDailyDeliveries,
  summarizeRuleDeliveries,
} from "../../webhooks/delivery-stats.ts";
import { discardDeadLetter } from "../../webhooks/discard-dead-letter.ts";
import type { Page } from "../../lib/page.ts";
import { enumText, idOf, isoTime, nullableIsoTime, nullableString, pageOf } from "../response-schemas.ts";

const eventName = t.Union(EVENT_NAMES.map((name) => t.Literal(name)));
const eventText = enumText(EVENT_NAMES, { examples: ["lead.created"] });

const deliveryView = t.Object({
  webhook_id: idOf("wh", "Stays the same on every retry and re-trigger: receivers dedupe on it."),
  event: eventText,
  event_id: idOf("evt"),
  rule_id: t.Nullable(idOf("rule"), { description: "null once the rule was deleted." }),
  url: t.String(),
  status: enumText(DELIVERY_STATUSES),
  attempts: t.Integer({ description: "Attempts in the current cycle (1–4)." }),
  total_attempts: t.Optional(t.Integer({ description: "Attempts across every cycle (list views)." })),
  cycle: t.Integer(),
  next_attempt_at: nullableIsoTime(),
  last_status_code: t.Nullable(t.Integer()),
  last_error: nullableString(),
  created_at: isoTime(),
  completed_at: nullableIsoTime(),
  ordered: t.Boolean({
    description: "In an ordered stream: its rule's ordering is per_session and the event has a session.",
  }),
  waiting: t.Nullable(
    t.Object({
      waits_for: idOf("wh", "The delivery of the same stream this one is sent after."),
      reason: t.String({ examples: ["waits for wh_01jz4kc0a2b4d6f8h0k2m4p6r8 (retrying)"] }),
    }),
    { description: "Status waiting: the earlier delivery of its stream it waits for, and what that one is doing." },
  ),
});

const deadLetterView = t.Object({
  dead_letter_id: idOf("dlq"),
  webhook_id: idOf("wh"),
  tenant_id: idOf("ten"),
  rule_id: t.Nullable(idOf("rule")),
  event: eventText,
  attempts: t.Integer(),
  last_status_code: t.Nullable(t.Integer()),
  last_error: nullableString(),
  url: t.Optional(t.String()),
  total_attempts: t.Optional(t.Integer()),
  dead_at: isoTime(),
  expires_at: isoTime("When the sweeper deletes it (dead_at + retention, 7 days by default)."),
});

export const DeliveryModel = {
  listQuery: strictObject({
    ...pageFields,
    status: t.Optional(t.Union(DELIVERY_STATUSES.map((status) => t.Literal(status)))),
    event: t.Optional(eventName),
    rule_id: t.Optional(t.String({ maxLength: 64 })),
  }),
  deadLetterQuery: strictObject({
    ...pageFields,
    event: t.Optional(eventName),
    since: t.Optional(t.String({ maxLength: 40 })),
  }),
  bulkRetriggerBody: strictObject({
    event: t.Optional(eventName),
    since: t.Optional(
      t.String({
        maxLength: 40,
        description: "Only dead letters that died at or after this ISO 8601 time.",
        examples: ["2026-01-15T09:00:00Z"],
      }),
    ),
  }),
  deliveryPage: pageOf(deliveryView),
  deliveryDetail: t.Composite([
    deliveryView,
    t.Object({
      attempt_log: t.Array(
        t.Object({
          cycle: t.Integer({ minimum: 1, description: "1, then one more per re-trigger." }),
          attempt: t.Integer({ minimum: 1, maximum: 4 }),
          started_at: isoTime(),
          duration_ms: t.Number(),
          ok: t.Boolean(),
          status_code: t.Nullable(t.Integer()),
          error: nullableString("timeout, connection_error, redirect_refused, http_<status> …"),
          response_excerpt: nullableString("The first 1 KiB of the receiver's answer."),
          request: t.Nullable(
            t.Object({
              headers: t.Record(t.String(), t.String(), { description: "Every header sent, signatures included." }),
              body: t.String({ description: "The body sent, byte for byte." }),
            }),
            { description: "The request this attempt sent; null for attempts logged before requests were kept." },
          ),
        }),
      ),
    }),
  ]),
  deadLetterPage: pageOf(deadLetterView),
  retriggerResponse: t.Object({
    retriggered: t.Array(t.Object({ dead_letter_id: idOf("dlq"), webhook_id: idOf("wh") }), {
      description: "Each moved back to a fresh 4-attempt cycle, same webhook_id.",
    }),
  }),
  discardResponse: t.Object({ dead_letter_id: idOf("dlq"), webhook_id: idOf("wh") }),
  statsResponse: t.Object({
    days: t.Integer({ description: "The window of the daily series, in days." }),
    rules: t.Array(
      t.Object({
        rule_id: idOf("rule"),
        deliveries: t.Integer(),
        succeeded: t.Integer(),
        dead: t.Integer(),
        success_rate: t.Nullable(t.Number({ minimum: 0, maximum: 1 })),
        last_status: t.String(),
        last_status_code: t.Nullable(t.Integer()),
        last_at: isoTime(),
      }),
    ),
    daily: t.Array(
      t.Object({
        day: t.String({ format: "date" }),
        deliveries: t.Integer(),
        succeeded: t.Integer(),
        dead: t.Integer(),
        success_rate: t.Nullable(t.Number()),
      }),
    ),
  }),
  retryPolicyResponse: t.Object({
    attempts_per_cycle: t.Integer({ examples: [4] }),
    retry_delays_s: t.Array(t.Number(), { examples: [[30, 300, 1800]] }),
    delivery_timeout_s: t.Number({ examples: [10] }),
    dead_letter_retention_s: t.Number({ examples: [604800] }),
    event_retention_s: t.Number(),
  }),
} as const;

/** Adds each row's URL and its attempts across every cycle (the admin page shows both). */
async function withDetails<T extends { webhook_id: string }>(
  deps: AppDeps,
  tenantId: string,
  page: Page<T>,
): Promise<Page<T & { url: string; total_attempts: number }>> {
  const details = await describeDeliveries(
    deps,
    tenantId,
    page.data.map((row) => row.webhook_id),
  );
  return {
    ...page,
    data: page.data.map((row) => ({ url: "", total_attempts: 0, ...row, ...details.get(row.webhook_id) })),
  };
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
