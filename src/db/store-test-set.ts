import type { chatbotTestRuns, chatbotTests } from "./schema-test-set.ts";

// The owner's test set of the store seam (src/db/store.ts): saved cases and the kept runs.

export type ChatbotTestRow = typeof chatbotTests.$inferSelect;
export type ChatbotTestRunRow = typeof chatbotTestRuns.$inferSelect;
export type ChatbotTestRunSummary = Omit<ChatbotTestRunRow, "results">;

export interface TestSetQueries {
  insertTestCase(row: ChatbotTestRow): Promise<void>;
  /** Every case of the tenant, oldest first (the plan caps how many there are). */
  listTestCases(tenantId: string): Promise<ChatbotTestRow[]>;
  findTestCase(tenantId: string, caseId: string): Promise<ChatbotTestRow | null>;
  countTestCases(tenantId: string): Promise<number>;
  /** Rows changed: 0 when the case is not the tenant's. */
  updateTestCase(row: Omit<ChatbotTestRow, "createdAt">): Promise<number>;
  deleteTestCase(tenantId: string, caseId: string): Promise<number>;
  insertTestRun(row: ChatbotTestRunRow): Promise<void>;
  /** Deletes all but the tenant's newest `keep` runs. */
  pruneTestRuns(tenantId: string, keep: number): Promise<number>;
  /** The newest `limit` runs, without their results. */
  listTestRuns(tenantId: string, limit: number): Promise<ChatbotTestRunSummary[]>;
  findTestRun(tenantId: string, runId: string): Promise<ChatbotTestRunRow | null>;
  /** The run just before `runId` (by id), or null. */
  findPreviousTestRun(tenantId: string, runId: string): Promise<ChatbotTestRunRow | null>;
}
