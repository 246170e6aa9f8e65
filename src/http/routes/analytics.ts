import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { checkVisitorAccess, preflightResponse } from "../plugins/cors.ts";
import { requireTenant } from "../../tenants/find-tenant.ts";
import { MAX_EVENTS_PER_REQUEST, recordAnalyticsEvents } from "../../analytics/record-events.ts";
import { summarizeAnalytics } from "../../analytics/summary.ts";
import { idOf } from "../response-schemas.ts";

const dayCounts = {
  conversations: t.Integer({ description: "Sessions with at least one message." }),
  leads: t.Integer(),
  appointments: t.Integer(),
  handoffs: t.Integer(),
  widget: t.Record(t.String(), t.Integer(), { description: "Widget telemetry counts by event name." }),
  lead_conversion: t.Nullable(t.Number(), { description: "leads ÷ conversations; null without conversations." }),
  appointment_conversion: t.Nullable(t.Number()),
};

export const AnalyticsModel = {
  eventsBody: strictObject({
    tenant_id: t.Optional(t.String({ maxLength: 64 })),
    events: t.Array(
      strictObject({
        name: t.String({
          maxLength: 40,
          description: "widget_loaded, widget_opened, widget_closed, message_sent or quick_reply_clicked.",
          examples: ["widget_opened"],
        }),
        at: t.Optional(t.String({ maxLength: 40 })),
      }),
      { minItems: 1, maxItems: MAX_EVENTS_PER_REQUEST },
    ),
  }),
  summaryQuery: strictObject({
    tenant_id: t.Optional(t.String({ maxLength: 64 })),
    from: t.Optional(
      t.String({ maxLength: 10, description: "First UTC day (default: 29 days before to).", examples: ["2026-01-01"] }),
    ),
    to: t.Optional(
      t.String({ maxLength: 10, description: "Last UTC day, inclusive (default: today).", examples: ["2026-01-30"] }),
    ),
  }),
  eventsResponse: t.Object({ accepted: t.Integer({ description: "Events stored." }) }),
  summaryResponse: t.Object({
    tenant_id: idOf("ten"),
    from: t.String({ format: "date" }),
    to: t.String({ format: "date" }),
    days: t.Array(t.Object({ day: t.String({ format: "date" }), ...dayCounts })),
    totals: t.Object(dayCounts),
  }),
} as const;

/** Widget telemetry in (visitor or member token), per-day counts and conversion out (API key or member). */
export function analyticsRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1/analytics" })
    .use(securityPlugin(deps))
    .options("/events", ({ request }) => preflightResponse(deps, request))
    .post(
      "/events",
      async ({ principal, body, request, set }) => {
        const tenant = await requireTenant(deps, tenantOf(principal, body.tenant_id));
        checkVisitorAccess(tenant, principal, request, set.headers, undefined);
        set.status = 202;
        return recordAnalyticsEvents(deps, {
          tenantId: tenant.id,
          sessionId: principal.kind === "visitor" ? principal.sessionId : null,
          events: body.events,
        });
      },
      {
        chatAccess: true,
        rateLimit: "analytics",
        body: AnalyticsModel.eventsBody,
        detail: {
          summary: "Record widget telemetry",
          description:
            "The widget's own events (opened, message sent, quick reply used …), up to a batch per request. 202.",
        },
        response: { 202: AnalyticsModel.eventsResponse },
      },
    )
    .get(
      "/summary",
      ({ principal, query }) =>
        summarizeAnalytics(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), {
          from: query.from,
          to: query.to,
        }),
      {
        tenantAccess: true,
        rateLimit: "analytics",
        query: AnalyticsModel.summaryQuery,
        detail: {
          summary: "Analytics summary",
          description:
            "Per UTC day from..to (default the last 30): conversations, leads, appointments, hand-offs, widget telemetry and conversion rates, with totals.",
        },
        response: { 200: AnalyticsModel.summaryResponse },
      },
    );
}
