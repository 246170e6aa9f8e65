import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";
import { say } from "./chat-helpers.ts";
import { hourlyVisitorShare, MIN_HOURLY_VISITOR_MESSAGES } from "../../src/billing/visitor-allowance.ts";

let context: TestContext;
let tenantId: string;
let apiKey: string;
afterEach(() => context.close());

// Behind a trusted proxy, so each test client can have its own address.
beforeEach(async () => {
  context = buildTestApp({ trustProxy: true });
  const seeded = await seedTenant(context.deps, "Clinic");
  tenantId = seeded.tenant.id;
  apiKey = seeded.apiKey;
});

const fromAddress = (ip: string) => ({ "x-forwarded-for": ip });

async function openSession(ip: string) {
  const response = await context.request("POST", "/api/v1/widget/session", {
    body: { tenant_id: tenantId },
    headers: fromAddress(ip),
  });
  return {
    response,
    token: response.status === 201 ? ((await response.json()) as { access_token: string }).access_token : "",
  };
}

const usage = async () =>
  (await (await context.request("GET", "/api/v1/usage", { headers: { "x-api-key": apiKey } })).json()) as {
    used: number;
    visitor_refused: number;
  };

describe("anonymous visitors cannot drain a tenant's quota", () => {
  test("the hourly share is 2 % of the monthly quota per address, never below 10, none on unlimited plans", () => {
    expect(hourlyVisitorShare("free", 0.02)).toBe(20);
    expect(hourlyVisitorShare("starter", 0.02)).toBe(200);
    expect(hourlyVisitorShare("free", 0.001)).toBe(MIN_HOURLY_VISITOR_MESSAGES);
    expect(hourlyVisitorShare("business", 0.02)).toBeNull();
  });

  test("one address spreading messages over many sessions is refused at its share with 429; the quota moved only by what was accepted", async () => {
    const attacker = "198.51.100.7";
    const statuses: number[] = [];
    // 18 sessions × 3 messages from one address: the free plan's share is 20 an hour.
    for (let session = 0; session < 18; session++) {
      const { token } = await openSession(attacker);
      for (let message = 0; message < 3; message++)
        statuses.push(
          (await say(context, token, tenantId, "what are your opening hours", {}, fromAddress(attacker))).status,
        );
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
    const { token } = await openSession(attacker);
    const refused = await say(context, token, tenantId, "hello", {}, fromAddress(attacker));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });

    // A real visitor elsewhere is still served.
    const visitor = await openSession("203.0.113.50");
    expect(
      (await say(context, visitor.token, tenantId, "do you do whitening?", {}, fromAddress("203.0.113.50"))).status,
    ).toBe(200);

    const counted = await usage();
    expect(counted.used).toBe(21);
    expect(counted.visitor_refused).toBe(statuses.length - 20 + 1);

    // An hour later the address has its share again.
    context.clock.advance(3_600_000);
    expect((await say(context, token, tenantId, "hello again", {}, fromAddress(attacker))).status).toBe(200);
  });

  test("one address may open 20 sessions a tenant per hour; the 21st is 429, another tenant is unaffected", async () => {
    for (let i = 0; i < 20; i++) expect((await openSession("198.51.100.8")).response.status).toBe(201);
    const refused = await openSession("198.51.100.8");
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("retry-after")).toBeTruthy();
    const other = await seedTenant(context.deps, "Garage");
    const elsewhere = await context.request("POST", "/api/v1/widget/session", {
      body: { tenant_id: other.tenant.id },
      headers: fromAddress("198.51.100.8"),
    });
    expect(elsewhere.status).toBe(201);
    expect((await usage()).visitor_refused).toBe(1);
  });

  test("the tenant's own daily cap on anonymous messages holds across addresses and resets at midnight UTC", async () => {
    const patched = await context.request("PATCH", "/api/v1/chatbot/config", {
      headers: { "x-api-key": apiKey },
      body: { limits: { anonymous_daily_messages: 3 } },
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { limits: unknown }).limits).toEqual({ anonymous_daily_messages: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const ip = `203.0.113.${i + 1}`;
      const { token } = await openSession(ip);
      statuses.push((await say(context, token, tenantId, "hi", {}, fromAddress(ip))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await usage()).used).toBe(3);
    // The fake clock starts at 09:00 UTC: 15 hours later it is the next day.
    context.clock.advance(15 * 3_600_000);
    const { token } = await openSession("203.0.113.99");
    expect((await say(context, token, tenantId, "hi", {}, fromAddress("203.0.113.99"))).status).toBe(200);
  });

  test("the daily cap is validated: a positive whole number or null", async () => {
    for (const bad of [0, -1, 1.5, "10", { n: 1 }]) {
      const response = await context.request("PATCH", "/api/v1/chatbot/config", {
        headers: { "x-api-key": apiKey },
        body: { limits: { anonymous_daily_messages: bad } },
      });
      expect(response.status).toBe(422);
    }
    const unknownKey = await context.request("PATCH", "/api/v1/chatbot/config", {
      headers: { "x-api-key": apiKey },
      body: { limits: { per_ip: 3 } },
    });
    expect(unknownKey.status).toBe(422);
    const cleared = await context.request("PATCH", "/api/v1/chatbot/config", {
      headers: { "x-api-key": apiKey },
      body: { limits: { anonymous_daily_messages: null } },
    });
    expect(cleared.status).toBe(200);
  });

  test("members and API callers are not anonymous: the share does not apply to them", async () => {
    const login = await context.request("POST", "/api/v1/auth/token", {
      body: { email: "owner@clinic.test", password: "correct horse battery" },
    });
    const { access_token } = (await login.json()) as { access_token: string };
    for (let i = 0; i < 25; i++)
      expect(
        (await say(context, access_token, tenantId, "what are your opening hours", {}, fromAddress("198.51.100.9")))
          .status,
      ).toBe(200);
  });
});
