import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { DeliveryScheduler, type SendFn } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { listDeadLetters } from "../../src/webhooks/dead-letters.ts";
import { buildTestApp, seedTenant, testSql, type TestContext } from "../helpers.ts";

const SECOND = 1000;
const HOUR = 3_600_000;
const fakeDns = async () => ["93.184.216.34"];

let context: TestContext;
let tenant: Awaited<ReturnType<typeof seedTenant>>;
let ruleA: string;
let ruleB: string;
/** Which webhook ids the receiver accepts; every other delivery gets a 503. */
let accepted: Set<string>;
let sent: Array<{ webhookId: string; attempt: string }>;
let scheduler: DeliveryScheduler;

const send: SendFn = async (input) => {
  const webhookId = input.headers["webhook-id"] ?? "";
  sent.push({ webhookId, attempt: input.headers["X-Service-Attempt"] ?? "" });
  return accepted.has(webhookId)
    ? { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "ok" }
    : { ok: false, statusCode: 503, error: "http_status: 503", durationMs: 1, responseExcerpt: "down" };
};
const as = (key: string) => ({ "x-api-key": key });
const recover = (ruleId: string, body: unknown, key = tenant.apiKey) =>
  context.request("POST", `/api/v1/webhooks/rules-engine/rules/${ruleId}/recover`, { body, headers: as(key) });

async function createRule(url: string): Promise<string> {
  const response = await context.request("POST", "/api/v1/webhooks/rules-engine/rules", {
    body: { name: url, event: "lead.created", url, secret: "whsec_0123456789abcdef" },
    headers: as(tenant.apiKey),
  });
  return (await response.json()).rule_id;
}

async function emit(ruleId: string): Promise<string> {
  const deps = context.deps;
  const { deliveryIds } = await deps.store.transaction((tx) =>
    enqueueEvent(deps, tx, {
      tenantId: tenant.tenant.id,
      event: "lead.created",
      data: { lead_id: "lead_1" },
      onlyRuleId: ruleId,
    }),
  );
  return deliveryIds[0] ?? "";
}

async function statusOf(webhookId: string): Promise<{ status: string; attempts: number; cycle: number }> {
  const row = await (await testSql(context.deps)).get<{ status: string; attempts: number; cycle: number }>(
    "SELECT status, attempts, cycle FROM deliveries WHERE id = ?",
    webhookId,
  );
  return { status: row?.status ?? "missing", attempts: Number(row?.attempts), cycle: Number(row?.cycle) };
}

beforeEach(async () => {
  // Two attempts per cycle: the second failure dead-letters.
  context = buildTestApp({ rateLimits: false, retryDelaysMs: [SECOND] }, {}, { resolveHost: fakeDns });
  tenant = await seedTenant(context.deps, "Alpha");
  ruleA = await createRule("https://a.example/hook");
  ruleB = await createRule("https://b.example/hook");
  accepted = new Set();
  sent = [];
  scheduler = new DeliveryScheduler(context.deps, { send });
});
afterEach(() => context.close());

describe("POST /rules/:id/recover", () => {
  test("resends once the rule's dead and retrying deliveries since `since`; the others are untouched", async () => {
    const clock = context.clock;
    const before = await emit(ruleA); // dead, but created before `since`
    await scheduler.runOnce();
    clock.advance(SECOND);
    await scheduler.runOnce();

    clock.advance(HOUR);
    const since = clock.now();
    const succeeded = await emit(ruleA);
    accepted.add(succeeded);
    const dead = await emit(ruleA);
    const otherRule = await emit(ruleB); // dead, but of another rule
    await scheduler.runOnce();
    clock.advance(SECOND);
    await scheduler.runOnce();
    clock.advance(SECOND);
    const retrying = await emit(ruleA); // one failed attempt, its retry a second away
    await scheduler.runOnce();
    const inFlight = await emit(ruleA); // being sent right now: left to its sender
    const [claimed] = await context.deps.store.deliveryQueue.claimDueDeliveries(clock.now(), 10, 60 * SECOND);
    expect(claimed?.id).toBe(inFlight);

    expect(await statusOf(before)).toMatchObject({ status: "dead" });
    expect(await statusOf(dead)).toMatchObject({ status: "dead", attempts: 2 });
    expect(await statusOf(retrying)).toMatchObject({ status: "pending", attempts: 1 });

    const response = await recover(ruleA, { since: new Date(since).toISOString() });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      rule_id: ruleA,
      since: new Date(since).toISOString(),
      recovered: 2,
    });

    const liveDeadLetters = await listDeadLetters(context.deps, { tenantId: tenant.tenant.id }, { limit: 10 });
    expect(liveDeadLetters.data.map((row) => row.webhook_id).sort()).toEqual([before, otherRule].sort());

    accepted = new Set([dead, retrying, before, otherRule, inFlight]);
    sent = [];
    await scheduler.runOnce();
    // Each recovered delivery sent once, same webhook_id, attempt 1 of a new cycle.
    expect(sent.sort((x, y) => x.webhookId.localeCompare(y.webhookId))).toEqual(
      [dead, retrying].sort().map((webhookId) => ({ webhookId, attempt: "1" })),
    );
    expect(await statusOf(dead)).toEqual({ status: "succeeded", attempts: 1, cycle: 2 });
    expect(await statusOf(retrying)).toEqual({ status: "succeeded", attempts: 1, cycle: 2 });
    expect(await statusOf(before)).toEqual({ status: "dead", attempts: 2, cycle: 1 });
    expect(await statusOf(otherRule)).toEqual({ status: "dead", attempts: 2, cycle: 1 });
    expect(await statusOf(succeeded)).toEqual({ status: "succeeded", attempts: 1, cycle: 1 });
    expect(await statusOf(inFlight)).toEqual({ status: "pending", attempts: 0, cycle: 1 });

    // Nothing left to recover since then.
    expect((await (await recover(ruleA, { since: new Date(since).toISOString() })).json()).recovered).toBe(0);
  });

  test("another tenant's rule is 404; no API key is 401", async () => {
    const other = await seedTenant(context.deps, "Beta");
    expect((await recover(ruleA, { since: "2026-01-15T00:00:00Z" }, other.apiKey)).status).toBe(404);
    expect(
      (
        await context.request("POST", `/api/v1/webhooks/rules-engine/rules/${ruleA}/recover`, {
          body: { since: "2026-01-15T00:00:00Z" },
        })
      ).status,
    ).toBe(401);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ["no since", {}, "since"],
    ["a since that is not a time", { since: "yesterday" }, "since"],
    ["a since in the future", { since: "2099-01-01T00:00:00Z" }, "since"],
    ["an unknown key", { since: "2026-01-15T00:00:00Z", until: "2026-01-16T00:00:00Z" }, "until"],
  ];
  for (const [what, body, field] of invalid) {
    test(`${what} answers 422 naming ${field}`, async () => {
      const response = await recover(ruleA, body);
      expect(response.status).toBe(422);
      expect(JSON.stringify(await response.json())).toContain(field);
    });
  }
});
