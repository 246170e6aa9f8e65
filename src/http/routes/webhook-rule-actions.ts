import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { rotateRuleSecret } from "../../webhooks/rotate-secret.ts";
import { recoverRuleDeliveries } from "../../webhooks/recover-deliveries.ts";
import { idOf, isoTime, nullableIsoTime } from "../response-schemas.ts";

export const RuleActionModel = {
  rotateBody: strictObject({
    secret: t.Optional(
      t.String({
        minLength: 16,
        maxLength: 256,
        description: "The new secret; generated when absent.",
        examples: ["whsec_9d2b7e4a1c6f3e8b0a5d"],
      }),
    ),
    overlap: t.Optional(
      t.String({
        maxLength: 16,
        description:
          "How long the old secret keeps signing beside the new one (`24h`, `30m`, `0s`; at most `7d`). Default `24h`.",
        examples: ["24h"],
      }),
    ),
  }),
  rotateResponse: t.Object({
    ok: t.Literal(true),
    rule_id: idOf("rule"),
    secret: t.String({ description: "The new secret, shown this once." }),
    previous_secret_expires_at: nullableIsoTime("When the old secret stops signing; null when it stopped at once."),
  }),
  recoverBody: strictObject({
    since: t.String({
      maxLength: 40,
      description: "ISO 8601: deliveries created since then are considered.",
      examples: ["2026-01-15T09:00:00Z"],
    }),
  }),
  recoverResponse: t.Object({
    ok: t.Literal(true),
    rule_id: idOf("rule"),
    since: isoTime(),
    recovered: t.Integer({
      minimum: 0,
      description: "Dead or retrying deliveries put back on a fresh cycle, due now.",
    }),
  }),
} as const;

export function webhookRuleActionRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1/webhooks/rules-engine/rules" })
    .use(securityPlugin(deps))
    .post(
      "/:id/rotate-secret",
      async ({ principal, params, body }) => ({
        ok: true as const,
        ...(await rotateRuleSecret(deps, tenantOf(principal, undefined, MANAGER_ROLES), params.id, body)),
      }),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        body: RuleActionModel.rotateBody,
        response: { 200: RuleActionModel.rotateResponse },
        detail: {
          summary: "Rotate a rule's secret",
          description:
            "Sets a new secret (given or generated, returned once). During `overlap` every delivery's `webhook-signature` carries `v1,<new> v1,<old>` and `X-Service-Signature` the new one; after it, only the new. Rotating again during an overlap keeps only the secret being replaced.",
        },
      },
    )
    .post(
      "/:id/recover",
      async ({ principal, params, body }) => ({
        ok: true as const,
        ...(await recoverRuleDeliveries(deps, tenantOf(principal, undefined, MANAGER_ROLES), params.id, body.since)),
      }),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        body: RuleActionModel.recoverBody,
        response: { 200: RuleActionModel.recoverResponse },
        detail: {
          summary: "Recover a rule's failed deliveries",
          description:
            "Every delivery of the rule created since `since` that dead-lettered or is waiting for a retry starts a fresh cycle now, with the same webhook_id. Succeeded deliveries and one being sent are left alone.",
        },
      },
    );
}
