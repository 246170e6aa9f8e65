import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { idOf, isoTime, oneOf } from "../response-schemas.ts";
import { LANGUAGES } from "../../chat/engine/language.ts";
import {
  addGroupAsTestCase,
  answerGroupWithFaq,
  dismissGroup,
  listUnansweredGroups,
} from "../../test-set/unanswered.ts";
import { ChatbotTestModel } from "./chatbot-tests.ts";

const groupId = idOf("unq", "The group's id: its oldest question's.");
const resolved = {
  ok: t.Literal(true),
  group_id: groupId,
  resolved: t.Integer({ description: "Questions of the group now closed." }),
};

export const UnansweredModel = {
  tenantQuery: strictObject({ tenant_id: t.Optional(t.String({ maxLength: 64 })) }),
  groupList: t.Object({
    data: t.Array(
      t.Object({
        group_id: groupId,
        question: t.String({ description: "The newest wording." }),
        count: t.Integer(),
        languages: t.Array(oneOf(LANGUAGES)),
        first_seen: isoTime(),
        last_seen: isoTime(),
        examples: t.Array(t.Object({ session_id: t.String(), question: t.String(), asked_at: isoTime() }), {
          description: "Up to three, from different sessions.",
        }),
      }),
    ),
  }),
  faqBody: strictObject({
    answer: t.String({ minLength: 1, maxLength: 2000 }),
    question: t.Optional(
      t.String({ minLength: 1, maxLength: 500, description: "Default: the group's newest wording." }),
    ),
    keywords: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 60 }), { maxItems: 20 })),
  }),
  faqResponse: t.Object({
    ...resolved,
    faq: t.Object({
      id: t.String(),
      question: t.String(),
      answer: t.String(),
      keywords: t.Optional(t.Array(t.String())),
      language: t.Optional(t.String()),
    }),
  }),
  testCaseBody: strictObject({ expect: ChatbotTestModel.createBody.properties.expect }),
  testCaseResponse: t.Object({ ...resolved, case: ChatbotTestModel.caseView }),
  dismissResponse: t.Object(resolved),
} as const;

/** The questions the bot could not answer, grouped, and the one-step fixes of a group. */
export function unansweredRoutes(deps: AppDeps) {
  const access = { tenantAccess: true, rateLimit: "management", query: UnansweredModel.tenantQuery } as const;
  return new Elysia({ prefix: "/api/v1/chatbot/unanswered" })
    .use(securityPlugin(deps))
    .get(
      "/",
      ({ principal, query }) => listUnansweredGroups(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES)),
      {
        ...access,
        response: { 200: UnansweredModel.groupList },
        detail: {
          summary: "List unanswered questions",
          description:
            "Questions the bot could not answer (rule-engine fallback, an assistant answer citing nothing, a hand-off for want of an answer), grouped by similarity, the most recently asked group first.",
        },
      },
    )
    .post(
      "/:id/faq",
      ({ principal, params, query, body }) =>
        answerGroupWithFaq(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), params.id, body),
      {
        ...access,
        params: idParams,
        body: UnansweredModel.faqBody,
        response: { 200: UnansweredModel.faqResponse },
        detail: {
          summary: "Answer a group with an FAQ entry",
          description:
            "Adds the entry to the bot's FAQ (the question defaults to the group's newest wording) and closes the group.",
        },
      },
    )
    .post(
      "/:id/test-case",
      ({ principal, params, query, body }) =>
        addGroupAsTestCase(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), params.id, body),
      {
        ...access,
        params: idParams,
        body: UnansweredModel.testCaseBody,
        response: { 200: UnansweredModel.testCaseResponse },
        detail: {
          summary: "Save a group's question as a test case",
          description:
            "The group's newest wording with `expect`; closes the group. Counts against the plan's case cap.",
        },
      },
    )
    .post(
      "/:id/dismiss",
      ({ principal, params, query }) =>
        dismissGroup(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), params.id),
      {
        ...access,
        params: idParams,
        response: { 200: UnansweredModel.dismissResponse },
        detail: {
          summary: "Dismiss a group",
          description: "Closes it without a fix; the same question asked again starts a new group.",
        },
      },
    );
}
