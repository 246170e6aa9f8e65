import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { rawBodyOf } from "../body.ts";
import { strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { hookGate } from "../plugins/hook-gate.ts";
import { answerWhatsappHandshake, handleWhatsappWebhook } from "../../integrations/whatsapp.ts";
import { getWhatsappSettingsStatus, setWhatsappSettings } from "../../integrations/whatsapp-settings.ts";

export const WhatsappHookModel = {
  hookParams: t.Object({ tenant_id: t.String({ maxLength: 64 }) }),
  handshakeQuery: t.Object({
    "hub.mode": t.Optional(t.String({ maxLength: 64 })),
    "hub.verify_token": t.Optional(t.String({ maxLength: 256 })),
    "hub.challenge": t.Optional(t.String({ maxLength: 256 })),
  }),
  hookResponse: t.Object({
    received: t.Literal(true),
    handled: t.Integer(),
    duplicates: t.Integer(),
    ignored: t.Integer(),
  }),
  tenantQuery: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  settingsBody: strictObject({
    verify_token: t.String({
      description: "Any string you also give Meta for the handshake: 8 to 256 characters, no spaces.",
      examples: ["parley-verify-7f3a9c"],
    }),
    app_secret: t.String({
      description: "The Meta app's secret that signs notifications: 16 to 256 characters.",
      examples: ["3f9a1c7e5b2d4a6f8e0c1b2a"],
    }),
    access_token: t.String({
      description: "A Cloud API access token for sending replies: 16 to 2048 characters.",
      examples: ["EAAGm0PX4ZCpsBAKZCZD"],
    }),
    phone_number_id: t.String({
      description: "The Cloud API phone number id: 1 to 32 digits.",
      examples: ["106540352242922"],
    }),
  }),
  statusResponse: t.Object({
    configured: t.Boolean(),
    verify_token_set: t.Boolean(),
    app_secret_set: t.Boolean(),
    access_token_set: t.Boolean(),
    phone_number_id: t.Nullable(t.String()),
    callback_url: t.String(),
  }),
} as const;

export function whatsappHookRoutes(deps: AppDeps) {
  return (
    new Elysia({ prefix: "/api/v1" })
      .use(securityPlugin(deps))
      .get(
        "/hooks/whatsapp/:tenant_id",
        async ({ params, query, request, server, set }) => {
          const gate = hookGate(deps, { request, server, set }, params.tenant_id);
          const challenge = await gate.run(async () => {
            const answer = await answerWhatsappHandshake(deps, params.tenant_id, {
              mode: query["hub.mode"],
              verifyToken: query["hub.verify_token"],
              challenge: query["hub.challenge"],
            });
            await gate.admit();
            return answer;
          });
          set.headers["content-type"] = "text/plain; charset=utf-8";
          return challenge;
        },
        {
          params: WhatsappHookModel.hookParams,
          query: WhatsappHookModel.handshakeQuery,
          detail: {
            summary: "WhatsApp webhook verification",
            description:
              "Meta's subscription handshake: answers hub.challenge as text when hub.verify_token matches the tenant's verify token.",
          },
          response: { 200: t.String({ description: "The hub.challenge, as text/plain." }) },
        },
      )
      // The signature covers the exact bytes the JSON parser read (64 KiB limit, JSON content type).
      .post(
        "/hooks/whatsapp/:tenant_id",
        ({ params, request, headers, server, set }) => {
          const gate = hookGate(deps, { request, server, set }, params.tenant_id);
          return gate.run(() =>
            handleWhatsappWebhook(
              deps,
              params.tenant_id,
              rawBodyOf(request),
              headers["x-hub-signature-256"],
              gate.admit,
            ),
          );
        },
        {
          params: WhatsappHookModel.hookParams,
          response: { 200: WhatsappHookModel.hookResponse },
          detail: {
            summary: "WhatsApp webhook (inbound)",
            description:
              "Cloud API message notifications, signed with the app secret (X-Hub-Signature-256). Text messages reach the tenant's bot and its replies go back through the Cloud API.",
          },
        },
      )
      .get(
        "/integrations/whatsapp",
        ({ principal, query }) => getWhatsappSettingsStatus(deps, tenantOf(principal, query.tenant_id, ["owner"])),
        {
          tenantAccess: true,
          rateLimit: "management",
          query: WhatsappHookModel.tenantQuery,
          response: { 200: WhatsappHookModel.statusResponse },
          detail: {
            summary: "WhatsApp integration status",
            description: "Which settings are set (secrets are never shown) and the callback URL to give Meta.",
          },
        },
      )
      .put(
        "/integrations/whatsapp",
        async ({ principal, query, body }) => {
          const tenantId = tenantOf(principal, query.tenant_id, ["owner"]);
          await setWhatsappSettings(deps, tenantId, body);
          return getWhatsappSettingsStatus(deps, tenantId);
        },
        {
          tenantAccess: true,
          rateLimit: "management",
          query: WhatsappHookModel.tenantQuery,
          body: WhatsappHookModel.settingsBody,
          response: { 200: WhatsappHookModel.statusResponse },
          detail: {
            summary: "Configure WhatsApp",
            description:
              "The Cloud API credentials: verify token, app secret, access token and phone number id (secrets stored encrypted).",
          },
        },
      )
  );
}
