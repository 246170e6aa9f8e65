import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { sessionIdColumn } from "./schema-chat.ts";
import { tenantIdColumn } from "./schema.ts";

/** What a saved case expects of the bot's answer; every field is optional, all given must hold. */
export interface CaseExpectation {
  contains?: string[];
  not_contains?: string[];
  action?: "lead" | "booking" | "handoff" | "none";
  source?: string;
}

/** A saved test case of a tenant: the visitor's turns (one question, or a short conversation) and what the answer must do. */
export const chatbotTests = sqliteTable(
  "chatbot_tests",
  {
    id: text("id").primaryKey(),
    tenantId: tenantIdColumn(),
    /** JSON array of the visitor's messages, in order; the last one's answer is checked. */
    turns: text("turns", { mode: "json" }).$type<string[]>().notNull(),
    /** en, pt or es: the language the conversation starts in; null = detected per message. */
    language: text("language"),
    expectation: text("expectation", { mode: "json" }).$type<CaseExpectation>().notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [index("chatbot_tests_tenant_idx").on(table.tenantId, table.id)],
);

/** One run of a tenant's test set, kept (the newest few) so an owner can compare two runs. */
export const chatbotTestRuns = sqliteTable(
  "chatbot_test_runs",
  {
    id: text("id").primaryKey(),
    tenantId: tenantIdColumn(),
    passed: integer("passed").notNull(),
    failed: integer("failed").notNull(),
    /** JSON array of the per-case results as the API shows them. */
    results: text("results", { mode: "json" }).$type<unknown[]>().notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [index("chatbot_test_runs_tenant_idx").on(table.tenantId, table.id)],
);

export const UNANSWERED_RESOLUTIONS = ["faq", "test_case", "dismissed"] as const;

/**
 * A visitor question the bot could not answer (the rule engine's fallback, a low-confidence
 * hand-off, an assistant answer that cites nothing). It goes with its session: erasing the
 * visitor or the chat retention deletes it (the foreign key cascades).
 */
export const unansweredQuestions = sqliteTable(
  "unanswered_questions",
  {
    id: text("id").primaryKey(),
    tenantId: tenantIdColumn(),
    sessionId: sessionIdColumn(),
    question: text("question").notNull(),
    language: text("language"),
    engine: text("engine", { enum: ["rule_engine", "model"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    /** Set when the owner fixed or dismissed the question's group; such rows are no longer listed. */
    resolvedAt: integer("resolved_at"),
    resolution: text("resolution", { enum: UNANSWERED_RESOLUTIONS }),
  },
  (table) => [
    index("unanswered_questions_open_idx").on(table.tenantId, table.resolvedAt, table.id),
    index("unanswered_questions_session_idx").on(table.sessionId),
  ],
);
