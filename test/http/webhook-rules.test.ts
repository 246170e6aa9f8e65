import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";
import { DeliveryScheduler } from "../../src/scheduler/scheduler.ts";
import { EVENT_NAMES } from "../../src/webhooks/events.ts";
import { PLAN_NAMES, PLANS } from "../../src/plans/plans.ts";
import { changePlan } from "../../src/billing/change-plan.ts";

let context: TestContext;
let a: Awaited<ReturnType<typeof seedTenant>>;
let b: Awaited<ReturnType<typeof seedTenant>>;

// Public names resolve to a documentation address; "rebind.example" resolves to loopback.
const fakeDns = async (host: string) => (host === "rebind.example" ? ["127.0.0.1"] : ["93.184.216.34"]);

beforeEach(async () => {
  context = buildTestApp({ rateLimits: false }, {}, { resolveHost: fakeDns });
  a = await seedTenant(context.deps, "Alpha");
  b = await seedTenant(context.deps, "Beta");
});
afterEach(() => context.close());

const validRule = {
  name: "CRM",
  event: "lead.created",
  url: "https://crm.example.com/hooks/parley",
  secret: "whsec_0123456789abcdef",
  active: true,
};
const as = (key: string) => ({ "x-api-key": key });
const createRuleAs = (key: string, body: unknown) =>
  context.request("POST", "/api/v1/webhooks/rules-engine/rules", { body, headers: as(key) });

describe("POST /api/v1/webhooks/rules-engine/rules", () => {
  test("creates a rule and answers 201 with exactly the spec's fields", async () => {
    const response = await createRuleAs(a.apiKey, { ...validRule, conditions: { min_confidence: 0.7 } });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(["active", "created_at", "event", "ok", "rule_id"]);
    expect(body).toMatchObject({
      ok: true,
      event: "lead.created",
      active: true,
      created_at: new Date(context.clock.now()).toISOString(),
    });
    expect(body.rule_id).toMatch(/^rule_/);
  });

  test("without an API key answers 401; with a Bearer token only, too", async () => {
    expect((await context.request("POST", "/api/v1/webhooks/rules-engine/rules", { body: validRule })).status).toBe(
      401,
    );
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ["an empty name", { name: "" }, "name"],
    ["a name over 100 characters", { name: "n".repeat(101) }, "name"],
    ["an unknown event", { event: "lead.deleted" }, "event"],
    ["an ftp URL", { url: "ftp://crm.example.com/x" }, "url"],
    ["a URL with credentials", { url: "https://user:pass@crm.example.com/x" }, "url"],
    ["a URL on loopback", { url: "http://127.0.0.1:8080/hook" }, "url"],
    ["a URL in a private range", { url: "http://10.1.2.3/hook" }, "url"],
    ["a URL in decimal IP form", { url: "http://2130706433/hook" }, "url"],
    ["a URL with an IPv4-mapped IPv6 loopback", { url: "http://[::ffff:127.0.0.1]/hook" }, "url"],
    ["a host name resolving to loopback", { url: "https://rebind.example/hook" }, "url"],
    ["a secret under 16 characters", { secret: "short" }, "secret"],
    ["a secret over 256 characters", { secret: "s".repeat(257) }, "secret"],
    ["min_confidence above 1", { conditions: { min_confidence: 1.5 } }, "conditions.min_confidence"],
    ["min_confidence below 0", { conditions: { min_confidence: -0.1 } }, "conditions.min_confidence"],
    ["an unknown condition", { conditions: { max_confidence: 0.5 } }, "conditions"],
    ["active as a string", { active: "yes" }, "active"],
    ["an unknown key", { retries: 9 }, "retries"],
  ];
  for (const [what, patch, field] of invalid) {
    test(`${what} answers 422 naming ${field}`, async () => {
      const response = await createRuleAs(a.apiKey, { ...validRule, ...patch });
      expect(response.status).toBe(422);
      const body = await response.json();
      expect(body.error).toBe("validation_failed");
      expect(JSON.stringify(body.details ?? body.message)).toContain(field.split(".")[0] ?? field);
    });
  }

  test("active may be left out: the rule is created active", async () => {
    const { active: _active, ...withoutActive } = validRule;
    const response = await createRuleAs(a.apiKey, withoutActive);
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created.active).toBe(true);
    const read = await context.request("GET", `/api/v1/webhooks/rules-engine/rules/${created.rule_id}`, {
      headers: as(a.apiKey),
    });
    expect((await read.json()).active).toBe(true);
  });

  test("active: false is kept, not replaced by the default", async () => {
    const response = await createRuleAs(a.apiKey, { ...validRule, active: false });
    expect((await response.json()).active).toBe(false);
  });

  test("each missing required field gets exactly one detail saying it is required", async () => {
    const response = await createRuleAs(a.apiKey, {});
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.details).toEqual([
      { field: "name", message: "is required" },
      { field: "event", message: "is required" },
      { field: "url", message: "is required" },
      { field: "secret", message: "is required" },
    ]);
    expect(body.message).toBe("name: is required");
  });

  test("each field of the wrong type gets exactly one detail saying what it must be", async () => {
    const response = await createRuleAs(a.apiKey, {
      name: 5,
      event: "lead.deleted",
      url: 7,
      secret: true,
      active: "yes",
      conditions: { min_confidence: "high" },
    });
    expect(response.status).toBe(422);
    const { details } = (await response.json()) as { details: Array<{ field: string; message: string }> };
    expect(details).toEqual([
      { field: "name", message: "must be a string" },
      { field: "event", message: `must be one of: ${EVENT_NAMES.join(", ")}` },
      { field: "url", message: "must be a string" },
      { field: "secret", message: "must be a string" },
      { field: "conditions.min_confidence", message: "must be a number from 0 to 1" },
      { field: "active", message: "must be true or false" },
    ]);
  });

  test("the example in docs/webhooks.md is what the API answers", async () => {
    const response = await createRuleAs(a.apiKey, { name: 5, event: "lead.deleted", url: "https://crm.example.com/h" });
    const text = await Bun.file(new URL("../../docs/webhooks.md", import.meta.url)).text();
    const documented = text.match(/```json\n(\{"error":"validation_failed"[\s\S]*?)\n```/)?.[1];
    expect(await response.json()).toEqual(JSON.parse(documented ?? "null"));
  });

  test("a value out of its limits gets one detail stating the limits", async () => {
    const response = await createRuleAs(a.apiKey, {
      ...validRule,
      secret: "short",
      conditions: { min_confidence: 1.5 },
    });
    const { details } = (await response.json()) as { details: Array<{ field: string; message: string }> };
    expect(details).toEqual([
      { field: "secret", message: "must be 16 to 256 characters" },
      { field: "conditions.min_confidence", message: "must be a number from 0 to 1" },
    ]);
  });

  test("the same event and URL twice for one tenant answers 409; another tenant may reuse them", async () => {
    expect((await createRuleAs(a.apiKey, validRule)).status).toBe(201);
    const duplicate = await createRuleAs(a.apiKey, { ...validRule, name: "again" });
    expect(duplicate.status).toBe(409);
    expect((await duplicate.json()).error).toBe("rule_exists");
    expect((await createRuleAs(b.apiKey, validRule)).status).toBe(201);
  });

  test("loopback URLs are accepted when PARLEY_ALLOW_PRIVATE_WEBHOOKS is on", async () => {
    const permissive = buildTestApp({ rateLimits: false, allowPrivateWebhooks: true });
    const seeded = await seedTenant(permissive.deps, "Dev");
    const response = await permissive.request("POST", "/api/v1/webhooks/rules-engine/rules", {
      body: { ...validRule, url: "http://127.0.0.1:9999/hook" },
      headers: as(seeded.apiKey),
    });
    expect(response.status).toBe(201);
    permissive.close();
  });
});

describe("reading, changing and deleting rules", () => {
  test("the secret is never returned, by read, list or update", async () => {
    const { rule_id } = await (await createRuleAs(a.apiKey, validRule)).json();
    const read = await (
      await context.request("GET", `/api/v1/webhooks/rules-engine/rules/${rule_id}`, { headers: as(a.apiKey) })
    ).text();
    const list = await (
      await context.request("GET", "/api/v1/webhooks/rules-engine/rules", { headers: as(a.apiKey) })
    ).text();
    const patched = await (
      await context.request("PATCH", `/api/v1/webhooks/rules-engine/rules/${rule_id}`, {
        body: { secret: "a-new-secret-0123456789" },
        headers: as(a.apiKey),
      })
    ).text();
    for (const text of [read, list, patched]) {
      expect(text).not.toContain(validRule.secret);
      expect(text).not.toContain("a-new-secret");
      expect(text).not.toContain('"secret"');
    }
    expect(JSON.parse(read)).toMatchObject({
      rule_id,
      name: "CRM",
      event: "lead.created",
      url: validRule.url,
      conditions: {},
      active: true,
    });
  });

  test("PATCH changes only the given fields and validates them", async () => {
    const { rule_id } = await (await createRuleAs(a.apiKey, validRule)).json();
    const response = await context.request("PATCH", `/api/v1/webhooks/rules-engine/rules/${rule_id}`, {
      body: { active: false, conditions: { min_confidence: 0.4 } },
      headers: as(a.apiKey),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      active: false,
      conditions: { min_confidence: 0.4 },
      name: "CRM",
      url: validRule.url,
    });
    expect(
      (
        await context.request("PATCH", `/api/v1/webhooks/rules-engine/rules/${rule_id}`, {
          body: { event: "nope" },
          headers: as(a.apiKey),
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await context.request("PATCH", `/api/v1/webhooks/rules-engine/rules/${rule_id}`, {
          body: {},
          headers: as(a.apiKey),
        })
      ).status,
    ).toBe(422);
  });

  test("the list pages with a cursor", async () => {
    for (let i = 0; i < 5; i++) await createRuleAs(a.apiKey, { ...validRule, url: `https://crm.example.com/${i}` });
    const first = await (
      await context.request("GET", "/api/v1/webhooks/rules-engine/rules?limit=2", { headers: as(a.apiKey) })
    ).json();
    expect(first.data).toHaveLength(2);
    const second = await (
      await context.request("GET", `/api/v1/webhooks/rules-engine/rules?limit=2&cursor=${first.next_cursor}`, {
        headers: as(a.apiKey),
      })
    ).json();
    const third = await (
      await context.request("GET", `/api/v1/webhooks/rules-engine/rules?limit=2&cursor=${second.next_cursor}`, {
        headers: as(a.apiKey),
      })
    ).json();
    expect(third.data).toHaveLength(1);
    expect(third.next_cursor).toBeNull();
    const urls = [...first.data, ...second.data, ...third.data].map((rule: { url: string }) => rule.url);
    expect(new Set(urls).size).toBe(5);
    expect(
      (await context.request("GET", "/api/v1/webhooks/rules-engine/rules?limit=500", { headers: as(a.apiKey) })).status,
    ).toBe(422);
  });

  test("DELETE removes the rule", async () => {
    const { rule_id } = await (await createRuleAs(a.apiKey, validRule)).json();
    expect(
      (await context.request("DELETE", `/api/v1/webhooks/rules-engine/rules/${rule_id}`, { headers: as(a.apiKey) }))
        .status,
    ).toBe(200);
    expect(
      (await context.request("GET", `/api/v1/webhooks/rules-engine/rules/${rule_id}`, { headers: as(a.apiKey) }))
        .status,
    ).toBe(404);
  });
});

describe("tenant isolation", () => {
  test("tenant B's key gets 404 on A's rule, its deliveries and its dead letters", async () => {
    const { rule_id } = await (await createRuleAs(a.apiKey, { ...validRule, url: "https://crm.example.com/a" })).json();
    const { webhook_id } = await (
      await context.request("POST", `/api/v1/webhooks/rules-engine/rules/${rule_id}/test`, { headers: as(a.apiKey) })
    ).json();
    const asB = as(b.apiKey);
    for (const [method, path, body] of [
      ["GET", `/api/v1/webhooks/rules-engine/rules/${rule_id}`, undefined],
      ["PATCH", `/api/v1/webhooks/rules-engine/rules/${rule_id}`, { active: false }],
      ["DELETE", `/api/v1/webhooks/rules-engine/rules/${rule_id}`, undefined],
      ["POST", `/api/v1/webhooks/rules-engine/rules/${rule_id}/test`, undefined],
      ["GET", `/api/v1/webhooks/deliveries/${webhook_id}`, undefined],
    ] as const) {
      const response = await context.request(method, path, { headers: asB, body });
      expect(response.status).toBe(404);
    }
    expect(
      (await (await context.request("GET", "/api/v1/webhooks/rules-engine/rules", { headers: asB })).json()).data,
    ).toEqual([]);
    expect((await (await context.request("GET", "/api/v1/webhooks/deliveries", { headers: asB })).json()).data).toEqual(
      [],
    );

    // Kill A's delivery, then B can neither list nor re-trigger the dead letter.
    const scheduler = new DeliveryScheduler(context.deps, {
      send: async () => ({
        ok: false,
        statusCode: 500,
        error: "http_status: 500",
        durationMs: 1,
        responseExcerpt: null,
      }),
    });
    for (const wait of [0, 30_000, 300_000, 1_800_000]) {
      context.clock.advance(wait);
      await scheduler.runOnce();
    }
    const deadA = await (
      await context.request("GET", "/api/v1/webhooks/dead-letters", { headers: as(a.apiKey) })
    ).json();
    expect(deadA.data).toHaveLength(1);
    expect(
      (await (await context.request("GET", "/api/v1/webhooks/dead-letters", { headers: asB })).json()).data,
    ).toEqual([]);
    const id = deadA.data[0].dead_letter_id;
    expect(
      (await context.request("POST", `/api/v1/webhooks/dead-letters/${id}/retrigger`, { headers: asB })).status,
    ).toBe(404);
    expect(
      (
        await (
          await context.request("POST", "/api/v1/webhooks/dead-letters/retrigger", { headers: asB, body: {} })
        ).json()
      ).retriggered,
    ).toEqual([]);
    // A still can.
    const retriggered = await context.request("POST", `/api/v1/webhooks/dead-letters/${id}/retrigger`, {
      headers: as(a.apiKey),
    });
    expect(retriggered.status).toBe(200);
    expect((await retriggered.json()).retriggered).toEqual([{ dead_letter_id: id, webhook_id }]);
  });
});

describe("rule test deliveries, the delivery log and the catalog", () => {
  test("POST …/rules/:id/test enqueues one delivery of the rule's event flagged test: true", async () => {
    const { rule_id } = await (await createRuleAs(a.apiKey, { ...validRule, event: "appointment.created" })).json();
    const response = await context.request("POST", `/api/v1/webhooks/rules-engine/rules/${rule_id}/test`, {
      headers: as(a.apiKey),
    });
    expect(response.status).toBe(202);
    const { webhook_id, event } = await response.json();
    expect(event).toBe("appointment.created");
    const sent: string[] = [];
    const scheduler = new DeliveryScheduler(context.deps, {
      send: async (input) => {
        sent.push(input.body);
        return { ok: true, statusCode: 204, error: null, durationMs: 2, responseExcerpt: "" };
      },
    });
    await scheduler.runOnce();
    expect(sent).toHaveLength(1);
    const body = JSON.parse(sent[0] ?? "{}");
    expect(body.webhook_id).toBe(webhook_id);
    expect(body.data.test).toBe(true);
    expect(body.data.appointment_id).toBeString();

    const log = await (
      await context.request("GET", `/api/v1/webhooks/deliveries/${webhook_id}`, { headers: as(a.apiKey) })
    ).json();
    expect(log).toMatchObject({ webhook_id, status: "succeeded", attempts: 1, rule_id });
    expect(log.attempt_log).toEqual([
      {
        cycle: 1,
        attempt: 1,
        started_at: new Date(context.clock.now()).toISOString(),
        duration_ms: 2,
        ok: true,
        status_code: 204,
        error: null,
        response_excerpt: "",
        request: expect.any(Object),
      },
    ]);
    expect(log.attempt_log[0].request.body).toBe(sent[0]);
    const filtered = await (
      await context.request("GET", "/api/v1/webhooks/deliveries?status=succeeded&event=appointment.created", {
        headers: as(a.apiKey),
      })
    ).json();
    expect(filtered.data.map((row: { webhook_id: string }) => row.webhook_id)).toEqual([webhook_id]);
    expect(
      (
        await (
          await context.request("GET", "/api/v1/webhooks/deliveries?status=dead", { headers: as(a.apiKey) })
        ).json()
      ).data,
    ).toEqual([]);
    expect(
      (await context.request("GET", "/api/v1/webhooks/deliveries?status=weird", { headers: as(a.apiKey) })).status,
    ).toBe(422);
  });

  test("GET /webhooks/events lists the 9 kinds with priority and an example each", async () => {
    const body = await (await context.request("GET", "/api/v1/webhooks/events", { headers: as(a.apiKey) })).json();
    expect(body.data.map((entry: { event: string }) => entry.event)).toEqual([...EVENT_NAMES]);
    for (const entry of body.data) {
      expect(["info", "medium", "high", "critical"]).toContain(entry.priority);
      expect(typeof entry.example).toBe("object");
    }
    const lead = body.data.find((entry: { event: string }) => entry.event === "lead.created");
    expect(Object.keys(lead.example)).toEqual(
      expect.arrayContaining([
        "lead_id",
        "chatbot_id",
        "session_id",
        "sector",
        "name",
        "phone",
        "email",
        "interest",
        "source",
        "captured_at",
      ]),
    );
    // Snake case like every other field of the API.
    expect(Object.keys(lead)).toEqual(["event", "priority", "description", "has_confidence", "example"]);
    expect(lead.has_confidence).toBe(true);
    expect(body.data.find((entry: { event: string }) => entry.event === "payment.failed").has_confidence).toBe(false);
  });

  test("bulk re-trigger validates its filters", async () => {
    expect(
      (
        await context.request("POST", "/api/v1/webhooks/dead-letters/retrigger", {
          headers: as(a.apiKey),
          body: { since: "yesterday" },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await context.request("POST", "/api/v1/webhooks/dead-letters/retrigger", {
          headers: as(a.apiKey),
          body: { event: "nope" },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await context.request("POST", "/api/v1/webhooks/dead-letters/retrigger", {
          headers: as(a.apiKey),
          body: { all: true },
        })
      ).status,
    ).toBe(422);
    expect(
      (await context.request("POST", "/api/v1/webhooks/dead-letters/retrigger", { headers: as(a.apiKey) })).status,
    ).toBe(200);
  });
});

describe("GET /metrics", () => {
  test("exposes delivery outcomes, attempt durations, queue depth and dead letters", async () => {
    const { rule_id } = await (await createRuleAs(a.apiKey, validRule)).json();
    await context.request("POST", `/api/v1/webhooks/rules-engine/rules/${rule_id}/test`, { headers: as(a.apiKey) });
    await context.request("POST", `/api/v1/webhooks/rules-engine/rules/${rule_id}/test`, { headers: as(a.apiKey) });
    const before = await (await context.request("GET", "/metrics")).text();
    expect(before).toContain("parley_webhook_due_deliveries 2");
    const scheduler = new DeliveryScheduler(context.deps, {
      metrics: context.deps.metrics,
      send: async () => ({ ok: true, statusCode: 200, error: null, durationMs: 20, responseExcerpt: "" }),
    });
    await scheduler.runOnce();
    const after = await (await context.request("GET", "/metrics")).text();
    expect(after).toContain('parley_webhook_deliveries_total{outcome="succeeded"} 2');
    expect(after).toContain('parley_webhook_attempt_duration_seconds_bucket{le="0.025"} 2');
    expect(after).toContain('parley_webhook_attempt_duration_seconds_bucket{le="0.01"} 0');
    expect(after).toContain("parley_webhook_due_deliveries 0");
    expect(after).toContain("parley_webhook_dead_letters 0");
  });
});

describe("rules per tenant are capped by the plan", () => {
  const ruleNumber = (n: number) => ({ ...validRule, name: `Rule ${n}`, url: `https://crm.example.com/hooks/${n}` });

  test("past the free plan's cap POST answers 402 plan_limit naming the limit; deleting one or upgrading makes room; other tenants are unaffected", async () => {
    const max = PLANS.free.webhookRules;
    const ids: string[] = [];
    for (let n = 0; n < max; n++) {
      const response = await createRuleAs(a.apiKey, ruleNumber(n));
      expect(response.status).toBe(201);
      ids.push((await response.json()).rule_id);
    }
    const refused = await createRuleAs(a.apiKey, ruleNumber(max));
    expect(refused.status).toBe(402);
    const body = await refused.json();
    expect(body).toMatchObject({ error: "plan_limit", details: { limit: "webhook_rules", max, current: max } });
    expect(body.message).toContain(`free plan allows ${max} webhook rules`);
    const listed = await context.request("GET", "/api/v1/webhooks/rules-engine/rules?limit=100", {
      headers: as(a.apiKey),
    });
    expect((await listed.json()).data).toHaveLength(max);

    expect((await createRuleAs(b.apiKey, ruleNumber(0))).status).toBe(201);

    expect(
      (await context.request("DELETE", `/api/v1/webhooks/rules-engine/rules/${ids[0]}`, { headers: as(a.apiKey) }))
        .status,
    ).toBe(200);
    expect((await createRuleAs(a.apiKey, ruleNumber(max))).status).toBe(201);
    expect((await createRuleAs(a.apiKey, ruleNumber(max + 1))).status).toBe(402);

    await changePlan(context.deps, a.tenant.id, "starter");
    expect((await createRuleAs(a.apiKey, ruleNumber(max + 1))).status).toBe(201);
  });

  test("every plan has a cap, and bigger plans allow more", () => {
    const caps = PLAN_NAMES.map((plan) => PLANS[plan].webhookRules);
    expect(caps.every((cap) => Number.isInteger(cap) && cap > 0)).toBe(true);
    expect([...caps].sort((x, y) => x - y)).toEqual(caps);
  });
});
