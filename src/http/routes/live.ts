import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { checkVisitorAccess, preflightResponse } from "../plugins/cors.ts";
import { createLiveStreams, lastEventId } from "../live-stream.ts";
import { requireTenant } from "../../tenants/find-tenant.ts";
import { requireSession } from "../../chat/sessions.ts";
import { recordOperatorTyping } from "../../frontdesk/typing.ts";
import { LIVE_EVENT_KINDS } from "../../frontdesk/live-events.ts";

const streamQuery = strictObject({
  tenant_id: t.Optional(t.String({ maxLength: 64 })),
  last_event_id: t.Optional(
    t.String({ maxLength: 20, description: "For clients that cannot send the Last-Event-ID header." }),
  ),
});
const streamResponse = t.String({
  description: `text/event-stream: \`id:\` (send it back as Last-Event-ID to resume), \`event:\` one of ${LIVE_EVENT_KINDS.join(", ")}, \`data:\` a JSON object with session_id.`,
});

export const LiveModel = { streamQuery, streamResponse } as const;

/** The front desk's live streams: the operators' inbox and the visitor's chat. */
export function liveRoutes(deps: AppDeps) {
  const streams = createLiveStreams(deps.liveHub);
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .get(
      "/inbox/stream",
      ({ principal, query, request }) =>
        streams.respond({ tenantId: tenantOf(principal, query.tenant_id) }, lastEventId(request, query.last_event_id)),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: LiveModel.streamQuery,
        detail: {
          summary: "The inbox, live",
          description:
            "Server-sent events for the tenant's operators: handoff.requested, visitor.message (in a chat waiting for a person), operator.message, session.closed. Resume with Last-Event-ID; events are kept an hour. Any member.",
        },
        response: { 200: LiveModel.streamResponse },
      },
    )
    .options("/chatbot/sessions/:id/stream", ({ request }) => preflightResponse(deps, request))
    .get(
      "/chatbot/sessions/:id/stream",
      async ({ principal, params, query, request, set }) => {
        const tenant = await requireTenant(deps, tenantOf(principal, query.tenant_id));
        checkVisitorAccess(tenant, principal, request, set.headers, params.id);
        await requireSession(deps.store, tenant.id, params.id);
        return streams.respond(
          { tenantId: tenant.id, sessionId: params.id },
          lastEventId(request, query.last_event_id),
          set.headers,
        );
      },
      {
        anyAccess: true,
        rateLimit: "chat",
        params: idParams,
        query: LiveModel.streamQuery,
        detail: {
          summary: "A chat, live",
          description:
            "Server-sent events for the visitor's widget: operator.message (with author_name), operator.typing, operator.seen (a person opened the chat after the visitor's message_id), session.closed. Resume with Last-Event-ID. The visitor token of the session, or a member's.",
        },
        response: { 200: LiveModel.streamResponse },
      },
    )
    .post(
      "/sessions/:id/typing",
      async ({ principal, params, query }) => {
        await recordOperatorTyping(
          deps,
          tenantOf(principal, query.tenant_id),
          params.id,
          principal.kind === "user" ? principal.userId : undefined,
        );
        return { ok: true as const };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        query: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
        detail: {
          summary: "Say an operator is typing",
          description:
            "The visitor's widget shows the operator typing for a few seconds; send again while typing continues (the page does every 3 s at most).",
        },
        response: { 200: t.Object({ ok: t.Literal(true) }) },
      },
    );
}
