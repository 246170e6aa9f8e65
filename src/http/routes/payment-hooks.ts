import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { rawBodyOf } from "../body.ts";
import { strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { hookGate } from "../plugins/hook-gate.ts";
import { handlePaymentEvent, hasPaymentSecret, setPaymentSecret } from "../../integrations/payments.ts";

export const PaymentHookModel = {
  hookParams: t.Object({ tenant_id: t.String({ maxLength: 64 }) }),
  tenantQuery: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  secretBody: strictObject({
    secret: t.String({
      description: "The provider's webhook signing secret: 16 to 256 characters.",
      examples: ["whsec_4f1c9a7e2b8d6f3a0c5e"],
    }),
  }),
  secretResponse: t.Object({ tenant_id: t.String(), payment_secret_set: t.Literal(true) }),
  statusResponse: t.Object({ payment_secret_set: t.Boolean() }),
  hookResponse: t.Object({
    received: t.Literal(true),
    event: t.Optional(
      t.String({ enum: ["payment.succeeded", "payment.failed"], description: "The Parley event emitted." }),
    ),
    event_id: t.Optional(t.String({ examples: ["evt_01jz4k8m2q9wz7xr3t5v6b8c0d"] })),
    duplicate: t.Optional(t.Literal(true, { description: "This provider event was already handled (redelivery)." })),
    ignored: t.Optional(t.Literal(true, { description: "A provider event type Parley does not turn into an event." })),
  }),
} as const;

export function paymentHookRoutes(deps: AppDeps) {
  return (
    new Elysia({ prefix: "/api/v1" })
      .use(securityPlugin(deps))
      // The signature covers the exact bytes sent: the ones the JSON parser read (64 KiB limit,
      // JSON content type and syntax already enforced by it).
      .post(
        "/hooks/payments/:tenant_id",
        ({ params, request, headers, server, set }) => {
          const gate = hookGate(deps, { request, server, set }, params.tenant_id);
          return gate.run(() =>
            handlePaymentEvent(deps, params.tenant_id, rawBodyOf(request), headers["stripe-signature"], gate.admit),
          );
        },
        {
          params: PaymentHookModel.hookParams,
          detail: {
            summary: "Payment provider webhook (inbound)",
            description:
              "Stripe-style events signed with the tenant's payment secret (Stripe-Signature, 5-minute tolerance). Successful payments emit payment.succeeded, failures and declines payment.failed; redeliveries are recognised by the provider's event id.",
          },
          response: { 200: PaymentHookModel.hookResponse },
        },
      )
      .get(
        "/integrations/payments",
        async ({ principal, query }) => ({
          payment_secret_set: await hasPaymentSecret(deps, tenantOf(principal, query.tenant_id, ["owner"])),
        }),
        {
          tenantAccess: true,
          rateLimit: "management",
          query: PaymentHookModel.tenantQuery,
          response: { 200: PaymentHookModel.statusResponse },
          detail: {
            summary: "Payment integration status",
            description:
              "Whether a payment signing secret is set (the secret itself is never shown). Owner or API key.",
          },
        },
      )
      .put(
        "/integrations/payments",
        async ({ principal, query, body }) => {
          const tenantId = tenantOf(principal, query.tenant_id, ["owner"]);
          await setPaymentSecret(deps, tenantId, body.secret);
          return { tenant_id: tenantId, payment_secret_set: true as const };
        },
        {
          tenantAccess: true,
          rateLimit: "management",
          query: PaymentHookModel.tenantQuery,
          body: PaymentHookModel.secretBody,
          response: { 200: PaymentHookModel.secretResponse },
          detail: {
            summary: "Set the payment signing secret",
            description:
              "The provider's webhook signing secret (whsec_…), stored encrypted; inbound payment events must be signed with it.",
          },
        },
      )
  );
}
