import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { requireTenant } from "../../tenants/find-tenant.ts";
import { findUserEmail } from "../../auth/create-user.ts";
import { idOf, isoTime } from "../response-schemas.ts";
import { tenantView } from "../../tenants/tenant-view.ts";

export const AccountModel = {
  tenantQuery: t.Object({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }, { additionalProperties: false }),
  meResponse: t.Object({
    user_id: idOf("usr"),
    email: t.Nullable(t.String({ examples: ["owner@acme.example"] })),
    memberships: t.Array(t.Object({ tenant_id: idOf("ten"), role: t.String({ enum: ["owner", "admin", "agent"] }) })),
  }),
  tenantResponse: t.Object({
    tenant_id: idOf("ten"),
    name: t.String({ examples: ["Acme Dental"] }),
    plan: t.String({ enum: ["free", "starter", "pro", "business"] }),
    sector: t.Nullable(t.String({ examples: ["dental"] })),
    chatbot_id: idOf("bot"),
    allowed_origins: t.Array(t.String(), { description: "Sites whose widget may talk to this tenant; empty = any." }),
    created_at: isoTime(),
  }),
} as const;

/** Who am I: the user behind a Bearer token, or the tenant behind a token or API key. */
export function accountRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .get(
      "/me",
      async ({ principal }) => {
        if (principal.kind !== "user") throw new Error("unreachable: bearer macro resolves users only");
        return {
          user_id: principal.userId,
          email: await findUserEmail(deps, principal.userId),
          memberships: principal.memberships.map((membership) => ({ tenant_id: membership.tenantId, role: membership.role })),
        };
      },
      {
        bearer: true,
        rateLimit: "management",
        detail: { summary: "Who am I", description: "The user behind a Bearer token and the tenants they belong to, with their role." },
        response: { 200: AccountModel.meResponse },
      },
    )
    .get(
      "/tenant",
      async ({ principal, query }) => {
        return tenantView(await requireTenant(deps, tenantOf(principal, query.tenant_id)));
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        query: AccountModel.tenantQuery,
        detail: { summary: "Read the tenant", description: "Name, plan, sector, chatbot id and allowed origins. A member of several tenants names one with ?tenant_id=." },
        response: { 200: AccountModel.tenantResponse },
      },
    );
}
