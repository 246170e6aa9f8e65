import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { createUser } from "../../auth/create-user.ts";
import { changeOwnPassword, listTeam, removeMember } from "../../auth/team.ts";
import { DISPLAY_NAME_MAX_LENGTH } from "../../auth/display-name.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../auth/password.ts";
import { MEMBERSHIP_ROLES } from "../../db/schema.ts";
import { toIso } from "../../lib/clock.ts";
import { idOf, isoTime, oneOf } from "../response-schemas.ts";

const tenantQuery = strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) });
const password = (description: string) =>
  t.String({
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
    description,
    examples: ["a long passphrase 42"],
  });
const memberView = t.Object({
  user_id: idOf("usr"),
  email: t.String({ examples: ["sam@acme.example"] }),
  display_name: t.Nullable(t.String({ examples: ["Sam"] })),
  role: oneOf(MEMBERSHIP_ROLES),
  added_at: isoTime(),
});

export const TeamModel = {
  tenantQuery,
  createBody: strictObject({
    email: t.String({ minLength: 3, maxLength: 254, examples: ["sam@acme.example"] }),
    password: t.Optional(password("8–256 characters; needed only when the e-mail has no account yet.")),
    display_name: t.Optional(
      t.String({
        maxLength: DISPLAY_NAME_MAX_LENGTH * 4,
        description: "Shown to visitors on this person's replies.",
        examples: ["Sam"],
      }),
    ),
    role: t.Optional(
      oneOf(MEMBERSHIP_ROLES, {
        description: "Default agent: the inbox, their own profile and knowledge search.",
        examples: ["agent"],
      }),
    ),
  }),
  passwordBody: strictObject({
    current_password: t.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH, examples: ["correct horse battery"] }),
    new_password: password("8–256 characters."),
  }),
  memberView,
  teamResponse: t.Object({ data: t.Array(memberView) }),
  removedResponse: t.Object({
    ok: t.Literal(true),
    user_id: idOf("usr"),
    deleted: t.Literal(true),
    account_deleted: t.Boolean({ description: "false when the person still works for another tenant." }),
  }),
} as const;

const OWNER = ["owner"] as const;

/** The tenant's people: owners and admins read the team; owners add and remove people. */
export function teamRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .get(
      "/users",
      async ({ principal, query }) => {
        const members = await listTeam(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES));
        return {
          data: members.map((member) => ({
            user_id: member.userId,
            email: member.email,
            display_name: member.displayName,
            role: member.role,
            added_at: toIso(member.createdAt),
          })),
        };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        query: TeamModel.tenantQuery,
        detail: {
          summary: "List the team",
          description: "The tenant's people and their roles, by e-mail. Owners and admins (or the API key).",
        },
        response: { 200: TeamModel.teamResponse },
      },
    )
    .post(
      "/users",
      async ({ principal, query, body, set }) => {
        const tenantId = tenantOf(principal, query.tenant_id, OWNER);
        const created = await createUser(deps, {
          email: body.email,
          tenantId,
          role: body.role ?? "agent",
          password: body.password,
          displayName: body.display_name,
        });
        const member = (await listTeam(deps, tenantId)).find((candidate) => candidate.userId === created.userId);
        set.status = 201;
        return {
          user_id: created.userId,
          email: created.email,
          display_name: member?.displayName ?? null,
          role: created.role,
          added_at: toIso(member?.createdAt ?? deps.clock.now()),
        };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        query: TeamModel.tenantQuery,
        body: TeamModel.createBody,
        detail: {
          summary: "Add a person",
          description:
            "An owner (or the API key) adds an agent, admin or owner. A new e-mail needs a password; an existing account only gains the membership. 409 when already a member.",
        },
        response: { 201: TeamModel.memberView },
      },
    )
    .delete(
      "/users/:id",
      async ({ principal, params, query }) => {
        const removed = await removeMember(deps, tenantOf(principal, query.tenant_id, OWNER), params.id);
        return {
          ok: true as const,
          user_id: removed.userId,
          deleted: true as const,
          account_deleted: removed.accountDeleted,
        };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        query: TeamModel.tenantQuery,
        detail: {
          summary: "Remove a person",
          description:
            "Ends the person's membership at once: their tokens no longer reach this tenant on the next request. An account left without tenants is deleted with its refresh tokens. 409 for the only owner.",
        },
        response: { 200: TeamModel.removedResponse },
      },
    )
    .post(
      "/me/password",
      async ({ principal, body }) => {
        if (principal.kind !== "user") throw new Error("unreachable: bearer macro resolves users only");
        await changeOwnPassword(deps, principal.userId, body.current_password, body.new_password);
        return { ok: true as const };
      },
      {
        bearer: true,
        rateLimit: "auth",
        body: TeamModel.passwordBody,
        detail: {
          summary: "Change my password",
          description:
            "Needs the current password (422 when wrong). Every refresh token of the account is revoked: other browsers must sign in again.",
        },
        response: { 200: t.Object({ ok: t.Literal(true) }) },
      },
    );
}
