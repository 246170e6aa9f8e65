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
  secretBody: strictObject({ secret: t.String() }),
  secretResponse: t.Object({ tenant_id: t.String(), payment_secret_set: t.Literal(true) }),
  statusResponse: t.Object({ payment_secret_set: t.Boolean() }),
} as const;

export function paymentHookRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    // The signature covers the exact bytes sent: the ones the JSON parser read (64 KiB limit,
    // JSON content type and syntax already enforced by it).
    .post(
      "/hooks/payments/:tenant_id",
      ({ params, request, headers, server, set }) => {
        const gate = hookGate(deps, { request, server, set }, params.tenant_id);
        return gate.run(() => handlePaymentEvent(deps, params.tenant_id, rawBodyOf(request), headers["stripe-signature"], gate.admit));
      },
      { params: PaymentHookModel.hookParams },
    )
    .get("/integrations/payments", ({ principal, query }) => ({ payment_secret_set: hasPaymentSecret(deps, tenantOf(principal, query.tenant_id, ["owner"])) }), {
      tenantAccess: true,
      rateLimit: "management",
      query: PaymentHookModel.tenantQuery,
      response: { 200: PaymentHookModel.statusResponse },
    })
    .put(
      "/integrations/payments",
      ({ principal, query, body }) => {
        const tenantId = tenantOf(principal, query.tenant_id, ["owner"]);
        setPaymentSecret(deps, tenantId, body.secret);
        return { tenant_id: tenantId, payment_secret_set: true as const };
      },
      { tenantAccess: true, rateLimit: "management", query: PaymentHookModel.tenantQuery, body: PaymentHookModel.secretBody, response: { 200: PaymentHookModel.secretResponse } },
    );
}
