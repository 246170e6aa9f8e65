import type { chatbotTestRuns, chatbotTests, unansweredQuestions, UNANSWERED_RESOLUTIONS } from "./schema-test-set.ts";

// The owner's bench in the store seam (src/db/store.ts): saved cases, the kept runs, and the
// questions the bot could not answer.

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

export type UnansweredQuestionRow = typeof unansweredQuestions.$inferSelect;
export type UnansweredResolution = (typeof UNANSWERED_RESOLUTIONS)[number];

export interface UnansweredQueries {
  insertUnanswered(row: Omit<UnansweredQuestionRow, "resolvedAt" | "resolution">): Promise<void>;
  /** The tenant's open (unresolved) questions, newest first, at most `limit`. */
  listOpenUnanswered(tenantId: string, limit: number): Promise<UnansweredQuestionRow[]>;
  /** Marks the tenant's open questions among `ids` resolved; answers how many. */
  resolveUnanswered(
    tenantId: string,
    ids: readonly string[],
    resolution: UnansweredResolution,
    resolvedAt: number,
  ): Promise<number>;
}
