import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { requireTenant } from "../../tenants/find-tenant.ts";
import { findUserProfile } from "../../auth/create-user.ts";
import { DISPLAY_NAME_MAX_LENGTH, setDisplayName } from "../../auth/display-name.ts";
import { idOf, isoTime } from "../response-schemas.ts";
import { tenantView } from "../../tenants/tenant-view.ts";

export const AccountModel = {
  tenantQuery: t.Object({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }, { additionalProperties: false }),
  meResponse: t.Object({
    user_id: idOf("usr"),
    email: t.Nullable(t.String({ examples: ["owner@acme.example"] })),
    display_name: t.Nullable(
      t.String({
        description: "Shown to visitors on this user's replies; null = the widget's \"Agent\".",
        examples: ["Ana"],
      }),
    ),
    memberships: t.Array(t.Object({ tenant_id: idOf("ten"), role: t.String({ enum: ["owner", "admin", "agent"] }) })),
  }),
  meBody: t.Object(
    {
      // The 1–60 characters are counted after trimming, by the verb (parseDisplayName); this only bounds the body.
      display_name: t.Nullable(
        t.String({
          maxLength: DISPLAY_NAME_MAX_LENGTH * 4,
          description: "1–60 characters after trimming, no control characters; null clears it.",
          examples: ["Ana"],
        }),
      ),
    },
    { additionalProperties: false },
  ),
  tenantResponse: t.Object({
    tenant_id: idOf("ten"),
    name: t.String({ examples: ["Acme Dental"] }),
    plan: t.String({ enum: ["free", "starter", "pro", "business"] }),
    sector: t.Nullable(t.String({ examples: ["dental"] })),
    chatbot_id: idOf("bot"),
    allowed_origins: t.Array(t.String(), { description: "Sites whose widget may talk to this tenant; empty = any." }),
    created_at: isoTime(),
  }),
} as const;

const meView = (
  principal: { userId: string; memberships: ReadonlyArray<{ tenantId: string; role: string }> },
  profile: { email: string | null; displayName: string | null },
) => ({
  user_id: principal.userId,
  email: profile.email,
  display_name: profile.displayName,
  memberships: principal.memberships.map((membership) => ({ tenant_id: membership.tenantId, role: membership.role })),
});

/** Who am I: the user behind a Bearer token, or the tenant behind a token or API key. */
export function accountRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .get(
      "/me",
      async ({ principal }) => {
        if (principal.kind !== "user") throw new Error("unreachable: bearer macro resolves users only");
        return meView(principal, await findUserProfile(deps, principal.userId));
      },
      {
        bearer: true,
        rateLimit: "management",
        detail: {
          summary: "Who am I",
          description:
            "The user behind a Bearer token, their display name, and the tenants they belong to, with their role.",
        },
        response: { 200: AccountModel.meResponse },
      },
    )
    .patch(
      "/me",
      async ({ principal, body }) => {
        if (principal.kind !== "user") throw new Error("unreachable: bearer macro resolves users only");
        return meView(principal, await setDisplayName(deps, principal.userId, body.display_name));
      },
      {
        bearer: true,
        rateLimit: "management",
        body: AccountModel.meBody,
        detail: {
          summary: "Set my display name",
          description:
            'The name visitors see on this user\'s operator replies (null clears it: the widget then shows its localised "Agent"). Replies already sent keep the name they were sent with. 422 when empty after trimming, longer than 60 characters or holding control characters.',
        },
        response: { 200: AccountModel.meResponse },
      },
    )
    .get(
      "/tenant",
      async ({ principal, query }) => {
        return tenantView(await requireTenant(deps, tenantOf(principal, query.tenant_id)));
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        query: AccountModel.tenantQuery,
        detail: {
          summary: "Read the tenant",
          description:
            "Name, plan, sector, chatbot id and allowed origins. A member of several tenants names one with the X-Tenant-Id header or ?tenant_id=.",
        },
        response: { 200: AccountModel.tenantResponse },
      },
    );
}
