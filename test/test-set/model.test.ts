import { afterEach, describe, expect, test } from "bun:test";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { testSql } from "../helpers.ts";
import { countAiUsage } from "../../src/billing/usage.ts";
import { PLANS } from "../../src/plans/plans.ts";
import { answer, httpError, startFakeProvider, toolCall, type FakeProvider } from "../assistant/fake-provider.ts";
import { assistantFixture, WHITENING_ANSWER, type AssistantFixture } from "../assistant/setup.ts";
import { addCase, runSet } from "./helpers.ts";

let provider: FakeProvider;
let fixture: AssistantFixture;
afterEach(() => {
  fixture?.context.close();
  provider?.stop();
});

async function setup() {
  provider = startFakeProvider();
  fixture = await assistantFixture(provider);
  return { "x-api-key": (await createApiKey(fixture.context.deps, { tenantId: fixture.tenantId })).key };
}

const tracesOf = async () => {
  const sql = await testSql(fixture.context.deps);
  return sql.all(
    "SELECT (SELECT count(*) FROM chat_messages) AS m, (SELECT count(*) FROM leads) AS l, (SELECT count(*) FROM events) AS e, (SELECT count(*) FROM usage_counters) AS u",
  );
};

describe("a test run with a model configured", () => {
  test("each case is answered by the model and by the rule engine, side by side, with the model's sources", async () => {
    const key = await setup();
    await addCase(fixture.context, key, {
      question: "How much does teeth whitening cost?",
      expect: { contains: ["249"] },
    });
    provider.script(answer("Whitening is 249 dollars a session [1]."));
    const run = await runSet(fixture.context, key);
    const [result] = run.results;
    expect(result).toMatchObject({ passed: true, engine: "model" });
    expect(result?.answers.map((entry) => entry.engine)).toEqual(["model", "rule_engine"]);
    expect(result?.answers[0]).toMatchObject({
      reply: "Whitening is 249 dollars a session.",
      passed: true,
      action: "none",
    });
    expect(result?.answers[0]?.sources.length).toBe(1);
    expect(result?.answers[1]).toMatchObject({ passed: true, sources: [] });
    expect(result?.answers[1]?.reply).toStartWith(WHITENING_ANSWER);
    expect(result?.answers.every((entry) => entry.duration_ms >= 0)).toBe(true);
  });

  test("the model's tool calls are reported as the action it would have taken, and nothing is stored or counted", async () => {
    const key = await setup();
    await addCase(fixture.context, key, {
      question: "I'm Ana Lopez, (415) 555-0132, ana@example.com, I want Invisalign",
      expect: { action: "lead" },
    });
    provider.script(
      toolCall("capture_lead", {
        name: "Ana Lopez",
        phone: "(415) 555-0132",
        email: "ana@example.com",
        interest: "Invisalign",
      }),
      answer("Thanks Ana, the team will call you."),
    );
    const before = await tracesOf();
    const run = await runSet(fixture.context, key);
    expect(run.results[0]?.answers[0]).toMatchObject({
      engine: "model",
      action: "lead",
      passed: true,
      reply: "Thanks Ana, the team will call you.",
    });
    expect(run.results[0]?.answers[1]).toMatchObject({ engine: "rule_engine", action: "lead" });
    expect(provider.requests.length).toBe(2);
    // No messages, no lead, no event and no AI usage (tokens) were recorded.
    expect(await tracesOf()).toEqual(before);
  });

  test("a model failure fails the case and says so; the rule engine's answer stands beside it", async () => {
    const key = await setup();
    await addCase(fixture.context, key, {
      question: "How much does teeth whitening cost?",
      expect: { contains: ["249"] },
    });
    provider.script(httpError(500), httpError(500), httpError(500));
    const run = await runSet(fixture.context, key);
    expect(run).toMatchObject({ passed: 0, failed: 1 });
    expect(run.results[0]?.answers[0]).toMatchObject({ engine: "model", reply: null, passed: false });
    expect(run.results[0]?.answers[0]?.error).toContain("rule engine");
    expect(run.results[0]?.answers[1]).toMatchObject({ engine: "rule_engine", passed: true });
  });

  test("an assistant answer that cites nothing to a question is recorded as unanswered; a cited one is not", async () => {
    const key = await setup();
    provider.script(
      answer("I'm sorry, I don't have that information. Shall I put you in touch with the team?"),
      answer("Whitening is 249 dollars a session [1]."),
    );
    await fixture.send("Do you accept pets in the waiting room?");
    await fixture.send("How much does teeth whitening cost?");
    const listed = (await (
      await fixture.context.request("GET", "/api/v1/chatbot/unanswered", { headers: key })
    ).json()) as { data: Array<{ question: string; count: number; examples: Array<{ session_id: string }> }> };
    expect(listed.data).toEqual([
      expect.objectContaining({
        question: "Do you accept pets in the waiting room?",
        count: 1,
        examples: [expect.objectContaining({ session_id: fixture.sessionId })],
      }),
    ]);
  });

  test("over the month's token cap the run uses the rule engine alone, as visitors get it, and calls no model", async () => {
    const key = await setup();
    await addCase(fixture.context, key, {
      question: "How much does teeth whitening cost?",
      expect: { contains: ["249"] },
    });
    const deps = fixture.context.deps;
    await deps.store.transaction((tx) =>
      countAiUsage(deps, tx, fixture.tenantId, {
        calls: 1,
        promptTokens: PLANS.pro.monthlyAiTokens,
        completionTokens: 0,
      }),
    );
    const run = await runSet(fixture.context, key);
    expect(run.results[0]).toMatchObject({ passed: true, engine: "rule_engine" });
    expect(run.results[0]?.answers.map((entry) => entry.engine)).toEqual(["rule_engine"]);
    expect(provider.requests).toEqual([]);
  });
});
