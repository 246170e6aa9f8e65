import type { Deps } from "../deps.ts";
import type { StoreQueries } from "../db/store.ts";
import type { ChatbotTestRow } from "../db/store-test-set.ts";
import type { CaseExpectation } from "../db/schema-test-set.ts";
import { assertPlanRoom } from "../plans/plan-cap.ts";
import { AppError } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { invalidField } from "../lib/validate.ts";
import type { Lang } from "../chat/engine/language.ts";

export const ACTION_EXPECTATIONS = ["lead", "booking", "handoff", "none"] as const;
export type ExpectedAction = (typeof ACTION_EXPECTATIONS)[number];
export const MAX_CASE_TURNS = 10;
export const MAX_TURN_LENGTH = 2000;

/** A case as the API and the CLI take it: one question, or a short conversation (the visitor's turns). */
export interface CaseInput {
  question: string | string[];
  language?: Lang | null;
  expect: CaseExpectation;
}

export interface CaseView {
  case_id: string;
  /** One question as a string; a conversation as the visitor's turns, in order. */
  question: string | string[];
  language: Lang | null;
  expect: CaseExpectation;
  created_at: string;
  updated_at: string;
}

export const caseView = (row: ChatbotTestRow): CaseView => ({
  case_id: row.id,
  question: row.turns.length === 1 ? (row.turns[0] ?? "") : row.turns,
  language: (row.language as Lang | null) ?? null,
  expect: row.expectation,
  created_at: toIso(row.createdAt),
  updated_at: toIso(row.updatedAt),
});

/** The visitor's turns, trimmed; 422 naming the field when one is empty or there are none. */
function turnsOf(question: string | string[]): string[] {
  const turns = (typeof question === "string" ? [question] : question).map((turn) => turn.trim());
  if (turns.length < 1 || turns.length > MAX_CASE_TURNS)
    throw invalidField("question", `must be a question or a conversation of 1 to ${MAX_CASE_TURNS} visitor turns`);
  if (turns.some((turn) => turn.length < 1 || turn.length > MAX_TURN_LENGTH))
    throw invalidField("question", `every turn must be 1 to ${MAX_TURN_LENGTH} characters`);
  return turns;
}

/** Drops empty lists; a case that expects nothing would pass whatever the bot says. */
function expectationOf(expect: CaseExpectation): CaseExpectation {
  const clean = (texts: string[] | undefined) => texts?.map((text) => text.trim()).filter((text) => text.length > 0);
  const contains = clean(expect.contains);
  const notContains = clean(expect.not_contains);
  const out: CaseExpectation = {
    ...(contains?.length ? { contains } : {}),
    ...(notContains?.length ? { not_contains: notContains } : {}),
    ...(expect.action ? { action: expect.action } : {}),
    ...(expect.source ? { source: expect.source } : {}),
  };
  if (Object.keys(out).length === 0)
    throw invalidField("expect", "needs at least one of contains, not_contains, action or source");
  return out;
}

/** Refuses a case past the plan's cap (402 plan_limit): a run replays every case, so the cap also bounds what one run costs. */
const assertCaseRoom = (db: StoreQueries, tenantId: string): Promise<void> =>
  assertPlanRoom(db, tenantId, {
    limit: "test_cases",
    noun: "test cases",
    max: (plan) => plan.testCases,
    count: () => db.testSet.countTestCases(tenantId),
  });

export async function createTestCase(deps: Deps, tenantId: string, input: CaseInput): Promise<CaseView> {
  const turns = turnsOf(input.question);
  const expectation = expectationOf(input.expect);
  const now = deps.clock.now();
  const row: ChatbotTestRow = {
    id: newId("case", now),
    tenantId,
    turns,
    language: input.language ?? null,
    expectation,
    createdAt: now,
    updatedAt: now,
  };
  // Counted and inserted in one transaction: two creates at the cap cannot both get in.
  await deps.store.transaction(async (tx) => {
    await assertCaseRoom(tx, tenantId);
    await tx.testSet.insertTestCase(row);
  });
  return caseView(row);
}

export async function listTestCases(deps: Deps, tenantId: string): Promise<{ data: CaseView[] }> {
  return { data: (await deps.store.testSet.listTestCases(tenantId)).map(caseView) };
}

/** Another tenant's case is "not found", never "forbidden": its existence is not revealed. */
export async function requireTestCase(db: StoreQueries, tenantId: string, caseId: string): Promise<ChatbotTestRow> {
  const row = await db.testSet.findTestCase(tenantId, caseId);
  if (!row) throw new AppError("test_case_not_found", 404, "No such test case.");
  return row;
}

export async function updateTestCase(
  deps: Deps,
  tenantId: string,
  caseId: string,
  patch: Partial<CaseInput>,
): Promise<CaseView> {
  return deps.store.transaction(async (tx) => {
    const current = await requireTestCase(tx, tenantId, caseId);
    const row = {
      ...current,
      turns: patch.question === undefined ? current.turns : turnsOf(patch.question),
      language: patch.language === undefined ? current.language : patch.language,
      expectation: patch.expect === undefined ? current.expectation : expectationOf(patch.expect),
      updatedAt: deps.clock.now(),
    };
    await tx.testSet.updateTestCase(row);
    return caseView(row);
  });
}

export async function deleteTestCase(deps: Deps, tenantId: string, caseId: string): Promise<void> {
  if ((await deps.store.testSet.deleteTestCase(tenantId, caseId)) === 0)
    throw new AppError("test_case_not_found", 404, "No such test case.");
}
