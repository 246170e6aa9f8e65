import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { eraseLead, eraseSession } from "../../chat/erase-person.ts";
import { exportLead } from "../../chat/export-person.ts";

export const PrivacyModel = {
  tenantQuery: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
} as const;

/** Erasure and export on a person's request (docs/operations.md). The tenant's API key, or an owner or admin. */
export function privacyRoutes(deps: AppDeps) {
  const adminTenant = (principal: Parameters<typeof tenantOf>[0], tenantId?: string) => tenantOf(principal, tenantId, ["owner", "admin"]);
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .delete("/leads/:id", ({ principal, params, query }) => eraseLead(deps, adminTenant(principal, query.tenant_id), params.id), {
      tenantAccess: true,
      rateLimit: "management",
      params: idParams,
      query: PrivacyModel.tenantQuery,
    })
    .get("/leads/:id/export", ({ principal, params, query }) => exportLead(deps, adminTenant(principal, query.tenant_id), params.id), {
      tenantAccess: true,
      rateLimit: "management",
      params: idParams,
      query: PrivacyModel.tenantQuery,
    })
    .delete("/sessions/:id", ({ principal, params, query }) => eraseSession(deps, adminTenant(principal, query.tenant_id), params.id), {
      tenantAccess: true,
      rateLimit: "management",
      params: idParams,
      query: PrivacyModel.tenantQuery,
    });
}
