import type { chatbotTestRuns, chatbotTests, unansweredQuestions, UNANSWERED_RESOLUTIONS } from "./schema-test-set.ts";

export type ChatbotTestRow = typeof chatbotTests.$inferSelect;
export type ChatbotTestRunRow = typeof chatbotTestRuns.$inferSelect;
export type ChatbotTestRunSummary = Omit<ChatbotTestRunRow, "results">;

export interface TestSetQueries {
  insertTestCase(row: ChatbotTestRow): Promise<void>;
  /** Oldest first; the plan caps how many. */
  listTestCases(tenantId: string): Promise<ChatbotTestRow[]>;
  findTestCase(tenantId: string, caseId: string): Promise<ChatbotTestRow | null>;
  countTestCases(tenantId: string): Promise<number>;
  /** 0 when the case is not the tenant's. */
  updateTestCase(row: Omit<ChatbotTestRow, "createdAt">): Promise<number>;
  deleteTestCase(tenantId: string, caseId: string): Promise<number>;
  insertTestRun(row: ChatbotTestRunRow): Promise<void>;
  /** Deletes all but the tenant's newest `keep` runs. */
  pruneTestRuns(tenantId: string, keep: number): Promise<number>;
  /** Without their results. */
  listTestRuns(tenantId: string, limit: number): Promise<ChatbotTestRunSummary[]>;
  findTestRun(tenantId: string, runId: string): Promise<ChatbotTestRunRow | null>;
  findPreviousTestRun(tenantId: string, runId: string): Promise<ChatbotTestRunRow | null>;
}

export type UnansweredQuestionRow = typeof unansweredQuestions.$inferSelect;
export type UnansweredResolution = (typeof UNANSWERED_RESOLUTIONS)[number];

export interface UnansweredQueries {
  insertUnanswered(row: Omit<UnansweredQuestionRow, "resolvedAt" | "resolution">): Promise<void>;
  /** Unresolved, newest first. */
  listOpenUnanswered(tenantId: string, limit: number): Promise<UnansweredQuestionRow[]>;
  resolveUnanswered(
    tenantId: string,
    ids: readonly string[],
    resolution: UnansweredResolution,
    resolvedAt: number,
  ): Promise<number>;
}
