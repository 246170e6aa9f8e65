import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { pageFields, strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { listSessions } from "../../chat/sessions.ts";
import { previewSessions } from "../../chat/session-previews.ts";

export const InboxModel = {
  query: strictObject({ ...pageFields }),
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
        const previews = previewSessions(deps, tenantId, page.data.map((session) => session.session_id));
        return { ...page, data: page.data.map((session) => ({ ...session, preview: previews.get(session.session_id) ?? null })) };
      },
      { tenantAccess: true, rateLimit: "management", query: InboxModel.query },
    );
}
