import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { runCli } from "../../src/cli/run.ts";
import { buildTestApp, login, seedTenant, testSql, type TestContext } from "../helpers.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { deliverAll, subscribeToEverything } from "./chat-helpers.ts";
import { PLANS } from "../../src/plans/plans.ts";

let context: TestContext;
let seeded: Awaited<ReturnType<typeof seedTenant>>;
const key = () => ({ "x-api-key": seeded.apiKey });

beforeEach(async () => {
  context = buildTestApp({ allowPrivateWebhooks: true, rateLimits: false });
  seeded = await seedTenant(context.deps, "Quota");
  await subscribeToEverything(context, seeded.tenant.id);
});
afterEach(() => context.close());

async function sendMessages(count: number, token: string): Promise<number[]> {
  const statuses: number[] = [];
  let sessionId: string | undefined;
  for (let i = 0; i < count; i++) {
    const response = await context.request("POST", "/api/v1/chatbot/message", {
      body: {
        tenant_id: seeded.tenant.id,
        message: "what are your opening hours?",
        ...(sessionId ? { session_id: sessionId } : {}),
      },
      headers: { authorization: `Bearer ${token}` },
    });
    statuses.push(response.status);
    if (response.status === 200 && !sessionId) sessionId = (await response.json()).session_id;
  }
  return statuses;
}

describe("plans and quota (free: 1,000 messages a month)", () => {
  test("80 % emits quota.threshold_reached once; the 1,001st message gets 402; a new month starts from zero", async () => {
    expect(PLANS.free.monthlyMessages).toBe(1000);
    const { access_token } = await login(context, seeded.email);
    const token = () => access_token;
    expect(await sendMessages(799, token())).toEqual(Array(799).fill(200));
    expect((await deliverAll(context)).filter((body) => body.event === "quota.threshold_reached")).toEqual([]);

    await sendMessages(1, token());
    const threshold = (await deliverAll(context)).filter((body) => body.event === "quota.threshold_reached");
    expect(threshold.map((body) => body.data)).toEqual([
      { tenant_id: seeded.tenant.id, plan: "free", period: "2026-01", used: 800, quota: 1000, percent: 80 },
    ]);

    expect(await sendMessages(200, token())).toEqual(Array(200).fill(200));
    expect((await deliverAll(context)).filter((body) => body.event === "quota.threshold_reached")).toEqual([]);
    const sql = await testSql(context.deps);
    const stored = () =>
      sql.get<{ messages: number; sessions: number; events: number }>(
        "SELECT (SELECT CAST(count(*) AS INTEGER) FROM chat_messages) AS messages, (SELECT CAST(count(*) AS INTEGER) FROM chat_sessions) AS sessions, (SELECT CAST(count(*) AS INTEGER) FROM events) AS events",
      );
    const before = await stored();
    const refused = await context.request("POST", "/api/v1/chatbot/message", {
      body: { tenant_id: seeded.tenant.id, message: "hello" },
      headers: { authorization: `Bearer ${token()}` },
    });
    expect(refused.status).toBe(402);
    expect((await refused.json()).error).toBe("quota_exceeded");
    // Nothing of the refused message is stored: no message, no new session, no event.
    expect(await stored()).toEqual(before);

    const usage = await (await context.request("GET", "/api/v1/usage", { headers: key() })).json();
    expect(usage).toMatchObject({
      plan: "free",
      period: "2026-01",
      used: 1000,
      quota: 1000,
      percent: 100,
      remaining: 0,
      resets_at: "2026-02-01T00:00:00.000Z",
    });

    // February: the counter starts again (the access token is 15 minutes old, so log in again).
    context.clock.set(Date.UTC(2026, 1, 1, 0, 0, 1));
    const fresh = (await login(context, seeded.email)).access_token;
    expect(await sendMessages(1, fresh)).toEqual([200]);
    expect(await (await context.request("GET", "/api/v1/usage", { headers: key() })).json()).toMatchObject({
      period: "2026-02",
      used: 1,
    });
  });

  test("upgrading lifts the limit at once", async () => {
    const { access_token } = await login(context, seeded.email);
    await (await testSql(context.deps)).run(
      "INSERT INTO usage_counters (tenant_id, period, messages, threshold_notified_at) VALUES (?, '2026-01', 1000, 1)",
      seeded.tenant.id,
    );
    expect(await sendMessages(1, access_token)).toEqual([402]);
    await context.request("PUT", "/api/v1/subscription", { headers: key(), body: { plan: "starter" } });
    expect(await sendMessages(1, access_token)).toEqual([200]);
  });
});

describe("subscription changes", () => {
  test("each plan change emits subscription.changed with the right change", async () => {
    const put = (plan: string) => context.request("PUT", "/api/v1/subscription", { headers: key(), body: { plan } });
    const upgrade = await (await put("pro")).json();
    expect(upgrade).toMatchObject({ plan: "pro", from_plan: "free", change: "upgrade", monthly_messages: 100_000 });
    await put("starter");
    await put("starter"); // unchanged: no event
    await put("free");
    const changes = (await deliverAll(context))
      .filter((body) => body.event === "subscription.changed")
      .map((body) => [body.data.from_plan, body.data.to_plan, body.data.change]);
    expect(changes).toEqual([
      ["free", "pro", "upgrade"],
      ["pro", "starter", "downgrade"],
      ["starter", "free", "cancellation"],
    ]);
    expect((await put("platinum")).status).toBe(422);
  });

  test("only an owner (or the API key) may change the plan", async () => {
    await createUser(context.deps, {
      email: "agent@quota.test",
      tenantId: seeded.tenant.id,
      role: "agent",
      password: "agent-password",
    });
    const agent = (await login(context, "agent@quota.test", "agent-password")).access_token;
    const forbidden = await context.request("PUT", "/api/v1/subscription", {
      headers: { authorization: `Bearer ${agent}` },
      body: { plan: "pro" },
    });
    expect(forbidden.status).toBe(403);
    const owner = (await login(context, seeded.email)).access_token;
    expect(
      (
        await context.request("PUT", "/api/v1/subscription", {
          headers: { authorization: `Bearer ${owner}` },
          body: { plan: "pro" },
        })
      ).status,
    ).toBe(200);
    expect(
      (await context.request("GET", "/api/v1/subscription", { headers: { authorization: `Bearer ${owner}` } })).status,
    ).toBe(200);
  });
});

describe("the bot configuration", () => {
  test("GET returns the sector template and PATCH validates and stores a partial change", async () => {
    const config = await (await context.request("GET", "/api/v1/chatbot/config", { headers: key() })).json();
    expect(config.faq.length).toBeGreaterThan(0);
    const patched = await context.request("PATCH", "/api/v1/chatbot/config", {
      headers: key(),
      body: { greeting: "Welcome to Quota!", allowed_origins: ["https://quota.example/"] },
    });
    expect(patched.status).toBe(200);
    const after = await (await context.request("GET", "/api/v1/chatbot/config", { headers: key() })).json();
    expect(after.greeting).toBe("Welcome to Quota!");
    expect(after.allowed_origins).toEqual(["https://quota.example"]);
    expect(after.faq).toEqual(config.faq);
    const tenant = await (await context.request("GET", "/api/v1/tenant", { headers: key() })).json();
    expect(tenant.allowed_origins).toEqual(["https://quota.example"]);
    const bad = await context.request("PATCH", "/api/v1/chatbot/config", {
      headers: key(),
      body: { appointments: { timezone: "Mars/Olympus" } },
    });
    expect(bad.status).toBe(422);
    expect((await bad.json()).message).toContain("timezone");
    expect(
      (await context.request("PATCH", "/api/v1/chatbot/config", { headers: key(), body: { colour: "red" } })).status,
    ).toBe(422);
  });

  test("an agent may not read or change the configuration", async () => {
    await createUser(context.deps, {
      email: "agent2@quota.test",
      tenantId: seeded.tenant.id,
      role: "agent",
      password: "agent-password",
    });
    const agent = (await login(context, "agent2@quota.test", "agent-password")).access_token;
    expect(
      (await context.request("GET", "/api/v1/chatbot/config", { headers: { authorization: `Bearer ${agent}` } }))
        .status,
    ).toBe(403);
  });
});

describe("parley tenant plan", () => {
  test("emits subscription.changed through the same verb", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "parley-plan-"));
    const io = {
      env: { PARLEY_LOG_LEVEL: "silent", PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true" },
      out: () => {},
      err: () => {},
      readStdin: async () => "",
    };
    const db = join(dir, "p.db");
    const created: string[] = [];
    await runCli(["tenant", "create", "--name", "CLI", "--json", "--db", db], {
      ...io,
      out: (text: string) => created.push(text),
    });
    const tenantId = JSON.parse(created[0] ?? "{}").tenant_id;
    expect(await runCli(["tenant", "plan", tenantId, "business", "--db", db], io)).toBe(0);
    const { openDatabase } = await import("../../src/db/client.ts");
    const handle = openDatabase(db);
    const row = handle.sqlite
      .prepare<{ data: string }, []>("SELECT data FROM events WHERE event = 'subscription.changed'")
      .get();
    expect(JSON.parse(row?.data ?? "{}")).toMatchObject({
      tenant_id: tenantId,
      from_plan: "free",
      to_plan: "business",
      change: "upgrade",
    });
    handle.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
