import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, pageFields, strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { closeSession, listSessions, postOperatorMessage } from "../../chat/sessions.ts";
import { listAppointments, listLeads } from "../../chat/crm.ts";
import { relayOperatorMessageToWhatsapp } from "../../integrations/whatsapp-relay.ts";
import { SESSION_STATUSES } from "../../db/schema.ts";

export const OperatorModel = {
  pageQuery: strictObject({ ...pageFields, tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  sessionsQuery: strictObject({
    ...pageFields,
    tenant_id: t.Optional(t.String({ maxLength: 64 })),
    status: t.Optional(t.Union(SESSION_STATUSES.map((status) => t.Literal(status)))),
  }),
  operatorMessageBody: strictObject({ text: t.String({ minLength: 1, maxLength: 4000 }) }),
} as const;

/** The operator side of hand-off, and the CRM reads. Members of any role, or the tenant's API key. */
export function operatorRoutes(deps: AppDeps) {
  const page = (query: { limit?: number; cursor?: string }) => ({ limit: query.limit ?? 50, cursor: query.cursor });
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .get("/sessions", ({ principal, query }) => listSessions(deps, tenantOf(principal, query.tenant_id), { status: query.status }, page(query)), {
      tenantAccess: true,
      rateLimit: "management",
      query: OperatorModel.sessionsQuery,
    })
    .post(
      "/sessions/:id/operator-messages",
      ({ principal, params, query, body, set }) => {
        const tenantId = tenantOf(principal, query.tenant_id);
        const message = postOperatorMessage(deps, tenantId, params.id, { text: body.text, authorId: principal.kind === "user" ? principal.userId : undefined });
        relayOperatorMessageToWhatsapp(deps, tenantId, params.id, message.text);
        set.status = 201;
        return message;
      },
      { tenantAccess: true, rateLimit: "management", params: idParams, query: OperatorModel.pageQuery, body: OperatorModel.operatorMessageBody },
    )
    .post("/sessions/:id/close", ({ principal, params, query }) => closeSession(deps, tenantOf(principal, query.tenant_id), params.id), {
      tenantAccess: true,
      rateLimit: "management",
      params: idParams,
      query: OperatorModel.pageQuery,
    })
    .get("/leads", ({ principal, query }) => listLeads(deps, tenantOf(principal, query.tenant_id), page(query)), {
      tenantAccess: true,
      rateLimit: "management",
      query: OperatorModel.pageQuery,
    })
    .get("/appointments", ({ principal, query }) => listAppointments(deps, tenantOf(principal, query.tenant_id), page(query)), {
      tenantAccess: true,
      rateLimit: "management",
      query: OperatorModel.pageQuery,
    });
}
