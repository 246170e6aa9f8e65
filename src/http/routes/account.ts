import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { requireTenant } from "../../tenants/find-tenant.ts";
import { findUserEmail } from "../../auth/create-user.ts";

export const AccountModel = {
  tenantQuery: t.Object({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }, { additionalProperties: false }),
} as const;

/** Who am I: the user behind a Bearer token, or the tenant behind a token or API key. */
export function accountRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .get(
      "/me",
      ({ principal }) => {
        if (principal.kind !== "user") throw new Error("unreachable: bearer macro resolves users only");
        return {
          user_id: principal.userId,
          email: findUserEmail(deps, principal.userId),
          memberships: principal.memberships.map((membership) => ({ tenant_id: membership.tenantId, role: membership.role })),
        };
      },
      { bearer: true, rateLimit: "management" },
    )
    .get(
      "/tenant",
      ({ principal, query }) => {
        const tenant = requireTenant(deps, tenantOf(principal, query.tenant_id));
        return {
          tenant_id: tenant.id,
          name: tenant.name,
          plan: tenant.plan,
          sector: tenant.sector,
          chatbot_id: tenant.chatbotId,
          allowed_origins: tenant.allowedOrigins,
          created_at: new Date(tenant.createdAt).toISOString(),
        };
      },
      { tenantAccess: true, rateLimit: "management", query: AccountModel.tenantQuery },
    );
}
