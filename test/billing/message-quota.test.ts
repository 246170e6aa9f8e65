import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { periodOf } from "../../src/billing/usage.ts";
import { handleMessage } from "../../src/chat/handle-message.ts";
import type { AppError } from "../../src/lib/app-error.ts";
import { createTenant, type TenantRecord } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps, testSql, type TestDeps } from "../helpers.ts";

// The quota's lines under concurrency, on either store (PARLEY_TEST_DB=postgres://… runs it on
// PostgreSQL): many messages of one tenant in flight at once around the 80 % line and the
// quota line (free plan: 1,000 a month).

let deps: TestDeps;
let tenant: TenantRecord;
let sessions: string[];
const IN_FLIGHT = 24;

beforeEach(async () => {
  deps = buildDeps();
  tenant = await createTenant(deps, { name: "Quota Clinic", plan: "free" });
  // One message per session first: a session's first message also writes session.started.
  sessions = await Promise.all(
    Array.from(
      { length: IN_FLIGHT },
      async () => (await handleMessage(deps, { tenant, text: "hello", channel: "api" })).session_id,
    ),
  );
});
afterEach(() => closeDeps(deps));

/** One message on every session at once: how many were accepted, and the refusals' codes. */
async function burst(): Promise<{ accepted: number; refused: string[] }> {
  const outcomes = await Promise.allSettled(
    sessions.map((sessionId) =>
      handleMessage(deps, { tenant, sessionId, text: "What are your opening hours?", channel: "api" }),
    ),
  );
  const refused = outcomes
    .filter((outcome) => outcome.status === "rejected")
    .map((outcome) => ((outcome as PromiseRejectedResult).reason as AppError).code);
  return { accepted: outcomes.length - refused.length, refused };
}

async function setCounter(messages: number, notified: boolean): Promise<void> {
  const sql = await testSql(deps);
  await sql.run(
    "UPDATE usage_counters SET messages = ?, threshold_notified_at = ? WHERE tenant_id = ? AND period = ?",
    messages,
    notified ? 1 : null,
    tenant.id,
    periodOf(deps.clock.now()),
  );
}

async function counted(): Promise<{ messages: number; thresholdEvents: string[]; visitorMessages: number }> {
  const sql = await testSql(deps);
  const usage = await sql.get<{ messages: number }>(
    "SELECT messages FROM usage_counters WHERE tenant_id = ?",
    tenant.id,
  );
  const events = await sql.all<{ data: string }>(
    "SELECT data FROM events WHERE tenant_id = ? AND event = 'quota.threshold_reached'",
    tenant.id,
  );
  const stored = await sql.get<{ n: number }>(
    "SELECT CAST(count(*) AS INTEGER) AS n FROM chat_messages WHERE tenant_id = ? AND role = 'visitor'",
    tenant.id,
  );
  return {
    messages: usage?.messages ?? 0,
    thresholdEvents: events.map((row) => row.data),
    visitorMessages: stored?.n ?? 0,
  };
}

describe("the quota's lines with many messages in flight", () => {
  test("around 80 %: every message accepted, quota.threshold_reached exactly once, at 800", async () => {
    await setCounter(800 - IN_FLIGHT / 2, false);
    expect(await burst()).toEqual({ accepted: IN_FLIGHT, refused: [] });
    const after = await counted();
    expect(after.messages).toBe(800 + IN_FLIGHT / 2);
    expect(after.thresholdEvents.map((data) => JSON.parse(data))).toEqual([
      { tenant_id: tenant.id, plan: "free", period: periodOf(deps.clock.now()), used: 800, quota: 1000, percent: 80 },
    ]);
    expect(after.visitorMessages).toBe(IN_FLIGHT * 2);
    // Past the line, no second event.
    expect(await burst()).toEqual({ accepted: IN_FLIGHT, refused: [] });
    expect((await counted()).thresholdEvents).toHaveLength(1);
  });

  test("around the quota: exactly the quota accepted, every other message refused with 402 and nothing of it stored", async () => {
    await setCounter(1000 - IN_FLIGHT / 2, true);
    const { accepted, refused } = await burst();
    expect(accepted).toBe(IN_FLIGHT / 2);
    expect(refused).toEqual(Array(IN_FLIGHT / 2).fill("quota_exceeded"));
    const after = await counted();
    expect(after.messages).toBe(1000);
    expect(after.visitorMessages).toBe(IN_FLIGHT + IN_FLIGHT / 2);
    expect(after.thresholdEvents).toEqual([]);
  });

  test("the quota's last messages crossing 80 % at once: one event, then the quota holds", async () => {
    // A quota line close to the 80 % line: both crossed in one burst.
    await setCounter(1000 - IN_FLIGHT / 2, false);
    const { accepted, refused } = await burst();
    expect(accepted).toBe(IN_FLIGHT / 2);
    expect(refused).toEqual(Array(IN_FLIGHT / 2).fill("quota_exceeded"));
    const after = await counted();
    expect(after.messages).toBe(1000);
    expect(after.thresholdEvents).toHaveLength(1);
  });
});
