import { chatbotTestRuns, chatbotTests, unansweredQuestions } from "../schema.ts";
import { asNumber, insertRow, many, one, type Ops, parsedJson, write } from "../statements.ts";
import type { ChatbotTestRow, ChatbotTestRunRow, TestSetQueries, UnansweredQueries } from "../store-test-set.ts";

const caseOf = (row: ChatbotTestRow): ChatbotTestRow => ({
  ...row,
  turns: parsedJson(row.turns),
  expectation: parsedJson(row.expectation),
});
const runOf = (row: ChatbotTestRunRow): ChatbotTestRunRow => ({ ...row, results: parsedJson(row.results) });

export const TEST_SET_OPS: Ops<TestSetQueries> = {
  insertTestCase: insertRow(chatbotTests),
  listTestCases: many(
    (d) => `SELECT ${d.columns(chatbotTests)} FROM chatbot_tests WHERE tenant_id = $1 ORDER BY id`,
    (tenantId) => [tenantId],
    (rows: ChatbotTestRow[]) => rows.map(caseOf),
  ),
  findTestCase: one(
    (d) => `SELECT ${d.columns(chatbotTests)} FROM chatbot_tests WHERE tenant_id = $1 AND id = $2`,
    (tenantId, caseId) => [tenantId, caseId],
    (row: ChatbotTestRow | null) => (row ? caseOf(row) : null),
  ),
  countTestCases: one(
    "SELECT count(*) AS n FROM chatbot_tests WHERE tenant_id = $1",
    (tenantId) => [tenantId],
    (row: { n: unknown } | null) => asNumber(row?.n),
  ),
  updateTestCase: write(
    (d) =>
      `UPDATE chatbot_tests SET turns = ${d.json("$3")}, language = $4, expectation = ${d.json("$5")}, updated_at = $6 WHERE tenant_id = $1 AND id = $2`,
    (row) => [
      row.tenantId,
      row.id,
      JSON.stringify(row.turns),
      row.language,
      JSON.stringify(row.expectation),
      row.updatedAt,
    ],
  ),
  deleteTestCase: write("DELETE FROM chatbot_tests WHERE tenant_id = $1 AND id = $2", (tenantId, caseId) => [
    tenantId,
    caseId,
  ]),
  insertTestRun: insertRow(chatbotTestRuns),
  pruneTestRuns: write(
    "DELETE FROM chatbot_test_runs WHERE tenant_id = $1 AND id NOT IN (SELECT id FROM chatbot_test_runs WHERE tenant_id = $1 ORDER BY id DESC LIMIT $2)",
    (tenantId, keep) => [tenantId, keep],
  ),
  listTestRuns: many(
    'SELECT id, tenant_id AS "tenantId", passed, failed, created_at AS "createdAt" FROM chatbot_test_runs WHERE tenant_id = $1 ORDER BY id DESC LIMIT $2',
    (tenantId, limit) => [tenantId, limit],
    (rows: Array<{ id: string; tenantId: string; passed: unknown; failed: unknown; createdAt: unknown }>) =>
      rows.map((row) => ({
        ...row,
        passed: asNumber(row.passed),
        failed: asNumber(row.failed),
        createdAt: asNumber(row.createdAt),
      })),
  ),
  findTestRun: one(
    (d) => `SELECT ${d.columns(chatbotTestRuns)} FROM chatbot_test_runs WHERE tenant_id = $1 AND id = $2`,
    (tenantId, runId) => [tenantId, runId],
    (row: ChatbotTestRunRow | null) => (row ? runOf(row) : null),
  ),
  findPreviousTestRun: one(
    (d) =>
      `SELECT ${d.columns(chatbotTestRuns)} FROM chatbot_test_runs WHERE tenant_id = $1 AND id < $2 ORDER BY id DESC LIMIT 1`,
    (tenantId, runId) => [tenantId, runId],
    (row: ChatbotTestRunRow | null) => (row ? runOf(row) : null),
  ),
};

export const UNANSWERED_OPS: Ops<UnansweredQueries> = {
  insertUnanswered: insertRow(unansweredQuestions),
  listOpenUnanswered: many(
    (d) =>
      `SELECT ${d.columns(unansweredQuestions)} FROM unanswered_questions WHERE tenant_id = $1 AND resolved_at IS NULL ORDER BY id DESC LIMIT $2`,
    (tenantId, limit) => [tenantId, limit],
  ),
  resolveUnanswered: write(
    (d) =>
      `UPDATE unanswered_questions SET resolved_at = $4, resolution = $3 WHERE tenant_id = $1 AND resolved_at IS NULL AND ${d.inList("id", "$2")}`,
    (tenantId, ids, resolution, resolvedAt) => [tenantId, ids, resolution, resolvedAt],
  ),
};
