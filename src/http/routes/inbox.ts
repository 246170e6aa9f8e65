import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { pageFields, strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { listSessions } from "../../chat/sessions.ts";
import { previewSessions } from "../../chat/session-previews.ts";
import { handoffHoursOf } from "../../frontdesk/handoff-marks.ts";
import { authorName, isoTime, oneOf, pageOf, sessionView } from "../response-schemas.ts";
import { MESSAGE_ROLES } from "../../db/schema.ts";

export const InboxModel = {
  query: strictObject({ ...pageFields }),
  response: pageOf(
    t.Composite([
      sessionView,
      t.Object({
        preview: t.Nullable(t.Object({ role: oneOf(MESSAGE_ROLES), text: t.String(), author_name: authorName, created_at: isoTime() }), { description: "The newest message." }),
        within_business_hours: t.Nullable(t.Boolean({ description: "Whether the hand-off came within business hours (false: the visitor left a message for the team's return); null when a person took the chat over without one." })),
      }),
    ]),
  ),
} as const;

/** The hand-off inbox of the admin page: sessions waiting for a person, each with its newest message. */
export function inboxRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .get(
      "/inbox",
      async ({ principal, query }) => {
        const tenantId = tenantOf(principal);
        const page = await listSessions(deps, tenantId, { status: "handoff" }, { limit: query.limit ?? 50, cursor: query.cursor });
        const ids = page.data.map((session) => session.session_id);
        const [previews, hours] = await Promise.all([previewSessions(deps, tenantId, ids), handoffHoursOf(deps, tenantId, ids)]);
        return { ...page, data: page.data.map((session) => ({ ...session, preview: previews.get(session.session_id) ?? null, within_business_hours: hours.get(session.session_id) ?? null })) };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        query: InboxModel.query,
        detail: { summary: "The hand-off inbox", description: "Sessions waiting for a person (status handoff), newest first, each with its newest message as a preview." },
        response: { 200: InboxModel.response },
      },
    );
}
