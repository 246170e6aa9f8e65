import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";
import { DeliveryScheduler } from "../../src/scheduler/scheduler.ts";

// The routes behind the admin page's dead-letter discard, attempt totals, rule stats and charts.
let context: TestContext;
let a: Awaited<ReturnType<typeof seedTenant>>;
let b: Awaited<ReturnType<typeof seedTenant>>;
let outcome: "fail" | "ok" = "fail";

const fakeDns = async () => ["93.184.216.34"];
const as = (key: string) => ({ "x-api-key": key });
const rule = {
  name: "CRM",
  event: "lead.created",
  url: "https://crm.example.com/hooks/parley",
  secret: "whsec_0123456789abcdef",
  active: true,
};

beforeEach(async () => {
  context = buildTestApp({ rateLimits: false }, {}, { resolveHost: fakeDns });
  a = await seedTenant(context.deps, "Alpha");
  b = await seedTenant(context.deps, "Beta");
  outcome = "fail";
});
afterEach(() => context.close());

const get = async (path: string, key = a.apiKey) =>
  (await context.request("GET", `/api/v1${path}`, { headers: as(key) })).json();

/** A rule of A with one test delivery driven to the dead-letter queue (4 failed attempts). */
async function deadLetter() {
  const { rule_id } = await (
    await context.request("POST", "/api/v1/webhooks/rules-engine/rules", { body: rule, headers: as(a.apiKey) })
  ).json();
  const { webhook_id } = await (
    await context.request("POST", `/api/v1/webhooks/rules-engine/rules/${rule_id}/test`, { headers: as(a.apiKey) })
  ).json();
  await runCycle();
  const dead = await get("/webhooks/dead-letters");
  return { rule_id, webhook_id, dead_letter_id: dead.data[0].dead_letter_id as string };
}

const scheduler = () =>
  new DeliveryScheduler(context.deps, {
    send: async () =>
      outcome === "ok"
        ? { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "ok" }
        : { ok: false, statusCode: 500, error: "http_status: 500", durationMs: 1, responseExcerpt: null },
  });

async function runCycle() {
  const running = scheduler();
  for (const wait of [0, 30_000, 300_000, 1_800_000]) {
    context.clock.advance(wait);
    await running.runOnce();
  }
}

describe("DELETE /api/v1/webhooks/dead-letters/:id", () => {
  test("discards the dead letter: it leaves the queue, cannot be re-triggered, and the delivery stays dead in the log", async () => {
    const { webhook_id, dead_letter_id } = await deadLetter();
    const response = await context.request("DELETE", `/api/v1/webhooks/dead-letters/${dead_letter_id}`, {
      headers: as(a.apiKey),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ dead_letter_id, webhook_id });
    expect((await get("/webhooks/dead-letters")).data).toEqual([]);
    expect(
      (
        await context.request("POST", `/api/v1/webhooks/dead-letters/${dead_letter_id}/retrigger`, {
          headers: as(a.apiKey),
        })
      ).status,
    ).toBe(404);
    expect(
      (await context.request("DELETE", `/api/v1/webhooks/dead-letters/${dead_letter_id}`, { headers: as(a.apiKey) }))
        .status,
    ).toBe(404);
    expect((await get(`/webhooks/deliveries/${webhook_id}`)).status).toBe("dead");
  });

  test("another tenant's dead letter is 404 and stays in its owner's queue", async () => {
    const { dead_letter_id } = await deadLetter();
    const response = await context.request("DELETE", `/api/v1/webhooks/dead-letters/${dead_letter_id}`, {
      headers: as(b.apiKey),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toBe("dead_letter_not_found");
    expect((await get("/webhooks/dead-letters")).data).toHaveLength(1);
  });
});

describe("attempts across cycles and the destination URL", () => {
  test("dead letters and deliveries carry url and total_attempts, counting every cycle after a re-trigger", async () => {
    const { webhook_id, dead_letter_id } = await deadLetter();
    const first = (await get("/webhooks/dead-letters")).data[0];
    expect(first).toMatchObject({ webhook_id, attempts: 4, total_attempts: 4, url: rule.url });
    await context.request("POST", `/api/v1/webhooks/dead-letters/${dead_letter_id}/retrigger`, {
      headers: as(a.apiKey),
    });
    await runCycle();
    const second = (await get("/webhooks/dead-letters")).data[0];
    expect(second).toMatchObject({ webhook_id, attempts: 4, total_attempts: 8 });
    expect((await get("/webhooks/deliveries")).data[0]).toMatchObject({
      webhook_id,
      cycle: 2,
      attempts: 4,
      total_attempts: 8,
      url: rule.url,
    });
  });
});

describe("GET /api/v1/webhooks/stats and /retry-policy", () => {
  test("per-rule success rate and last status, and per-day outcomes, for the key's tenant only", async () => {
    const { rule_id } = await deadLetter();
    outcome = "ok";
    await context.request("POST", `/api/v1/webhooks/rules-engine/rules/${rule_id}/test`, { headers: as(a.apiKey) });
    await scheduler().runOnce();
    const stats = await get("/webhooks/stats");
    expect(stats.days).toBe(30);
    expect(stats.rules).toEqual([
      expect.objectContaining({
        rule_id,
        deliveries: 2,
        succeeded: 1,
        dead: 1,
        success_rate: 0.5,
        last_status: "succeeded",
        last_status_code: 200,
      }),
    ]);
    expect(stats.daily).toHaveLength(1);
    expect(stats.daily[0]).toMatchObject({
      day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      deliveries: 2,
      succeeded: 1,
      dead: 1,
      success_rate: 0.5,
    });
    expect(await get("/webhooks/stats", b.apiKey)).toEqual({ days: 30, rules: [], daily: [] });
  });

  test("the retry policy is the configured one", async () => {
    expect(await get("/webhooks/retry-policy")).toEqual({
      attempts_per_cycle: context.deps.config.retryDelaysMs.length + 1,
      retry_delays_s: context.deps.config.retryDelaysMs.map((ms) => ms / 1000),
      delivery_timeout_s: context.deps.config.deliveryTimeoutMs / 1000,
      dead_letter_retention_s: context.deps.config.dlqRetentionMs / 1000,
      event_retention_s: context.deps.config.eventRetentionMs / 1000,
    });
    expect((await context.request("GET", "/api/v1/webhooks/retry-policy")).status).toBe(401);
  });
});
