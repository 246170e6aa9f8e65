import { t } from "elysia";
import { pageFields, strictObject } from "../schema.ts";
import { DELIVERY_STATUSES } from "../../db/schema.ts";
import { EVENT_NAMES } from "../../webhooks/events.ts";
import { enumText, idOf, isoTime, nullableIsoTime, nullableString, pageOf } from "../response-schemas.ts";

// The request and response schemas of the delivery log and dead-letter routes (webhook-deliveries.ts).

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
