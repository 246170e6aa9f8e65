import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, testSql, type TestContext } from "../helpers.ts";
import { openWidgetSession, say, subscribeToEverything } from "../http/chat-helpers.ts";
import { ACTION_CASES, addCase, clinic, runSet } from "./helpers.ts";

let context: TestContext;
afterEach(() => context.close());

const TRACES = [
  "chat_sessions",
  "chat_messages",
  "leads",
  "appointments",
  "events",
  "deliveries",
  "delivery_attempts",
  "dead_letters",
  "usage_counters",
  "analytics_events",
];

async function rowCounts(): Promise<Record<string, number>> {
  const sql = await testSql(context.deps);
  const counts: Record<string, number> = {};
  for (const table of TRACES)
    counts[table] = (await sql.get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS n FROM ${table}`))?.n ?? -1;
  return counts;
}

describe("running the test set", () => {
  test("leaves no trace: sessions, messages, leads, appointments, events, deliveries and usage are unchanged", async () => {
    context = buildTestApp({ allowPrivateWebhooks: true });
    const { tenant, key } = await clinic(context);
    await subscribeToEverything(context, tenant.id);
    for (const body of ACTION_CASES) await addCase(context, key, body);
    // A real visitor first, so there are rows to count and a booked slot the sandbox must respect.
    const visitor = await openWidgetSession(context, tenant.id);
    await say(context, visitor.access_token, tenant.id, "what are your opening hours?");
    const before = await rowCounts();
    expect(before.chat_sessions).toBe(1);
    expect(before.usage_counters).toBe(1);

    const run = await runSet(context, key);
    expect(run.results.map((result) => result.answers[0]?.action)).toEqual(["lead", "booking", "handoff"]);
    expect(run).toMatchObject({ passed: 3, failed: 0 });
    expect(await rowCounts()).toEqual(before);

    // The same conversation from a real visitor does leave rows: the counts above can change.
    const real = await openWidgetSession(context, tenant.id);
    for (const message of ACTION_CASES[0].question) await say(context, real.access_token, tenant.id, message);
    const after = await rowCounts();
    expect(after.leads).toBe(before.leads! + 1);
    expect(after.chat_sessions).toBe(before.chat_sessions! + 1);
  });

  test("a booked slot stays free for visitors, and a slot a visitor holds fails the sandboxed booking", async () => {
    context = buildTestApp();
    const { tenant, key } = await clinic(context);
    await addCase(context, key, { question: [...ACTION_CASES[1].question], expect: { action: "booking" } });
    expect((await runSet(context, key)).passed).toBe(1);
    expect((await runSet(context, key)).passed).toBe(1);

    const visitor = await openWidgetSession(context, tenant.id);
    for (const message of ACTION_CASES[1].question) await say(context, visitor.access_token, tenant.id, message);
    const run = await runSet(context, key);
    expect(run.results[0]).toMatchObject({ passed: false, answers: [{ action: "none" }] });
  });
});
