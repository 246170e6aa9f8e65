import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { checkVisitorAccess, preflightResponse } from "../plugins/cors.ts";
import { requireTenant } from "../../tenants/find-tenant.ts";
import { RATING_COMMENT_MAX_LENGTH, rateSession } from "../../frontdesk/rating.ts";
import { summarizeRatings } from "../../frontdesk/csat.ts";
import { idOf, isoTime } from "../response-schemas.ts";

const csatDay = t.Object({
  day: t.String({ examples: ["2026-01-15"] }),
  count: t.Number(),
  average: t.Nullable(t.Number({ description: "Mean score, two decimals; null without ratings." })),
  distribution: t.Array(t.Number(), {
    minItems: 5,
    maxItems: 5,
    description: "How many ratings gave 1, 2, 3, 4 and 5.",
  }),
});

export const RatingModel = {
  rateBody: strictObject({
    // A number, not an integer, in the schema: the verb answers 2.5 with a clear 422 naming score.
    score: t.Number({ description: "1 (poor) to 5 (great).", examples: [5] }),
    comment: t.Optional(
      t.Nullable(t.String({ maxLength: RATING_COMMENT_MAX_LENGTH, examples: ["Quick and friendly, thanks!"] })),
    ),
  }),
  rateResponse: t.Object({
    ok: t.Literal(true),
    session_id: idOf("ses"),
    chatbot_id: idOf("bot"),
    score: t.Number(),
    comment: t.Nullable(t.String()),
    rated_at: isoTime(),
  }),
  csatQuery: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  csatResponse: t.Object({ days: t.Array(csatDay), total: csatDay }),
} as const;

/** The visitor's rating of a closed chat, and the CSAT the Overview charts. */
export function ratingRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1" })
    .use(securityPlugin(deps))
    .options("/chatbot/sessions/:id/rating", ({ request }) => preflightResponse(deps, request))
    .post(
      "/chatbot/sessions/:id/rating",
      async ({ principal, params, body, request, set }) => {
        const tenant = await requireTenant(deps, tenantOf(principal));
        checkVisitorAccess(tenant, principal, request, set.headers, params.id);
        const rated = await rateSession(deps, tenant.id, params.id, body);
        set.status = 201;
        return rated;
      },
      {
        anyAccess: true,
        rateLimit: "chat",
        params: idParams,
        body: RatingModel.rateBody,
        detail: {
          summary: "Rate a closed chat",
          description:
            "The visitor's 1–5 rating of a chat a person closed, with an optional comment; emits conversation.rated. 201; once per chat (409 already_rated), only once closed (409 session_open), a score outside 1–5 or not whole is 422. The session's visitor token.",
        },
        response: { 201: RatingModel.rateResponse },
      },
    )
    .get(
      "/analytics/ratings",
      ({ principal, query }) => summarizeRatings(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES)),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: RatingModel.csatQuery,
        detail: {
          summary: "Visitor satisfaction (CSAT)",
          description:
            "The last 30 UTC days of visitors' ratings: per day and in total, the count, the average and the 1–5 distribution. Owner or admin, or the API key.",
        },
        response: { 200: RatingModel.csatResponse },
      },
    );
}
