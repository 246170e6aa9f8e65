import { afterEach, describe, expect, test } from "bun:test";
import { createUser } from "../../src/auth/create-user.ts";
import { PLANS } from "../../src/plans/plans.ts";
import { buildTestApp, login, seedTenant, testSql, type TestContext } from "../helpers.ts";
import { addCase, clinic } from "./helpers.ts";

let context: TestContext;
afterEach(() => context.close());

const CASES = "/api/v1/chatbot/tests";
const HOURS_CASE = {
  question: "What are your opening hours?",
  language: "en",
  expect: { contains: ["Monday"], action: "none" },
};

describe("test cases API", () => {
  test("an API key adds, lists, reads, updates and deletes a case", async () => {
    context = buildTestApp();
    const { key } = await clinic(context);
    const created = await context.request("POST", CASES, { headers: key, body: HOURS_CASE });
    expect(created.status).toBe(201);
    const view = (await created.json()) as { case_id: string; question: string; expect: unknown; language: string };
    expect(view).toMatchObject({
      question: "What are your opening hours?",
      language: "en",
      expect: { contains: ["Monday"], action: "none" },
    });
    expect(view.case_id).toMatch(/^case_/);

    const conversation = await addCase(context, key, {
      question: ["I'd like a quote", "Ana Lopez"],
      expect: { action: "lead" },
    });
    const list = (await (await context.request("GET", CASES, { headers: key })).json()) as {
      data: Array<{ case_id: string; question: unknown }>;
    };
    expect(list.data.map((row) => row.case_id)).toEqual([view.case_id, conversation.case_id]);
    expect(list.data[1]?.question).toEqual(["I'd like a quote", "Ana Lopez"]);

    const patched = await context.request("PATCH", `${CASES}/${view.case_id}`, {
      headers: key,
      body: { expect: { not_contains: ["closed"] } },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      question: "What are your opening hours?",
      expect: { not_contains: ["closed"] },
    });
    expect(await (await context.request("GET", `${CASES}/${view.case_id}`, { headers: key })).json()).toMatchObject({
      expect: { not_contains: ["closed"] },
    });

    const deleted = await context.request("DELETE", `${CASES}/${view.case_id}`, { headers: key });
    expect(await deleted.json()).toEqual({ ok: true, case_id: view.case_id, deleted: true });
    expect((await context.request("GET", `${CASES}/${view.case_id}`, { headers: key })).status).toBe(404);
  });

  test("another tenant's case is 404 to read, change, delete or run", async () => {
    context = buildTestApp();
    const mine = await clinic(context, "Mine");
    const theirs = await clinic(context, "Theirs");
    const { case_id } = await addCase(context, theirs.key, HOURS_CASE);
    expect((await context.request("GET", `${CASES}/${case_id}`, { headers: mine.key })).status).toBe(404);
    expect(
      (await context.request("PATCH", `${CASES}/${case_id}`, { headers: mine.key, body: { language: "pt" } })).status,
    ).toBe(404);
    expect((await context.request("DELETE", `${CASES}/${case_id}`, { headers: mine.key })).status).toBe(404);
    const run = await context.request("POST", `${CASES}/run`, { headers: mine.key, body: { case_ids: [case_id] } });
    expect(run.status).toBe(404);
    expect(await run.json()).toMatchObject({ error: "test_case_not_found" });
    expect((await (await context.request("GET", CASES, { headers: mine.key })).json()).data).toEqual([]);
    expect((await (await context.request("GET", `${CASES}/${case_id}`, { headers: theirs.key })).json()).language).toBe(
      "en",
    );
  });

  test("an owner's Bearer token manages cases; an agent's is refused", async () => {
    context = buildTestApp();
    const seeded = await seedTenant(context.deps, "Desk");
    const owner = { authorization: `Bearer ${(await login(context, seeded.email)).access_token}` };
    expect((await context.request("POST", CASES, { headers: owner, body: HOURS_CASE })).status).toBe(201);
    await createUser(context.deps, {
      email: "agent@desk.test",
      tenantId: seeded.tenant.id,
      role: "agent",
      password: "correct horse battery",
    });
    const agent = { authorization: `Bearer ${(await login(context, "agent@desk.test")).access_token}` };
    expect((await context.request("GET", CASES, { headers: agent })).status).toBe(403);
    expect((await context.request("GET", CASES)).status).toBe(401);
  });

  test("bad cases are 422 naming the field, never stored", async () => {
    context = buildTestApp();
    const { key } = await clinic(context);
    const refused = async (body: unknown) => {
      const response = await context.request("POST", CASES, { headers: key, body });
      expect(response.status).toBe(422);
      return (await response.json()) as { error: string; message: string };
    };
    expect((await refused({ question: "hi", expect: {} })).message).toContain("expect");
    expect((await refused({ question: "   ", expect: { action: "none" } })).message).toContain("question");
    await refused({ question: [], expect: { action: "none" } });
    await refused({ question: "hi", expect: { action: "refund" } });
    await refused({ question: "hi", expect: { action: "none" }, language: "fr" });
    await refused({ question: "hi", expect: { action: "none", extra: true } });
    expect((await (await context.request("GET", CASES, { headers: key })).json()).data).toEqual([]);
  });

  test("past the plan's cap a new case is 402 plan_limit naming the cap", async () => {
    context = buildTestApp();
    const { tenant, key } = await clinic(context);
    await context.request("PUT", "/api/v1/subscription", { headers: key, body: { plan: "free" } });
    const max = PLANS.free.testCases;
    // Planted directly: the cap is what is under test, not a few dozen requests.
    const sql = await testSql(context.deps);
    for (let n = 0; n < max; n++) {
      await sql.run(
        "INSERT INTO chatbot_tests (id, tenant_id, turns, language, expectation, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, 1, 1)",
        `case_planted${String(n).padStart(14, "0")}`,
        tenant.id,
        '["hi"]',
        '{"action":"none"}',
      );
    }
    const response = await context.request("POST", CASES, { headers: key, body: HOURS_CASE });
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({
      error: "plan_limit",
      details: { limit: "test_cases", max, current: max },
    });
  });
});
