import type { Deps } from "../deps.ts";
import type { BotConfig } from "../chat/engine/bot-config.ts";
import { getBotConfig } from "../chat/bot-settings.ts";
import type { ChatbotTestRow, ChatbotTestRunRow } from "../db/store-test-set.ts";
import { resolveAiSettings } from "../assistant/settings.ts";
import { withinAiTokenCap } from "../billing/usage.ts";
import { isPlanName, type PlanName } from "../plans/plans.ts";
import type { KnowledgeProposal } from "../knowledge/tenant-index.ts";
import { AppError } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { caseView, type CaseView } from "./cases.ts";
import { runCaseIn, type EngineAnswer, type EngineName, type SandboxContext } from "./sandbox.ts";

/** Runs kept per tenant: enough to see what changed between two runs, bounded by design. */
export const KEPT_RUNS = 20;
const DAY_MS = 86_400_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const planOf = (plan: string | null): PlanName => (plan !== null && isPlanName(plan) ? plan : "free");

export interface CaseResult {
  case_id: string;
  question: CaseView["question"];
  /** The verdict of the engine that answers visitors (the model when one is configured). */
  passed: boolean;
  engine: EngineName;
  /** That engine first; with a model configured, the rule engine (its fallback) beside it. */
  answers: EngineAnswer[];
}

export interface CaseChange {
  case_id: string;
  before: "passed" | "failed" | "new";
  after: "passed" | "failed";
}

export interface SetOutcome {
  passed: number;
  failed: number;
  results: CaseResult[];
}

export interface RunReport extends SetOutcome {
  run_id: string;
  created_at: string;
  /** Cases whose verdict differs from the previous kept run. */
  changes: CaseChange[];
}

/**
 * Every case through the engines that `config` would use, in a sandbox (./sandbox.ts): nothing
 * is written. With a model configured each case also runs through the rule engine, the answer
 * visitors get whenever the model fails.
 */
export async function evaluateTestSet(
  deps: Deps,
  tenantId: string,
  config: BotConfig,
  cases: readonly ChatbotTestRow[],
  knowledge?: KnowledgeProposal,
): Promise<SetOutcome> {
  const configured = resolveAiSettings(deps, config);
  // Over the month's token cap visitors get the rule engine: so does the run, and it spends no tokens.
  const settings =
    configured && (await withinAiTokenCap(deps, tenantId, planOf(await deps.store.tenants.findTenantPlan(tenantId))))
      ? configured
      : null;
  const engines: EngineName[] = settings ? ["model", "rule_engine"] : ["rule_engine"];
  const nowMs = deps.clock.now();
  const takenSlotStarts = await deps.store.captures.listAppointmentStarts(
    tenantId,
    nowMs - DAY_MS,
    nowMs + (config.appointments.max_days_ahead + 1) * DAY_MS,
  );
  const context: SandboxContext = { tenantId, config, nowMs, takenSlotStarts, knowledge };
  const results: CaseResult[] = [];
  // One case at a time: a run with a model must not flood the tenant's provider. Between cases
  // the event loop gets a turn, so a long rule-engine run (it is CPU only) never holds up chat.
  for (const row of cases) {
    await nextTurn();
    const testCase = { turns: row.turns, language: caseView(row).language, expect: row.expectation };
    const answers: EngineAnswer[] = [];
    for (const engine of engines) answers.push(await runCaseIn(deps, engine, context, settings, testCase));
    const first = answers[0]!;
    results.push({
      case_id: row.id,
      question: caseView(row).question,
      passed: first.passed,
      engine: first.engine,
      answers,
    });
  }
  const passed = results.filter((result) => result.passed).length;
  return { passed, failed: results.length - passed, results };
}

/** The tenant's cases, or the named ones (404 when one is not the tenant's). */
export async function selectCases(
  deps: Deps,
  tenantId: string,
  caseIds?: readonly string[],
): Promise<ChatbotTestRow[]> {
  const all = await deps.store.testSet.listTestCases(tenantId);
  if (!caseIds || caseIds.length === 0) return all;
  const wanted = new Set(caseIds);
  const chosen = all.filter((row) => wanted.has(row.id));
  if (chosen.length !== wanted.size) throw new AppError("test_case_not_found", 404, "No such test case.");
  return chosen;
}

/** Verdict changes from `before` (a previous run's results) to `after`. */
export function changesBetween(before: readonly CaseResult[] | null, after: readonly CaseResult[]): CaseChange[] {
  const previous = new Map((before ?? []).map((result) => [result.case_id, result.passed]));
  const changes: CaseChange[] = [];
  for (const result of after) {
    const was = previous.get(result.case_id);
    if (was === result.passed) continue;
    changes.push({
      case_id: result.case_id,
      before: was === undefined ? "new" : was ? "passed" : "failed",
      after: result.passed ? "passed" : "failed",
    });
  }
  return changes;
}

/**
 * Runs the set (or the named cases) against the current configuration and keeps the run: the
 * run row is the only thing written, and only the newest KEPT_RUNS runs of the tenant stay.
 */
export async function runTestSet(
  deps: Deps,
  tenantId: string,
  options: { caseIds?: readonly string[] } = {},
): Promise<RunReport> {
  const config = await getBotConfig(deps, tenantId);
  const cases = await selectCases(deps, tenantId, options.caseIds);
  const outcome = await evaluateTestSet(deps, tenantId, config, cases);
  const now = deps.clock.now();
  const row: ChatbotTestRunRow = {
    id: newId("run", now),
    tenantId,
    passed: outcome.passed,
    failed: outcome.failed,
    results: outcome.results,
    createdAt: now,
  };
  const previous = await deps.store.transaction(async (tx) => {
    await tx.testSet.insertTestRun(row);
    await tx.testSet.pruneTestRuns(tenantId, KEPT_RUNS);
    return tx.testSet.findPreviousTestRun(tenantId, row.id);
  });
  return {
    run_id: row.id,
    created_at: toIso(now),
    ...outcome,
    changes: changesBetween((previous?.results as CaseResult[] | undefined) ?? null, outcome.results),
  };
}

export interface RunSummaryView {
  run_id: string;
  created_at: string;
  passed: number;
  failed: number;
}

/** The kept runs, newest first, without their results. */
export async function listTestRuns(deps: Deps, tenantId: string): Promise<{ data: RunSummaryView[] }> {
  const rows = await deps.store.testSet.listTestRuns(tenantId, KEPT_RUNS);
  return {
    data: rows.map((row) => ({
      run_id: row.id,
      created_at: toIso(row.createdAt),
      passed: row.passed,
      failed: row.failed,
    })),
  };
}

/** One kept run with its results and what changed since the run before it. */
export async function getTestRun(deps: Deps, tenantId: string, runId: string): Promise<RunReport> {
  const row = await deps.store.testSet.findTestRun(tenantId, runId);
  if (!row) throw new AppError("test_run_not_found", 404, "No such test run.");
  const previous = await deps.store.testSet.findPreviousTestRun(tenantId, runId);
  const results = row.results as CaseResult[];
  return {
    run_id: row.id,
    created_at: toIso(row.createdAt),
    passed: row.passed,
    failed: row.failed,
    results,
    changes: changesBetween((previous?.results as CaseResult[] | undefined) ?? null, results),
  };
}
