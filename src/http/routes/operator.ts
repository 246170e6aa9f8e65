import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, pageFields, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { closeSession, listSessions } from "../../chat/sessions.ts";
import { postOperatorReply } from "../../integrations/post-operator-reply.ts";
import { listAppointments, listLeads } from "../../chat/crm.ts";
import { SESSION_STATUSES } from "../../db/schema.ts";
import { MESSAGE_MAX_LENGTH } from "../../chat/engine/turn.ts";
import { idOf, isoTime, messageView, nullableString, pageOf, sessionView } from "../response-schemas.ts";

const confidence = t.Number({ minimum: 0, maximum: 1, description: "How sure the bot was of what it captured." });
const leadView = t.Object({
  lead_id: idOf("lead"),
  chatbot_id: idOf("bot"),
  session_id: idOf("ses"),
  name: t.String({ examples: ["Ana Lopez"] }),
  phone: t.String({ description: "E.164", examples: ["+447700900123"] }),
  email: t.String({ examples: ["ana@example.com"] }),
  interest: t.String(),
  source: t.String({ examples: ["widget"] }),
  confidence,
  captured_at: isoTime(),
});
const appointmentView = t.Object({
  appointment_id: idOf("apt"),
  chatbot_id: idOf("bot"),
  session_id: idOf("ses"),
  starts_at: isoTime(),
  ends_at: isoTime(),
  timezone: t.String({ examples: ["Europe/London"] }),
  name: nullableString(),
  phone: nullableString(),
  email: nullableString(),
  confidence,
  created_at: isoTime(),
});

export const OperatorModel = {
  pageQuery: strictObject({ ...pageFields, tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  tenantQuery: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  sessionsQuery: strictObject({
    ...pageFields,
    tenant_id: t.Optional(t.String({ maxLength: 64 })),
    status: t.Optional(t.Union(SESSION_STATUSES.map((status) => t.Literal(status)))),
  }),
  operatorMessageBody: strictObject({
    text: t.String({
      minLength: 1,
      maxLength: MESSAGE_MAX_LENGTH,
      examples: ["Hi, I'm Sam from the front desk — how can I help?"],
    }),
  }),
  sessionPage: pageOf(sessionView),
  sessionView,
  messageView,
  leadPage: pageOf(leadView),
  appointmentPage: pageOf(appointmentView),
} as const;

/** The operator side of hand-off, and the CRM reads. Members of any role, or the tenant's API key. */
export function operatorRoutes(deps: AppDeps) {
  const page = (query: { limit?: number; cursor?: string }) => ({ limit: query.limit ?? 50, cursor: query.cursor });
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .get(
      "/sessions",
      ({ principal, query }) =>
        listSessions(deps, tenantOf(principal, query.tenant_id), { status: query.status }, page(query)),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: OperatorModel.sessionsQuery,
        detail: {
          summary: "List chat sessions",
          description: "Newest first, cursor paged; ?status=handoff is the operator's queue.",
        },
        response: { 200: OperatorModel.sessionPage },
      },
    )
    .post(
      "/sessions/:id/operator-messages",
      async ({ principal, params, query, body, set }) => {
        const tenantId = tenantOf(principal, query.tenant_id);
        const message = await postOperatorReply(deps, tenantId, params.id, {
          text: body.text,
          authorId: principal.kind === "user" ? principal.userId : undefined,
        });
        set.status = 201;
        return message;
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        query: OperatorModel.tenantQuery,
        body: OperatorModel.operatorMessageBody,
        detail: {
          summary: "Reply as an operator",
          description:
            "Posts a person's reply into the session (the widget shows it on its next poll; a WhatsApp session gets it on WhatsApp). A session the bot still handles is taken over. 201; a closed session is 409.",
        },
        response: { 201: OperatorModel.messageView },
      },
    )
    .post(
      "/sessions/:id/close",
      ({ principal, params, query }) => closeSession(deps, tenantOf(principal, query.tenant_id), params.id),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        query: OperatorModel.tenantQuery,
        detail: {
          summary: "Close a session",
          description: "Ends the conversation; closing a closed session changes nothing.",
        },
        response: { 200: OperatorModel.sessionView },
      },
    )
    .get(
      "/leads",
      ({ principal, query }) => listLeads(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), page(query)),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: OperatorModel.pageQuery,
        detail: {
          summary: "List leads",
          description: "Contacts the bot captured (name, E.164 phone, e-mail), newest first.",
        },
        response: { 200: OperatorModel.leadPage },
      },
    )
    .get(
      "/appointments",
      ({ principal, query }) =>
        listAppointments(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), page(query)),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: OperatorModel.pageQuery,
        detail: {
          summary: "List appointments",
          description: "Bookings the bot made, newest first, with their time zone.",
        },
        response: { 200: OperatorModel.appointmentPage },
      },
    );
}
