import { createApiKey } from "../../src/auth/api-keys.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import type { TestContext } from "../helpers.ts";

/** A dental clinic on the pro plan (fixed clock: Thu 15 Jan 2026) with an API key's headers. */
export async function clinic(context: TestContext, name = "Smile") {
  const tenant = await createTenant(context.deps, { name, sector: "dental-clinic", plan: "pro" });
  const key = { "x-api-key": (await createApiKey(context.deps, { tenantId: tenant.id })).key };
  return { tenant, key };
}

/** Cases that, in a real conversation, would take a lead, book a slot and hand off. */
export const ACTION_CASES = [
  {
    question: ["I'd like a quote for Invisalign", "Ana Lopez", "(415) 555-0132", "ana@example.com"],
    expect: { action: "lead" },
  },
  {
    question: ["I'd like to book an appointment", "Monday at 10am", "yes", "Ana Lopez", "(415) 555-0132"],
    expect: { action: "booking" },
  },
  { question: "Can I talk to a human please?", expect: { action: "handoff" } },
] as const;

export async function addCase(context: TestContext, key: Record<string, string>, body: unknown) {
  const response = await context.request("POST", "/api/v1/chatbot/tests", { headers: key, body });
  if (response.status !== 201) throw new Error(`adding a case failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { case_id: string };
}

export interface RunResult {
  run_id: string;
  passed: number;
  failed: number;
  changes: Array<{ case_id: string; before: string; after: string }>;
  results: Array<{
    case_id: string;
    passed: boolean;
    engine: string;
    answers: Array<{
      engine: string;
      reply: string | null;
      action: string;
      actions: string[];
      passed: boolean;
      duration_ms: number;
      sources: Array<{ document_id: string }>;
      checks: Array<{ expectation: string; expected: string; passed: boolean }>;
      error?: string;
    }>;
  }>;
}

export async function runSet(context: TestContext, key: Record<string, string>, body?: unknown): Promise<RunResult> {
  const response = await context.request("POST", "/api/v1/chatbot/tests/run", {
    headers: key,
    ...(body === undefined ? {} : { body }),
  });
  if (response.status !== 200) throw new Error(`running the set failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as RunResult;
}
