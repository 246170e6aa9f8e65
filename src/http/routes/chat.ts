import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { checkVisitorAccess, preflightResponse } from "../plugins/cors.ts";
import { clientIp } from "../plugins/client-ip.ts";
import { admitVisitorMessage } from "../plugins/visitor-limits.ts";
import { requireTenant } from "../../tenants/find-tenant.ts";
import { handleMessage, MESSAGE_MAX_LENGTH } from "../../chat/handle-message.ts";
import { listMessages } from "../../chat/sessions.ts";
import { getBotConfig, updateBotConfig } from "../../chat/bot-settings.ts";
import { botConfigView } from "../../assistant/ai-config.ts";
import { checkAiBaseUrl } from "../../assistant/check-base-url.ts";
import { streamMessageReply, wantsEventStream } from "../../assistant/stream-reply.ts";
import { testAiConnection } from "../../assistant/test-connection.ts";

export const ChatModel = {
  messageBody: strictObject({
    tenant_id: t.String({ minLength: 1, maxLength: 64 }),
    message: t.String({ minLength: 1, maxLength: MESSAGE_MAX_LENGTH }),
    session_id: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  }),
  // The plain JSON answer, and the `data` of the stream's `done` event (Accept: text/event-stream).
  messageResponse: t.Object({
    session_id: t.String(),
    message_id: t.String(),
    reply: t.Union([
      t.Null(),
      t.Object({
        message_id: t.String(),
        text: t.String(),
        quick_replies: t.Optional(t.Array(t.String())),
        // Assistant replies: the knowledge documents the model was given.
        sources: t.Optional(t.Array(t.Object({ document_id: t.String(), title: t.String(), url: t.Optional(t.String()) }))),
      }),
    ]),
    status: t.Union([t.Literal("bot"), t.Literal("handoff"), t.Literal("closed")]),
  }),
  transcriptQuery: strictObject({ after: t.Optional(t.String({ maxLength: 64 })) }),
  tenantQuery: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  // The config document is validated key by key by the chat domain (validateBotConfigPatch).
  configPatch: t.Record(t.String(), t.Unknown()),
} as const;

export function chatRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1/chatbot" })
    .use(securityPlugin(deps))
    .options("/message", ({ request }) => preflightResponse(deps, request))
    .options("/sessions/:id/messages", ({ request }) => preflightResponse(deps, request))
    .post(
      "/message",
      ({ principal, body, request, server, set }) => {
        const tenant = requireTenant(deps, tenantOf(principal, body.tenant_id));
        checkVisitorAccess(tenant, principal, request, set.headers, body.session_id);
        if (principal.kind === "visitor") admitVisitorMessage(deps, tenant, clientIp(request, server, deps.config.trustProxy));
        const sessionId = principal.kind === "visitor" ? principal.sessionId : body.session_id;
        const input = { tenant, sessionId, text: body.message, channel: principal.kind === "visitor" ? "widget" : "api" } as const;
        if (!wantsEventStream(request.headers.get("accept"))) return handleMessage(deps, input);
        return streamMessageReply((onDelta) => handleMessage(deps, input, { onDelta }), deps.log);
      },
      { chatAccess: true, rateLimit: "chat", body: ChatModel.messageBody, response: { 200: ChatModel.messageResponse } },
    )
    .get(
      "/sessions/:id/messages",
      ({ principal, params, query, request, set }) => {
        const tenant = requireTenant(deps, tenantOf(principal));
        checkVisitorAccess(tenant, principal, request, set.headers, params.id);
        return listMessages(deps, tenant.id, params.id, query.after);
      },
      { anyAccess: true, rateLimit: "chat", params: idParams, query: ChatModel.transcriptQuery },
    )
    .get("/config", ({ principal, query }) => botConfigView(getBotConfig(deps, tenantOf(principal, query.tenant_id, ["owner", "admin"]))), {
      tenantAccess: true,
      rateLimit: "management",
      query: ChatModel.tenantQuery,
    })
    .patch(
      "/config",
      async ({ principal, query, body }) => {
        const tenantId = tenantOf(principal, query.tenant_id, ["owner", "admin"]);
        await checkAiBaseUrl(deps, body);
        return botConfigView(updateBotConfig(deps, tenantId, body));
      },
      { tenantAccess: true, rateLimit: "management", query: ChatModel.tenantQuery, body: ChatModel.configPatch },
    )
    .post("/ai/test", ({ principal, query }) => testAiConnection(deps, tenantOf(principal, query.tenant_id, ["owner", "admin"])), {
      tenantAccess: true,
      rateLimit: "management",
      query: ChatModel.tenantQuery,
    });
}
