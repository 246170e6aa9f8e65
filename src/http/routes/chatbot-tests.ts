import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { deletedResponse, idOf, isoTime, oneOf } from "../response-schemas.ts";
import { LANGUAGES } from "../../chat/engine/language.ts";
import {
  ACTION_EXPECTATIONS,
  createTestCase,
  deleteTestCase,
  listTestCases,
  MAX_CASE_TURNS,
  MAX_TURN_LENGTH,
  requireTestCase,
  caseView,
  updateTestCase,
} from "../../test-set/cases.ts";
import { getTestRun, listTestRuns, runTestSet } from "../../test-set/run-test-set.ts";

const tenantIdField = t.Optional(t.String({ maxLength: 64 }));
const texts = t.Array(t.String({ minLength: 1, maxLength: 200 }), { maxItems: 10 });
const turn = t.String({ minLength: 1, maxLength: MAX_TURN_LENGTH });

const expectSchema = strictObject({
  contains: t.Optional(
    t.Array(t.String({ minLength: 1, maxLength: 200 }), {
      maxItems: 10,
      description: "Each text must be in the answer to the last turn (case and accents ignored).",
      examples: [["Monday"]],
    }),
  ),
  not_contains: t.Optional(
    t.Array(t.String({ minLength: 1, maxLength: 200 }), {
      maxItems: 10,
      description: "None of these may be in that answer.",
    }),
  ),
  action: t.Optional(
    oneOf(ACTION_EXPECTATIONS, {
      description: "What the conversation must lead to; none = no lead, booking or hand-off.",
    }),
  ),
  source: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 64,
      description: "A knowledge document_id the answer must cite (assistant answers only).",
    }),
  ),
});
const question = t.Union([turn, t.Array(turn, { minItems: 1, maxItems: MAX_CASE_TURNS })], {
  description: "One question, or a short conversation: the visitor's turns in order (the last answer is checked).",
  examples: ["What are your opening hours?"],
});
const language = t.Nullable(
  oneOf(LANGUAGES, { description: "The language the conversation starts in; null = detected per message." }),
);

const caseSchema = t.Object({
  case_id: idOf("case"),
  question,
  language,
  expect: t.Object({
    contains: t.Optional(texts),
    not_contains: t.Optional(texts),
    action: t.Optional(oneOf(ACTION_EXPECTATIONS)),
    source: t.Optional(t.String()),
  }),
  created_at: isoTime(),
  updated_at: isoTime(),
});

const answerSchema = t.Object({
  engine: oneOf(["model", "rule_engine"] as const),
  reply: t.Nullable(
    t.String({ description: "The answer to the last turn; null when a person had taken the conversation." }),
  ),
  sources: t.Array(t.Object({ document_id: t.String(), title: t.String(), url: t.Optional(t.String()) })),
  action: oneOf(["lead", "booking", "handoff", "none"] as const, {
    description: "What the bot would have done (nothing is stored).",
  }),
  actions: t.Array(oneOf(["lead", "booking", "handoff"] as const)),
  checks: t.Array(
    t.Object({
      expectation: oneOf(["contains", "not_contains", "action", "source"] as const),
      expected: t.String(),
      passed: t.Boolean(),
    }),
  ),
  passed: t.Boolean(),
  duration_ms: t.Number(),
  error: t.Optional(t.String()),
});
const caseResultSchema = t.Object({
  case_id: t.String(),
  question,
  passed: t.Boolean({ description: "The verdict of the engine that answers visitors." }),
  engine: oneOf(["model", "rule_engine"] as const),
  answers: t.Array(answerSchema, {
    description: "That engine first; with a model configured, the rule engine (its fallback) beside it.",
  }),
});
const changeSchema = t.Object({
  case_id: t.String(),
  before: oneOf(["passed", "failed", "new"] as const),
  after: oneOf(["passed", "failed"] as const),
});
const outcomeSchema = t.Object({ passed: t.Integer(), failed: t.Integer(), results: t.Array(caseResultSchema) });
/** A dry run's answer (src/test-set/dry-run.ts): the set as things are and as the change would leave them. */
export const dryRunSchema = t.Object({
  dry_run: t.Literal(true),
  saved: t.Literal(false),
  summary: t.String({ examples: ["3 cases of 4 pass now, 1 would fail after this change"] }),
  current: outcomeSchema,
  proposed: outcomeSchema,
  changes: t.Array(changeSchema),
});
export const dryRunQuery = strictObject({
  tenant_id: tenantIdField,
  dry_run: t.Optional(
    t.BooleanString({
      description: "true: change nothing; run the test set against the current and the proposed state and answer both.",
    }),
  ),
});
const runSchema = t.Composite([
  t.Object({
    run_id: idOf("run"),
    created_at: isoTime(),
    changes: t.Array(changeSchema, { description: "Verdicts that differ from the run before." }),
  }),
  outcomeSchema,
]);

export const ChatbotTestModel = {
  createBody: strictObject({ question, language: t.Optional(language), expect: expectSchema }),
  patchBody: strictObject({
    question: t.Optional(question),
    language: t.Optional(language),
    expect: t.Optional(expectSchema),
  }),
  runBody: t.Optional(
    strictObject({
      case_ids: t.Optional(
        t.Array(t.String({ maxLength: 64 }), {
          minItems: 1,
          maxItems: 2000,
          description: "Only these cases; absent = every case.",
        }),
      ),
    }),
  ),
  tenantQuery: strictObject({ tenant_id: tenantIdField }),
  caseView: caseSchema,
  caseList: t.Object({ data: t.Array(caseSchema) }),
  runView: runSchema,
  runList: t.Object({
    data: t.Array(t.Object({ run_id: idOf("run"), created_at: isoTime(), passed: t.Integer(), failed: t.Integer() })),
  }),
  deleteResponse: deletedResponse("case_id", "case"),
} as const;

/** The owner's test set: saved cases, sandboxed runs that leave no trace, the kept runs. */
export function chatbotTestRoutes(deps: AppDeps) {
  const access = { tenantAccess: true, rateLimit: "management", query: ChatbotTestModel.tenantQuery } as const;
  return new Elysia({ prefix: "/api/v1/chatbot/tests" })
    .use(securityPlugin(deps))
    .post(
      "/",
      async ({ principal, query, body, set }) => {
        const created = await createTestCase(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), body);
        set.status = 201;
        return created;
      },
      {
        ...access,
        body: ChatbotTestModel.createBody,
        response: { 201: ChatbotTestModel.caseView },
        detail: {
          summary: "Add a test case",
          description:
            "A question (or a short conversation) and what the answer must do. Past the plan's case cap, 402 plan_limit.",
        },
      },
    )
    .get("/", ({ principal, query }) => listTestCases(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES)), {
      ...access,
      response: { 200: ChatbotTestModel.caseList },
      detail: {
        summary: "List test cases",
        description: "Every case of the tenant, oldest first (the plan caps how many).",
      },
    })
    .post(
      "/run",
      ({ principal, query, body }) =>
        runTestSet(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), { caseIds: body?.case_ids }),
      {
        ...access,
        body: ChatbotTestModel.runBody,
        response: { 200: ChatbotTestModel.runView },
        detail: {
          summary: "Run the test set",
          description:
            "Every case (or case_ids) against the current configuration in a sandbox: a throwaway conversation per case, and no session, message, lead, appointment, event, delivery or usage is stored. The run is kept (the newest 20).",
        },
      },
    )
    .get("/runs", ({ principal, query }) => listTestRuns(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES)), {
      ...access,
      response: { 200: ChatbotTestModel.runList },
      detail: {
        summary: "List kept test runs",
        description: "The newest 20 runs, newest first, without their results.",
      },
    })
    .get(
      "/runs/:id",
      ({ principal, params, query }) =>
        getTestRun(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), params.id),
      {
        ...access,
        params: idParams,
        response: { 200: ChatbotTestModel.runView },
        detail: {
          summary: "Read a kept test run",
          description: "Its results, and the verdicts that changed since the run before it.",
        },
      },
    )
    .get(
      "/:id",
      async ({ principal, params, query }) =>
        caseView(await requireTestCase(deps.store, tenantOf(principal, query.tenant_id, MANAGER_ROLES), params.id)),
      {
        ...access,
        params: idParams,
        response: { 200: ChatbotTestModel.caseView },
        detail: { summary: "Read a test case", description: "Another tenant's case is 404." },
      },
    )
    .patch(
      "/:id",
      ({ principal, params, query, body }) =>
        updateTestCase(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), params.id, body),
      {
        ...access,
        params: idParams,
        body: ChatbotTestModel.patchBody,
        response: { 200: ChatbotTestModel.caseView },
        detail: {
          summary: "Update a test case",
          description: "Send only what changes: question, language or the whole expect object.",
        },
      },
    )
    .delete(
      "/:id",
      async ({ principal, params, query }) => {
        await deleteTestCase(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), params.id);
        return { ok: true, case_id: params.id, deleted: true };
      },
      {
        ...access,
        params: idParams,
        response: { 200: ChatbotTestModel.deleteResponse },
        detail: { summary: "Delete a test case", description: "Kept runs keep its past results." },
      },
    );
}
