import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { eraseLead, eraseSession } from "../../chat/erase-person.ts";
import { exportLead } from "../../chat/export-person.ts";
import { idOf, isoTime } from "../response-schemas.ts";

const erasureResponse = t.Object(
  {
    erased: t.Literal(true),
    tenant_id: idOf("ten"),
    leads: t.Integer(),
    appointments: t.Integer(),
    sessions: t.Integer(),
    messages: t.Integer(),
    events: t.Integer(),
    deliveries: t.Integer(),
    analytics_events: t.Integer(),
  },
  { description: "How many records of each kind were deleted." },
);
const recordList = t.Array(t.Record(t.String(), t.Unknown()));

export const PrivacyModel = {
  tenantQuery: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  erasureResponse,
  exportResponse: t.Object({
    exported_at: isoTime(),
    tenant_id: idOf("ten"),
    contact: t.Object(
      { emails: t.Array(t.String()), phones: t.Array(t.String()) },
      { description: "The person's contact details that tie the records together." },
    ),
    leads: recordList,
    appointments: recordList,
    sessions: t.Array(t.Record(t.String(), t.Unknown()), {
      description: "Each with its messages and the bot's remembered conversation_state.",
    }),
    events: t.Array(t.Record(t.String(), t.Unknown()), {
      description: "Webhook events about the person, each with its deliveries.",
    }),
    analytics_events: recordList,
  }),
} as const;

/** Erasure and export on a person's request (docs/operations.md). The tenant's API key, or an owner or admin. */
export function privacyRoutes(deps: AppDeps) {
  const adminTenant = (principal: Parameters<typeof tenantOf>[0], tenantId?: string) =>
    tenantOf(principal, tenantId, MANAGER_ROLES);
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .delete(
      "/leads/:id",
      ({ principal, params, query }) => eraseLead(deps, adminTenant(principal, query.tenant_id), params.id),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        query: PrivacyModel.tenantQuery,
        detail: {
          summary: "Erase a person (from a lead)",
          description:
            "Deletes the lead and everything tied to the same person: appointments, sessions with their messages, events and deliveries, analytics.",
        },
        response: { 200: PrivacyModel.erasureResponse },
      },
    )
    .get(
      "/leads/:id/export",
      ({ principal, params, query }) => exportLead(deps, adminTenant(principal, query.tenant_id), params.id),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        query: PrivacyModel.tenantQuery,
        detail: {
          summary: "Export a person's data",
          description: "Everything Parley holds about the person behind this lead, in the API's field names.",
        },
        response: { 200: PrivacyModel.exportResponse },
      },
    )
    .delete(
      "/sessions/:id",
      ({ principal, params, query }) => eraseSession(deps, adminTenant(principal, query.tenant_id), params.id),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        query: PrivacyModel.tenantQuery,
        detail: {
          summary: "Erase a person (from a session)",
          description: "Deletes the session's visitor and everything tied to them, like DELETE /leads/{id}.",
        },
        response: { 200: PrivacyModel.erasureResponse },
      },
    );
}
