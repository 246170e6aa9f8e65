import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { recordAnalyticsEvents } from "../../src/analytics/record-events.ts";
import { handleMessage } from "../../src/chat/handle-message.ts";
import { updateBotConfig } from "../../src/chat/bot-settings.ts";
import { sweepRetention } from "../../src/scheduler/retention.ts";
import { requireTenant } from "../../src/tenants/find-tenant.ts";
import { buildTestApp, seedTenant, testSql, type TestContext } from "../helpers.ts";

const DAY = 86_400_000;

let context: TestContext;
let keeper: { id: string; apiKey: string };
let forgetter: { id: string; apiKey: string };

const count = async (table: string, where: string, ...params: string[]) =>
  (
    await (
      await testSql(context.deps)
    ).get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS n FROM ${table} WHERE ${where}`, ...params)
  )?.n ?? 0;

async function chat(tenantId: string, text: string, sessionId?: string): Promise<string> {
  return (
    await handleMessage(context.deps, {
      tenant: await requireTenant(context.deps, tenantId),
      sessionId,
      text,
      channel: "api",
    })
  ).session_id;
}

beforeEach(async () => {
  context = buildTestApp();
  const a = await seedTenant(context.deps, "Keeper");
  const b = await seedTenant(context.deps, "Forgetter");
  keeper = { id: a.tenant.id, apiKey: a.apiKey };
  forgetter = { id: b.tenant.id, apiKey: b.apiKey };
});
afterEach(() => context.close());

describe("per-tenant chat and analytics retention", () => {
  test("is off by default and set through PATCH /chatbot/config; bad values are a 422 naming the field", async () => {
    const headers = { "x-api-key": forgetter.apiKey };
    const before = await (await context.request("GET", "/api/v1/chatbot/config", { headers })).json();
    expect(before.retention ?? null).toBeNull();
    for (const bad of [
      { chat_days: 0 },
      { chat_days: 1.5 },
      { analytics_days: 3651 },
      { chat_days: "30" },
      { transcripts: 5 },
    ]) {
      const response = await context.request("PATCH", "/api/v1/chatbot/config", { headers, body: { retention: bad } });
      expect(response.status).toBe(422);
      const body = await response.json();
      expect(body.error).toBe("validation_failed");
      expect(body.message).toContain("retention.");
    }
    const set = await context.request("PATCH", "/api/v1/chatbot/config", {
      headers,
      body: { retention: { chat_days: 30 } },
    });
    expect(set.status).toBe(200);
    expect((await set.json()).retention).toEqual({ chat_days: 30, analytics_days: null });
    // A partial patch keeps the other half; null turns it off again.
    const more = await context.request("PATCH", "/api/v1/chatbot/config", {
      headers,
      body: { retention: { analytics_days: 90 } },
    });
    expect((await more.json()).retention).toEqual({ chat_days: 30, analytics_days: 90 });
    const off = await context.request("PATCH", "/api/v1/chatbot/config", {
      headers,
      body: { retention: { chat_days: null } },
    });
    expect((await off.json()).retention).toEqual({ chat_days: null, analytics_days: 90 });
  });

  test("sessions idle past chat_days go with their transcripts; active ones, other tenants' and leads stay", async () => {
    await updateBotConfig(context.deps, forgetter.id, { retention: { chat_days: 30, analytics_days: 90 } });
    // Session ids carry their creation time and are monotonic per process; other test files in
    // this process move their fake clocks months ahead, so this one starts after all of them.
    const start = Date.UTC(2027, 6, 1, 9, 0, 0);
    context.clock.set(start);
    const idle = await chat(forgetter.id, "hello");
    const active = await chat(forgetter.id, "hello");
    const kept = await chat(keeper.id, "hello");
    await recordAnalyticsEvents(context.deps, {
      tenantId: forgetter.id,
      sessionId: idle,
      events: [{ name: "widget_opened" }],
    });
    await recordAnalyticsEvents(context.deps, {
      tenantId: keeper.id,
      sessionId: kept,
      events: [{ name: "widget_opened" }],
    });
    await (await testSql(context.deps)).run(
      "INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at) VALUES ('lead_x', ?, 'bot_x', ?, 'Ann', '+15550100', 'ann@example.com', 'x', 'api', 1, ?)",
      forgetter.id,
      idle,
      start,
    );

    context.clock.set(start + 20 * DAY);
    await chat(forgetter.id, "are you still there?", active);

    context.clock.set(start + 30 * DAY + 1);
    const report = await sweepRetention(context.deps);
    expect(report.sessions).toBe(1);
    expect(await count("chat_sessions", "id = ?", idle)).toBe(0);
    expect(await count("chat_messages", "session_id = ?", idle)).toBe(0);
    expect(await count("chat_sessions", "id IN (?, ?)", active, kept)).toBe(2);
    expect(await count("chat_messages", "session_id = ?", active)).toBeGreaterThan(2);
    expect(await count("leads", "id = 'lead_x'")).toBe(1);
    expect(await count("analytics_events", "tenant_id = ?", forgetter.id)).toBe(1); // analytics_days is 90

    context.clock.set(start + 91 * DAY);
    const later = await sweepRetention(context.deps);
    expect(later).toMatchObject({ sessions: 1, analyticsEvents: 1 });
    expect(await count("chat_sessions", "tenant_id = ?", forgetter.id)).toBe(0);
    expect(await count("analytics_events", "tenant_id = ?", forgetter.id)).toBe(0);
    // The tenant without a retention keeps everything.
    expect(await count("chat_sessions", "tenant_id = ?", keeper.id)).toBe(1);
    expect(await count("analytics_events", "tenant_id = ?", keeper.id)).toBe(1);
  });
});
