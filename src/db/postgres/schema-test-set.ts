import { bigint, index, integer, json, pgTable, text } from "drizzle-orm/pg-core";
import { UNANSWERED_RESOLUTIONS, type CaseExpectation } from "../schema-test-set.ts";
import { chatSessions } from "./schema-chat.ts";
import { tenants } from "./schema.ts";

// The PostgreSQL twin of src/db/schema-test-set.ts (see ./schema.ts).

export const chatbotTests = pgTable(
  "chatbot_tests",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    turns: json("turns").$type<string[]>().notNull(),
    language: text("language"),
    expectation: json("expectation").$type<CaseExpectation>().notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (table) => [index("chatbot_tests_tenant_idx").on(table.tenantId, table.id)],
);

export const chatbotTestRuns = pgTable(
  "chatbot_test_runs",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    passed: integer("passed").notNull(),
    failed: integer("failed").notNull(),
    results: json("results").$type<unknown[]>().notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [index("chatbot_test_runs_tenant_idx").on(table.tenantId, table.id)],
);

export const unansweredQuestions = pgTable(
  "unanswered_questions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    sessionId: text("session_id")
      .notNull()
      .references(() => chatSessions.id, { onDelete: "cascade" }),
    question: text("question").notNull(),
    language: text("language"),
    engine: text("engine", { enum: ["rule_engine", "model"] }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    resolvedAt: bigint("resolved_at", { mode: "number" }),
    resolution: text("resolution", { enum: UNANSWERED_RESOLUTIONS }),
  },
  (table) => [
    index("unanswered_questions_open_idx").on(table.tenantId, table.resolvedAt, table.id),
    index("unanswered_questions_session_idx").on(table.sessionId),
  ],
);
