import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { strictObject } from "../schema.ts";
import { securityPlugin } from "../plugins/security.ts";
import { allowOrigin, preflightResponse } from "../plugins/cors.ts";
import { clientIp } from "../plugins/client-ip.ts";
import { admitVisitorSession } from "../plugins/visitor-limits.ts";
import { VISITOR_TOKEN_TTL_S, WIDGET_AUDIENCE } from "../plugins/tokens.ts";
import { getBotConfig } from "../../chat/bot-settings.ts";
import { openWidgetSession, requireTenantForOrigin } from "../../chat/open-widget-session.ts";
import { widgetWelcome } from "../../chat/engine/starter-quick-replies.ts";
import { expectedReplyMs } from "../../frontdesk/reply-time.ts";

const VISITOR_LANG = t.String({
  maxLength: 35,
  description:
    "The visitor's language (`pt`, `pt-BR`, `es`…): the greeting and starters come in it when the bot speaks it.",
});
import { teamAvailability } from "../../chat/engine/team-hours.ts";
import { pageUrlOf } from "../../frontdesk/page-url.ts";

export const WidgetModel = {
  sessionBody: strictObject({
    tenant_id: t.String({ minLength: 1, maxLength: 64 }),
    lang: t.Optional(VISITOR_LANG),
    page_url: t.Optional(
      t.String({
        maxLength: 2048,
        description:
          "The page the chat starts on (http or https), shown to operators in the inbox; without it, the Referer header.",
      }),
    ),
  }),
  configQuery: strictObject({ tenant_id: t.String({ minLength: 1, maxLength: 64 }), lang: t.Optional(VISITOR_LANG) }),
  sessionResponse: t.Object({
    access_token: t.String({
      description: "A visitor token for this tenant and session only (Authorization: Bearer).",
    }),
    token_type: t.Literal("Bearer"),
    expires_in: t.Number({ description: "Seconds." }),
    session_id: t.String({ examples: ["ses_01jz4k8m2q9wz7xr3t5v6b8c0d"] }),
    tenant_id: t.String(),
    bot_name: t.String(),
    greeting: t.String(),
    quick_replies: t.Optional(t.Array(t.String(), { description: "Starter quick replies shown with the greeting." })),
  }),
  configResponse: t.Object({
    tenant_id: t.String(),
    bot_name: t.String(),
    greeting: t.String(),
    quick_replies: t.Array(t.String()),
    back_at: t.Nullable(
      t.String({
        format: "date-time",
        description:
          "Outside business hours, when the team is back (the widget says so after a hand-off); null while it is in.",
      }),
    ),
    expected_reply_s: t.Nullable(
      t.Number({
        description:
          "Within business hours, how long a person usually takes to first reply after a hand-off (median of the last 30 days, seconds); null out of hours or with fewer than 5 answered hand-offs.",
      }),
    ),
  }),
} as const;

/** The widget's entry point: a visitor token for one tenant and one new session. */
export function widgetRoutes(deps: AppDeps) {
  return (
    new Elysia({ prefix: "/api/v1/widget" })
      .use(securityPlugin(deps))
      .options("/session", ({ request }) => preflightResponse(deps, request))
      // Asked before the launcher is drawn: a refused origin gets no launcher at all, and no
      // session is started (nor visitor allowance spent) by a page view. Counted with the
      // widget's telemetry, not the chat group: every page view asks, and browsing a site must
      // not use up a visitor's chat allowance.
      .get(
        "/config",
        async ({ query, request, set }) => {
          const origin = request.headers.get("origin");
          const tenant = await requireTenantForOrigin(deps, query.tenant_id, origin);
          allowOrigin(set.headers, origin);
          const config = await getBotConfig(deps, tenant.id);
          const welcome = widgetWelcome(config, query.lang);
          const { backAt } = teamAvailability(config, deps.clock.now());
          // Only while the team is in: out of hours the widget says when it is back instead.
          const replyMs = backAt === null ? await expectedReplyMs(deps, tenant.id) : null;
          return {
            tenant_id: tenant.id,
            bot_name: config.bot_name,
            greeting: welcome.greeting,
            quick_replies: welcome.quickReplies,
            back_at: backAt === null ? null : new Date(backAt).toISOString(),
            expected_reply_s: replyMs === null ? null : Math.round(replyMs / 1000),
          };
        },
        {
          rateLimit: "analytics",
          query: WidgetModel.configQuery,
          response: { 200: WidgetModel.configResponse },
          detail: {
            summary: "Widget configuration",
            description:
              "Bot name, greeting and starter quick replies, if this page's Origin may use the tenant's widget (403 otherwise); starts no session.",
          },
        },
      )
      .post(
        "/session",
        async ({ body, request, server, set }) => {
          const origin = request.headers.get("origin");
          const { tenant, session, config } = await openWidgetSession(deps, {
            tenantId: body.tenant_id,
            origin,
            pageUrl: pageUrlOf(body.page_url, request.headers.get("referer")),
            admit: async (tenantId) => {
              allowOrigin(set.headers, origin);
              await admitVisitorSession(deps, tenantId, () => clientIp(request, server, deps.config.trustProxy));
            },
          });
          set.status = 201;
          const welcome = widgetWelcome(config, body.lang);
          return {
            access_token: await deps.tokens.signAccess(
              { sub: session.id, tid: tenant.id },
              WIDGET_AUDIENCE,
              VISITOR_TOKEN_TTL_S,
            ),
            token_type: "Bearer",
            expires_in: VISITOR_TOKEN_TTL_S,
            session_id: session.id,
            tenant_id: tenant.id,
            bot_name: config.bot_name,
            greeting: welcome.greeting,
            quick_replies: welcome.quickReplies,
          };
        },
        {
          rateLimit: "chat",
          body: WidgetModel.sessionBody,
          detail: {
            summary: "Start a widget session",
            description:
              "A visitor token scoped to one tenant and one new session. The Origin header must be in the tenant's allowed origins (empty list = any). 201.",
          },
          response: { 201: WidgetModel.sessionResponse },
        },
      )
  );
}
