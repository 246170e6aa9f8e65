import { ACTION_EXPECTATIONS, createTestCase, type ExpectedAction } from "../test-set/cases.ts";
import { runTestSet, type CaseResult, type RunReport } from "../test-set/run-test-set.ts";
import { isLang, type Lang } from "../chat/engine/language.ts";
import { parseCommandArgs, requireFlag } from "./args.ts";
import { withCliDeps } from "./context.ts";
import { formatTable, UsageError, type CliIo } from "./io.ts";

/** `parley bot test` (run the set; exit 1 when a case fails, for a deploy pipeline) and `parley bot test add`. */
export async function botCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    tenant: { type: "string" },
    question: { type: "string", multiple: true },
    contains: { type: "string", multiple: true },
    "not-contains": { type: "string", multiple: true },
    action: { type: "string" },
    source: { type: "string" },
    language: { type: "string" },
    case: { type: "string", multiple: true },
  });
  const [group, action, ...rest] = positionals;
  // Checked before the database is opened: a typo must not create an empty database file.
  if (group !== "test") throw new UsageError(group ? `unknown bot command '${group}'` : "missing command: test");
  if (rest.length > 0 || (action !== undefined && action !== "add"))
    throw new UsageError(`unknown bot test action '${action ?? rest[0]}'`);
  const tenantId = requireFlag(values.tenant, "tenant");
  if (action === "add") {
    const input = caseInput(values);
    return withCliDeps(io, { db: values.db }, async (deps) => {
      const created = await createTestCase(deps, tenantId, input);
      io.out(values.json ? JSON.stringify(created) : `added test case ${created.case_id} to ${tenantId}`);
      return 0;
    });
  }
  return withCliDeps(io, { db: values.db }, async (deps) => {
    const report = await runTestSet(deps, tenantId, { caseIds: values.case });
    io.out(values.json ? JSON.stringify(report) : describeRun(report));
    return report.failed > 0 ? 1 : 0;
  });
}

interface AddFlags {
  question?: string[];
  contains?: string[];
  "not-contains"?: string[];
  action?: string;
  source?: string;
  language?: string;
}

/** The case the flags describe: --question once per visitor turn, --contains / --not-contains once per text. */
function caseInput(values: AddFlags) {
  const turns = values.question ?? [];
  if (turns.length === 0) throw new UsageError("missing --question");
  const action = values.action;
  if (action !== undefined && !ACTION_EXPECTATIONS.some((known) => known === action))
    throw new UsageError(`--action must be one of ${ACTION_EXPECTATIONS.join(", ")}`);
  const language = values.language;
  if (language !== undefined && !isLang(language)) throw new UsageError("--language must be en, pt or es");
  return {
    question: turns.length === 1 ? (turns[0] ?? "") : turns,
    language: (language as Lang | undefined) ?? null,
    expect: {
      ...(values.contains ? { contains: values.contains } : {}),
      ...(values["not-contains"] ? { not_contains: values["not-contains"] } : {}),
      ...(action ? { action: action as ExpectedAction } : {}),
      ...(values.source ? { source: values.source } : {}),
    },
  };
}

const oneLine = (text: string | null, max = 60) => {
  const flat = (text ?? "(silent)").replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function failures(result: CaseResult): string {
  const answer = result.answers[0];
  if (!answer) return "";
  if (answer.error) return answer.error;
  return answer.checks
    .filter((check) => !check.passed)
    .map((check) => `${check.expectation} ${JSON.stringify(check.expected)}`)
    .join("; ");
}

function describeRun(report: RunReport): string {
  const rows = report.results.map((result) => [
    result.case_id,
    result.passed ? "pass" : "FAIL",
    result.engine,
    oneLine(Array.isArray(result.question) ? result.question.join(" / ") : result.question, 40),
    oneLine(result.answers[0]?.reply ?? null),
    failures(result),
  ]);
  const table =
    rows.length > 0
      ? `${formatTable(["CASE", "VERDICT", "ENGINE", "QUESTION", "REPLY", "FAILED CHECKS"], rows)}\n\n`
      : "no test cases: add one with parley bot test add\n";
  const changed = report.changes.filter((change) => change.before !== "new").length;
  return `${table}${report.passed} passed, ${report.failed} failed (run ${report.run_id}${changed > 0 ? `; ${changed} changed since the previous run` : ""})`;
}
