import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, pageFields, strictObject } from "../schema.ts";
import { MANAGER_ROLES, type Principal, securityPlugin, tenantOf } from "../plugins/security.ts";
import { getInboxChat, listInbox, markChatRead, reopenChat } from "../../frontdesk/inbox.ts";
import { assignChat, type DeskActor } from "../../frontdesk/assign-chat.ts";
import { searchChats, SEARCH_QUERY_MAX } from "../../frontdesk/search-chats.ts";
import { AppError } from "../../lib/app-error.ts";
import { getBotConfig } from "../../chat/bot-settings.ts";
import { teamAvailability } from "../../chat/engine/team-hours.ts";
import { inboxChatView } from "./inbox-schemas.ts";
import { pageOf } from "../response-schemas.ts";

export const InboxModel = {
  query: strictObject({
    ...pageFields,
    status: t.Optional(
      t.Union([t.Literal("handoff"), t.Literal("closed")], {
        description: "handoff (default): waiting for or talking to a person; closed.",
      }),
    ),
  }),
  searchQuery: strictObject({
    ...pageFields,
    q: t.String({
      minLength: 1,
      maxLength: SEARCH_QUERY_MAX,
      description: "Words of a visitor's name, e-mail, phone or of the messages (each word matches as a prefix).",
      examples: ["ana"],
    }),
  }),
  assignBody: strictObject({
    user_id: t.Optional(
      t.Nullable(
        t.String({
          maxLength: 64,
          description: "Whom to give the chat to (owners and admins); omitted: me (Take); null: nobody (release).",
        }),
      ),
    ),
  }),
  chat: inboxChatView,
  page: pageOf(inboxChatView),
} as const;

/** Who asks, for the assignment rules: a member with their role, or the tenant's API key (a manager). */
function deskActor(principal: Principal, tenantId: string): DeskActor {
  if (principal.kind !== "user") return { userId: null, manager: true };
  const role = principal.memberships.find((membership) => membership.tenantId === tenantId)?.role;
  return {
    userId: principal.userId,
    manager: role !== undefined && (MANAGER_ROLES as readonly string[]).includes(role),
  };
}

const readerOf = (principal: Principal) => (principal.kind === "user" ? principal.userId : null);

/** The front desk's inbox: chats waiting for a person with who the visitor is and who has them, search, Take, reopen. */
export function inboxRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .get(
      "/inbox",
      ({ principal, query }) =>
        listInbox(
          deps,
          tenantOf(principal),
          readerOf(principal),
          { status: query.status ?? "handoff" },
          { limit: query.limit ?? 50, cursor: query.cursor },
        ),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: InboxModel.query,
        detail: {
          summary: "The hand-off inbox",
          description:
            "Chats waiting for a person (status handoff; ?status=closed for closed ones), newest first: the newest message, the visitor's name, contact, lead and appointment, language, page, how long they have waited, the unread count for the caller, and who has the chat.",
        },
        response: { 200: InboxModel.page },
      },
    )
    .get(
      "/inbox/search",
      ({ principal, query }) =>
        searchChats(deps, tenantOf(principal), readerOf(principal), query.q, {
          limit: query.limit ?? 20,
          cursor: query.cursor,
        }),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: InboxModel.searchQuery,
        detail: {
          summary: "Search past conversations",
          description:
            "The tenant's chats (any status) whose visitor or operator messages, or lead name, e-mail or phone, contain every word of q (as a prefix), newest first, cursor paged.",
        },
        response: { 200: InboxModel.page },
      },
    )
    .get(
      "/inbox/chats/:id",
      ({ principal, params }) => getInboxChat(deps, tenantOf(principal), readerOf(principal), params.id),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        detail: {
          summary: "One chat of the inbox",
          description: "As in the inbox list; another tenant's chat is 404.",
        },
        response: { 200: InboxModel.chat },
      },
    )
    .post(
      "/inbox/chats/:id/read",
      ({ principal, params }) => {
        if (principal.kind !== "user")
          throw new AppError("user_required", 422, "Read marks are per person: sign in as a user.");
        return markChatRead(deps, tenantOf(principal), principal.userId, params.id);
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        detail: {
          summary: "Mark a chat read",
          description: "The caller has seen the chat's messages so far: its unread count for them drops to 0.",
        },
        response: { 200: InboxModel.chat },
      },
    )
    .post(
      "/sessions/:id/assign",
      ({ principal, params, body }) => {
        const tenantId = tenantOf(principal);
        return assignChat(deps, tenantId, deskActor(principal, tenantId), params.id, body.user_id);
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        body: InboxModel.assignBody,
        detail: {
          summary: "Take or assign a chat",
          description:
            "Without user_id: the caller takes the chat. Owners, admins and API keys give it to any member (user_id) or to nobody (null). An agent may take a chat nobody has and release their own: someone else's chat is 409 chat_taken, giving it to another person 403. Emits session.assigned on the inbox stream.",
        },
        response: { 200: InboxModel.chat },
      },
    )
    .post(
      "/sessions/:id/reopen",
      async ({ principal, params }) => {
        const config = await getBotConfig(deps, tenantOf(principal));
        const withinHours = (at: number) => teamAvailability(config, at).withinBusinessHours;
        return reopenChat(deps, tenantOf(principal), readerOf(principal), params.id, withinHours);
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        detail: {
          summary: "Reopen a closed chat",
          description:
            "Back to the inbox (status handoff); a chat closed before any hand-off is handed off by it. An open chat is answered as it is, one the bot still handles is 409. Emits session.reopened.",
        },
        response: { 200: InboxModel.chat },
      },
    );
}
