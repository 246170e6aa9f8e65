import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { deletedResponse, idOf, isoTime } from "../response-schemas.ts";
import {
  CANNED_TEXT_MAX,
  createCannedReply,
  deleteCannedReply,
  listCannedReplies,
  SHORTCUT_MAX,
  SHORTCUT_PATTERN,
  updateCannedReply,
} from "../../frontdesk/canned-replies.ts";

const shortcut = t.String({
  minLength: 1,
  maxLength: SHORTCUT_MAX,
  pattern: SHORTCUT_PATTERN,
  description: "Typed after / in the reply box.",
  examples: ["hours"],
});
const text = t.String({
  minLength: 1,
  maxLength: CANNED_TEXT_MAX,
  examples: ["We're open Monday to Friday, 9:00 to 17:00."],
});
const cannedReplyView = t.Object({
  canned_reply_id: idOf("cnr"),
  shortcut: t.String(),
  text: t.String(),
  created_at: isoTime(),
  updated_at: isoTime(),
});

export const CannedReplyModel = {
  createBody: strictObject({ shortcut, text }),
  updateBody: strictObject({ shortcut: t.Optional(shortcut), text: t.Optional(text) }),
  view: cannedReplyView,
  list: t.Object({ data: t.Array(cannedReplyView) }),
  deleteResponse: deletedResponse("canned_reply_id", "cnr"),
} as const;

/** The tenant's canned replies: every member reads them (the reply box's `/`), owners and admins write. */
export function cannedReplyRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1/canned-replies" })
    .use(securityPlugin(deps))
    .get("", ({ principal }) => listCannedReplies(deps, tenantOf(principal)), {
      tenantAccess: true,
      rateLimit: "management",
      detail: { summary: "List canned replies", description: "The tenant's saved answers by shortcut (at most 200)." },
      response: { 200: CannedReplyModel.list },
    })
    .post(
      "",
      async ({ principal, body, set }) => {
        const reply = await createCannedReply(deps, tenantOf(principal, undefined, MANAGER_ROLES), body);
        set.status = 201;
        return reply;
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        body: CannedReplyModel.createBody,
        detail: {
          summary: "Add a canned reply",
          description:
            "Owners and admins. 201; a shortcut the tenant has already is 409 shortcut_taken, the 201st reply 409 limit_reached.",
        },
        response: { 201: CannedReplyModel.view },
      },
    )
    .patch(
      "/:id",
      ({ principal, params, body }) =>
        updateCannedReply(deps, tenantOf(principal, undefined, MANAGER_ROLES), params.id, body),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        body: CannedReplyModel.updateBody,
        detail: { summary: "Change a canned reply", description: "Owners and admins; another tenant's reply is 404." },
        response: { 200: CannedReplyModel.view },
      },
    )
    .delete(
      "/:id",
      ({ principal, params }) => deleteCannedReply(deps, tenantOf(principal, undefined, MANAGER_ROLES), params.id),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        detail: { summary: "Delete a canned reply", description: "Owners and admins; another tenant's reply is 404." },
        response: { 200: CannedReplyModel.deleteResponse },
      },
    );
}
