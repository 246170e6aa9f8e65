import { afterEach, describe, expect, test } from "bun:test";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { buildTestApp, testSql, type TestContext } from "../helpers.ts";
import { openWidgetSession, say } from "./chat-helpers.ts";

let context: TestContext;
afterEach(() => context.close());

const postEvents = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  context.request("POST", "/api/v1/analytics/events", {
    body,
    headers: { authorization: `Bearer ${token}`, ...headers },
  });

describe("widget telemetry and the daily summary", () => {
  test("events and conversations of the day are counted, with lead conversion", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Stats", sector: "dental-clinic", plan: "pro" });
    const key = (await createApiKey(context.deps, { tenantId: tenant.id })).key;
    const buyer = await openWidgetSession(context, tenant.id);
    const browser = await openWidgetSession(context, tenant.id);
    const accepted = await postEvents(buyer.access_token, {
      events: [{ name: "widget_loaded" }, { name: "widget_opened" }, { name: "message_sent" }],
    });
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toEqual({ accepted: 3 });
    await postEvents(browser.access_token, { events: [{ name: "widget_loaded" }] });
    await say(context, buyer.access_token, tenant.id, "I'd like a quote");
    await say(context, buyer.access_token, tenant.id, "I'm Ana Lopez, (415) 555-0132, ana@example.com");
    await say(context, browser.access_token, tenant.id, "what are your opening hours?");

    const summary = await (
      await context.request("GET", "/api/v1/analytics/summary?from=2026-01-14&to=2026-01-15", {
        headers: { "x-api-key": key },
      })
    ).json();
    expect(summary.days.map((day: { day: string }) => day.day)).toEqual(["2026-01-14", "2026-01-15"]);
    expect(summary.days[0]).toMatchObject({ conversations: 0, leads: 0, lead_conversion: null });
    expect(summary.days[1]).toMatchObject({
      widget: { widget_loaded: 2, widget_opened: 1, widget_closed: 0, message_sent: 1, quick_reply_clicked: 0 },
      conversations: 2,
      leads: 1,
      appointments: 0,
      handoffs: 0,
      lead_conversion: 0.5,
      appointment_conversion: 0,
    });
    expect(summary.totals).toMatchObject({ conversations: 2, leads: 1, lead_conversion: 0.5 });
    const defaults = await (
      await context.request("GET", "/api/v1/analytics/summary", { headers: { "x-api-key": key } })
    ).json();
    expect(defaults.days).toHaveLength(30);
    expect(defaults.to).toBe("2026-01-15");
  });

  test("bad telemetry is refused with 422 and nothing is stored", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Strict" });
    const visitor = await openWidgetSession(context, tenant.id);
    expect((await postEvents(visitor.access_token, { events: [{ name: "page_scrolled" }] })).status).toBe(422);
    expect((await postEvents(visitor.access_token, { events: [] })).status).toBe(422);
    expect((await postEvents(visitor.access_token, { events: Array(21).fill({ name: "widget_opened" }) })).status).toBe(
      422,
    );
    expect(
      (await postEvents(visitor.access_token, { events: [{ name: "widget_opened", at: "2025-01-01T00:00:00Z" }] }))
        .status,
    ).toBe(422);
    expect((await postEvents(visitor.access_token, { events: [{ name: "widget_opened", extra: 1 }] })).status).toBe(
      422,
    );
    expect(
      (
        await (
          await testSql(context.deps)
        ).get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM analytics_events")
      )?.n,
    ).toBe(0);
    const key = (await createApiKey(context.deps, { tenantId: tenant.id })).key;
    for (const query of ["?from=2026-01-15&to=2026-01-01", "?from=2024-01-01&to=2026-01-15", "?from=yesterday"]) {
      expect(
        (await context.request("GET", `/api/v1/analytics/summary${query}`, { headers: { "x-api-key": key } })).status,
      ).toBe(422);
    }
  });

  test("a visitor reports only for its own tenant, and summaries are tenant-scoped", async () => {
    context = buildTestApp();
    const a = await createTenant(context.deps, { name: "A" });
    const b = await createTenant(context.deps, { name: "B", origins: ["https://b.example"] });
    const visitor = await openWidgetSession(context, a.id);
    expect(
      (await postEvents(visitor.access_token, { tenant_id: b.id, events: [{ name: "widget_opened" }] })).status,
    ).toBe(404);
    await postEvents(visitor.access_token, { events: [{ name: "widget_opened" }] });
    const keyB = (await createApiKey(context.deps, { tenantId: b.id })).key;
    const summaryB = await (
      await context.request("GET", "/api/v1/analytics/summary", { headers: { "x-api-key": keyB } })
    ).json();
    expect(summaryB.totals.widget.widget_opened).toBe(0);
    expect(
      (await context.request("GET", `/api/v1/analytics/summary?tenant_id=${a.id}`, { headers: { "x-api-key": keyB } }))
        .status,
    ).toBe(404);
    const fromB = await openWidgetSession(context, b.id, "https://b.example");
    expect(
      (
        await postEvents(
          fromB.access_token,
          { events: [{ name: "widget_opened" }] },
          { origin: "https://evil.example" },
        )
      ).status,
    ).toBe(403);
    const ok = await postEvents(
      fromB.access_token,
      { events: [{ name: "widget_opened" }] },
      { origin: "https://b.example" },
    );
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://b.example");
  });

  test("the analytics limit answers the 121st request in 60 s with 429", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Chatty" });
    const visitor = await openWidgetSession(context, tenant.id);
    for (let i = 0; i < 120; i++)
      expect((await postEvents(visitor.access_token, { events: [{ name: "message_sent" }] })).status).toBe(202);
    const limited = await postEvents(visitor.access_token, { events: [{ name: "message_sent" }] });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
