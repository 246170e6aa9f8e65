import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestContext } from "../helpers.ts";
import { addCase, clinic, runSet } from "./helpers.ts";

let context: TestContext;
afterEach(() => context.close());

const HOURS_FAQ = [
  { id: "hours", question: "What are your opening hours?", answer: "We are open Monday to Friday, 8:00 to 18:00." },
];
const HOURS_CASE = {
  question: "What are your opening hours?",
  expect: { contains: ["monday to friday"], not_contains: ["sorry"] },
};

async function withHoursFaq() {
  const { key } = await clinic(context);
  const patched = await context.request("PATCH", "/api/v1/chatbot/config", { headers: key, body: { faq: HOURS_FAQ } });
  expect(patched.status).toBe(200);
  return key;
}

describe("test runs", () => {
  test("a result has the reply, the action, each check's verdict and which engine answered", async () => {
    context = buildTestApp();
    const key = await withHoursFaq();
    const { case_id } = await addCase(context, key, HOURS_CASE);
    const run = await runSet(context, key);
    expect(run.run_id).toMatch(/^run_/);
    expect(run).toMatchObject({ passed: 1, failed: 0, changes: [{ case_id, before: "new", after: "passed" }] });
    expect(run.results[0]).toMatchObject({
      case_id,
      passed: true,
      engine: "rule_engine",
      answers: [
        {
          engine: "rule_engine",
          action: "none",
          checks: [
            { expectation: "contains", expected: "monday to friday", passed: true },
            { expectation: "not_contains", expected: "sorry", passed: true },
          ],
        },
      ],
    });
    expect(run.results[0]?.answers[0]?.reply).toContain("Monday to Friday");
  });

  test("a change that breaks a case shows in the next run and in the kept run, next to the one before", async () => {
    context = buildTestApp();
    const key = await withHoursFaq();
    const { case_id } = await addCase(context, key, HOURS_CASE);
    const first = await runSet(context, key);
    await context.request("PATCH", "/api/v1/chatbot/config", {
      headers: key,
      body: { faq: [{ ...HOURS_FAQ[0], answer: "We open on weekdays only." }] },
    });
    const second = await runSet(context, key);
    expect(second).toMatchObject({ passed: 0, failed: 1, changes: [{ case_id, before: "passed", after: "failed" }] });
    expect(second.results[0]?.answers[0]?.checks[0]).toMatchObject({ expectation: "contains", passed: false });

    const kept = (await (
      await context.request("GET", `/api/v1/chatbot/tests/runs/${second.run_id}`, { headers: key })
    ).json()) as typeof second;
    expect(kept).toMatchObject({
      run_id: second.run_id,
      passed: 0,
      failed: 1,
      changes: [{ case_id, before: "passed", after: "failed" }],
    });
    const list = (await (await context.request("GET", "/api/v1/chatbot/tests/runs", { headers: key })).json()) as {
      data: Array<{ run_id: string; passed: number }>;
    };
    expect(list.data).toEqual([
      expect.objectContaining({ run_id: second.run_id, passed: 0 }),
      expect.objectContaining({ run_id: first.run_id, passed: 1 }),
    ]);
  });

  test("only the named cases run when case_ids is given", async () => {
    context = buildTestApp();
    const key = await withHoursFaq();
    await addCase(context, key, HOURS_CASE);
    const second = await addCase(context, key, {
      question: "Can I talk to a human please?",
      expect: { action: "handoff" },
    });
    const run = await runSet(context, key, { case_ids: [second.case_id] });
    expect(run.results.map((result) => result.case_id)).toEqual([second.case_id]);
    expect(run.results[0]?.answers[0]?.action).toBe("handoff");
  });

  test("the newest 20 runs are kept; older ones are gone", async () => {
    context = buildTestApp();
    const key = await withHoursFaq();
    await addCase(context, key, HOURS_CASE);
    const ids: string[] = [];
    for (let n = 0; n < 22; n++) {
      ids.push((await runSet(context, key)).run_id);
      context.clock.advance(1000);
    }
    const list = (await (await context.request("GET", "/api/v1/chatbot/tests/runs", { headers: key })).json()) as {
      data: Array<{ run_id: string }>;
    };
    expect(list.data.map((run) => run.run_id)).toEqual(ids.slice(2).reverse());
    expect((await context.request("GET", `/api/v1/chatbot/tests/runs/${ids[0]}`, { headers: key })).status).toBe(404);
    const other = await clinic(context, "Other");
    expect((await context.request("GET", `/api/v1/chatbot/tests/runs/${ids[21]}`, { headers: other.key })).status).toBe(
      404,
    );
  });
});

describe("PATCH /chatbot/config?dry_run=true", () => {
  test("runs the set against the proposed configuration without saving it, next to the current results", async () => {
    context = buildTestApp();
    const key = await withHoursFaq();
    const { case_id } = await addCase(context, key, HOURS_CASE);
    await addCase(context, key, { question: "Can I talk to a human please?", expect: { action: "handoff" } });
    const before = await (await context.request("GET", "/api/v1/chatbot/config", { headers: key })).json();
    const broken = { faq: [{ ...HOURS_FAQ[0], answer: "We open on weekdays only." }] };

    const response = await context.request("PATCH", "/api/v1/chatbot/config?dry_run=true", {
      headers: key,
      body: broken,
    });
    expect(response.status).toBe(200);
    const report = (await response.json()) as {
      dry_run: boolean;
      saved: boolean;
      summary: string;
      config: { faq: unknown };
      current: { passed: number };
      proposed: { passed: number; results: Array<{ passed: boolean }> };
      changes: unknown[];
    };
    expect(report).toMatchObject({
      dry_run: true,
      saved: false,
      current: { passed: 2, failed: 0 },
      proposed: { passed: 1, failed: 1 },
      changes: [{ case_id, before: "passed", after: "failed" }],
    });
    expect(report.summary).toBe("2 cases of 2 pass now, 1 would fail after this change");
    expect(report.config.faq).toEqual(broken.faq);
    expect(await (await context.request("GET", "/api/v1/chatbot/config", { headers: key })).json()).toEqual(before);
    // Nothing kept either: a proposal is not a run of the bot.
    expect((await (await context.request("GET", "/api/v1/chatbot/tests/runs", { headers: key })).json()).data).toEqual(
      [],
    );

    const harmless = (await (
      await context.request("PATCH", "/api/v1/chatbot/config?dry_run=true", {
        headers: key,
        body: { greeting: "Hello there!" },
      })
    ).json()) as { summary: string; changes: unknown[] };
    expect(harmless).toMatchObject({ changes: [], summary: "2 cases of 2 pass now, no verdict changes" });
  });

  test("a bad proposal is 422 naming the field, as the save would be", async () => {
    context = buildTestApp();
    const key = await withHoursFaq();
    const response = await context.request("PATCH", "/api/v1/chatbot/config?dry_run=true", {
      headers: key,
      body: { handoff: { low_confidence_threshold: 7 } },
    });
    expect(response.status).toBe(422);
    expect(
      (
        await context.request("PATCH", "/api/v1/chatbot/config?dry_run=maybe", {
          headers: key,
          body: { greeting: "Hi" },
        })
      ).status,
    ).toBe(422);
  });
});
