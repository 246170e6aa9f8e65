import { bigint, index, integer, json, pgTable, text } from "drizzle-orm/pg-core";
import type { CaseExpectation } from "../schema-test-set.ts";
import { tenants } from "./schema.ts";

// The PostgreSQL twin of src/db/schema-test-set.ts (see ./schema.ts).

export const chatbotTests = pgTable(
  "chatbot_tests",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
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
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    passed: integer("passed").notNull(),
    failed: integer("failed").notNull(),
    results: json("results").$type<unknown[]>().notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [index("chatbot_test_runs_tenant_idx").on(table.tenantId, table.id)],
);
