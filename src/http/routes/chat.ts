import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, idQueryField, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { checkVisitorAccess, preflightResponse } from "../plugins/cors.ts";
import { clientIp } from "../plugins/client-ip.ts";
import { admitVisitorMessage } from "../plugins/visitor-limits.ts";
import { requireTenant } from "../../tenants/find-tenant.ts";
import { handleMessage, type MessageResult } from "../../chat/handle-message.ts";
import { MESSAGE_MAX_LENGTH } from "../../chat/engine/turn.ts";
import { listMessages } from "../../chat/sessions.ts";
import { markSeenByOperator } from "../../frontdesk/handoff-marks.ts";
import {
  getBotConfig,
  peekTenantWithConfig,
  requireTenantWithConfig,
  updateBotConfig,
} from "../../chat/bot-settings.ts";
import type { BotConfig } from "../../chat/engine/bot-config.ts";
import type { TenantRecord } from "../../tenants/create-tenant.ts";
import { readLookupVersion, StaleLookupError } from "../../tenants/lookup-cache.ts";
import { botConfigView } from "../../chat/engine/ai-config.ts";
import { checkAiBaseUrl } from "../../assistant/check-base-url.ts";
import { wantsEventStream } from "../../assistant/stream-reply.ts";
import { streamMessageReply } from "../event-stream.ts";
import { testAiConnection } from "../../assistant/test-connection.ts";
import { idOf, messageView, nullableString, oneOf } from "../response-schemas.ts";
import { SESSION_STATUSES } from "../../db/schema.ts";
import { dryRunConfigChange } from "../../test-set/dry-run.ts";
import { dryRunQuery, dryRunSchema } from "./chatbot-tests.ts";

const stringList = t.Array(t.String());
const botConfigSchema = t.Object({
  bot_name: t.String({ examples: ["Ava"] }),
  greeting: t.String(),
  sector: t.String({ examples: ["dental"] }),
  language: t.String({
    examples: ["en"],
    description: "The language of the greeting and of FAQ entries that name none: en, pt or es.",
  }),
  languages: t.Array(t.String(), {
    examples: [["en", "pt", "es"]],
    description: 'Languages spoken with visitors, detected per message. Default ["en"].',
  }),
  faq: t.Array(
    t.Object({
      id: t.String(),
      question: t.String(),
      answer: t.String(),
      keywords: t.Optional(stringList),
      language: t.Optional(t.String({ examples: ["pt"] })),
    }),
  ),
  lead: t.Object({
    enabled: t.Boolean(),
    default_country: t.String({ examples: ["GB"] }),
    intent_keywords: stringList,
    require_phone: t.Optional(
      t.Boolean({ description: "false: a visitor may leave name and e-mail only. Absent = true." }),
    ),
  }),
  appointments: t.Object({
    enabled: t.Boolean(),
    timezone: t.String({ examples: ["Europe/London"] }),
    business_hours: t.Record(
      t.String(),
      t.Nullable(t.Object({ open: t.String({ examples: ["09:00"] }), close: t.String({ examples: ["17:30"] }) })),
      { description: "mon … sun; null = closed." },
    ),
    slot_minutes: t.Integer(),
    lead_time_minutes: t.Integer(),
    max_days_ahead: t.Integer(),
    intent_keywords: stringList,
  }),
  handoff: t.Object({
    keywords: stringList,
    low_confidence_threshold: t.Number(),
    max_low_confidence_turns: t.Integer(),
  }),
  allowed_origins: t.Array(t.String(), { description: "Sites whose widget may talk to this tenant; empty = any." }),
  ai: t.Object({
    enabled: t.Boolean(),
    base_url: nullableString("An OpenAI-compatible endpoint; null = the server's."),
    model: nullableString(),
    embedding_model: nullableString(),
    instructions: t.String(),
    temperature: t.Nullable(t.Number()),
    max_reply_tokens: t.Nullable(t.Integer()),
    min_similarity: t.Nullable(
      t.Number({ description: "Cosine at which a passage is relevant by meaning alone; null = 0.5." }),
    ),
    api_key_set: t.Boolean({ description: "The key itself is write-only." }),
  }),
  retention: t.Optional(
    t.Nullable(t.Object({ chat_days: t.Nullable(t.Integer()), analytics_days: t.Nullable(t.Integer()) })),
  ),
  limits: t.Optional(t.Nullable(t.Object({ anonymous_daily_messages: t.Nullable(t.Integer()) }))),
});

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
        sources: t.Optional(
          t.Array(t.Object({ document_id: t.String(), title: t.String(), url: t.Optional(t.String()) })),
        ),
      }),
    ]),
    status: t.Union([t.Literal("bot"), t.Literal("handoff"), t.Literal("closed")]),
  }),
  transcriptQuery: strictObject({ after: t.Optional(idQueryField()) }),
  tenantQuery: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  configPatchQuery: dryRunQuery,
  transcriptResponse: t.Object({
    session_id: idOf("ses"),
    status: oneOf(SESSION_STATUSES),
    seen_message_id: t.Nullable(
      t.String({
        description:
          "The visitor's newest message a person has opened the chat after (the widget's \"Seen\"); null until then.",
      }),
    ),
    data: t.Array(messageView, { description: "Oldest first, at most 500; poll with ?after=<last message_id>." }),
  }),
  // The config document is validated key by key by the chat domain (validateBotConfigPatch).
  configPatch: t.Record(t.String(), t.Unknown(), {
    description: "Any subset of the configuration document; nested objects are merged, arrays replaced.",
  }),
  botConfigView: botConfigSchema,
  dryRunView: t.Composite([dryRunSchema, t.Object({ config: botConfigSchema })]),
  aiTestResponse: t.Object({
    ok: t.Boolean(),
    model: t.Nullable(t.String()),
    latency_ms: t.Number(),
    error: t.Optional(t.String({ description: "The provider's reason when ok is false." })),
  }),
} as const;

export function chatRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1/chatbot" })
    .use(securityPlugin(deps))
    .options("/message", ({ request }) => preflightResponse(deps, request))
    .options("/sessions/:id/messages", ({ request }) => preflightResponse(deps, request))
    .post(
      "/message",
      ({ principal, body, request, server, set }) => {
        const tenantId = tenantOf(principal, body.tenant_id);
        const streaming = wantsEventStream(request.headers.get("accept"));
        let admitted = false;
        const reply = async (lookups: {
          tenant: TenantRecord;
          config: BotConfig;
          version?: string;
        }): Promise<MessageResult | Response> => {
          const { tenant, config } = lookups;
          checkVisitorAccess(tenant, principal, request, set.headers, body.session_id);
          // Counted once, even when the turn runs again below.
          if (principal.kind === "visitor" && !admitted)
            await admitVisitorMessage(deps, tenant, config, () => clientIp(request, server, deps.config.trustProxy));
          admitted = true;
          const sessionId = principal.kind === "visitor" ? principal.sessionId : body.session_id;
          const input = {
            tenant,
            config,
            sessionId,
            text: body.message,
            channel: principal.kind === "visitor" ? "widget" : "api",
            lookupVersion: lookups.version,
          } as const;
          if (!streaming) return handleMessage(deps, input);
          return streamMessageReply((onDelta) => handleMessage(deps, input, { onDelta }), deps.log);
        };
        const exactly = async () => reply(await requireTenantWithConfig(deps, tenantId));
        // The tenant and its config straight from the caches; the turn checks their version
        // inside its write transaction (handleMessage's lookupVersion). If they were stale,
        // or a check refused on them and the version has moved since, all of it runs again on
        // fresh ones. A stream is never started on them: it could not be taken back.
        const cached = streaming ? null : peekTenantWithConfig(deps, tenantId);
        const answer = cached
          ? reply(cached).catch(async (error: unknown) => {
              if (error instanceof StaleLookupError || (await readLookupVersion(deps.store)) !== cached.version)
                return exactly();
              throw error;
            })
          : exactly();
        // Elysia checks the answer against the 200 schema unless it is a Response (the stream).
        return answer as Promise<MessageResult> | Promise<Response>;
      },
      {
        chatAccess: true,
        rateLimit: "chat",
        body: ChatModel.messageBody,
        response: { 200: ChatModel.messageResponse },
        detail: {
          summary: "Send a chat message",
          description:
            "The visitor's (or a member's) message and the bot's reply. With Accept: text/event-stream the reply streams as `delta` events and ends with a `done` event whose data is this same object. A session in hand-off gets no bot reply (reply null) until an operator answers.",
        },
      },
    )
    .get(
      "/sessions/:id/messages",
      async ({ principal, params, query, request, set }) => {
        const tenant = await requireTenant(deps, tenantOf(principal));
        checkVisitorAccess(tenant, principal, request, set.headers, params.id);
        if (principal.kind !== "visitor") await markSeenByOperator(deps, tenant.id, params.id);
        return listMessages(deps, tenant.id, params.id, query.after);
      },
      {
        anyAccess: true,
        rateLimit: "chat",
        params: idParams,
        query: ChatModel.transcriptQuery,
        detail: {
          summary: "Read a transcript",
          description:
            "The session's messages after ?after= (exclusive): the widget's resume and its poll for operator replies. A member reading a handed-off chat marks the visitor's newest message seen.",
        },
        response: { 200: ChatModel.transcriptResponse },
      },
    )
    .get(
      "/config",
      async ({ principal, query }) =>
        botConfigView(await getBotConfig(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES))),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: ChatModel.tenantQuery,
        detail: {
          summary: "Read the bot configuration",
          description:
            "Greeting, FAQ, lead and appointment settings, hand-off keywords, allowed origins, the assistant's model settings. Owner or admin, or the API key.",
        },
        response: { 200: ChatModel.botConfigView },
      },
    )
    .patch(
      "/config",
      async ({ principal, query, body }) => {
        const tenantId = tenantOf(principal, query.tenant_id, MANAGER_ROLES);
        await checkAiBaseUrl(deps, body);
        if (query.dry_run) {
          const { config, ...report } = await dryRunConfigChange(deps, tenantId, body);
          return { ...report, config: botConfigView(config) };
        }
        return botConfigView(await updateBotConfig(deps, tenantId, body));
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        query: ChatModel.configPatchQuery,
        body: ChatModel.configPatch,
        detail: {
          summary: "Update the bot configuration",
          description:
            "Send only what changes; each key is validated (422 naming it). Answers the whole new configuration. With ?dry_run=true nothing is saved: the test set runs against the current and the proposed configuration and both results are answered, with a one-line summary.",
        },
        response: { 200: t.Union([ChatModel.botConfigView, ChatModel.dryRunView]) },
      },
    )
    .post(
      "/ai/test",
      ({ principal, query }) => testAiConnection(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES)),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: ChatModel.tenantQuery,
        detail: {
          summary: "Test the model connection",
          description:
            "One tiny completion with the tenant's effective model settings; a failure is ok: false with the provider's reason, not an HTTP error.",
        },
        response: { 200: ChatModel.aiTestResponse },
      },
    );
}
