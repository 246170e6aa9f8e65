import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { checkVisitorAccess, preflightResponse } from "../plugins/cors.ts";
import { requireTenant } from "../../tenants/find-tenant.ts";
import { MAX_EVENTS_PER_REQUEST, recordAnalyticsEvents } from "../../analytics/record-events.ts";
import { summarizeAnalytics } from "../../analytics/summary.ts";

export const AnalyticsModel = {
  eventsBody: strictObject({
    tenant_id: t.Optional(t.String({ maxLength: 64 })),
    events: t.Array(strictObject({ name: t.String({ maxLength: 40 }), at: t.Optional(t.String({ maxLength: 40 })) }), { minItems: 1, maxItems: MAX_EVENTS_PER_REQUEST }),
  }),
  summaryQuery: strictObject({
    tenant_id: t.Optional(t.String({ maxLength: 64 })),
    from: t.Optional(t.String({ maxLength: 10 })),
    to: t.Optional(t.String({ maxLength: 10 })),
  }),
} as const;

/** Widget telemetry in (visitor or member token), per-day counts and conversion out (API key or member). */
export function analyticsRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1/analytics" })
    .use(securityPlugin(deps))
    .options("/events", ({ request }) => preflightResponse(deps, request))
    .post(
      "/events",
      ({ principal, body, request, set }) => {
        const tenant = requireTenant(deps, tenantOf(principal, body.tenant_id));
        checkVisitorAccess(tenant, principal, request, set.headers, undefined);
        set.status = 202;
        return recordAnalyticsEvents(deps, { tenantId: tenant.id, sessionId: principal.kind === "visitor" ? principal.sessionId : null, events: body.events });
      },
      { chatAccess: true, rateLimit: "analytics", body: AnalyticsModel.eventsBody },
    )
    .get("/summary", ({ principal, query }) => summarizeAnalytics(deps, tenantOf(principal, query.tenant_id), { from: query.from, to: query.to }), {
      tenantAccess: true,
      rateLimit: "analytics",
      query: AnalyticsModel.summaryQuery,
    });
}
