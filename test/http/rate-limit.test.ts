import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { RATE_GROUPS } from "../../src/http/plugins/rate-limit.ts";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";

let context: TestContext;
afterEach(() => context.close());

const badLogin = (headers: Record<string, string> = {}) =>
  context.request("POST", "/api/v1/auth/token", { body: { email: "x@y.test", password: "wrong-password" }, headers });

describe("auth group: 5 per 60 s per client address", () => {
  beforeEach(() => {
    context = buildTestApp();
  });

  test("the 6th attempt inside the window answers 429 with an exact Retry-After", async () => {
    for (let i = 0; i < 5; i++) {
      const response = await badLogin();
      expect(response.status).toBe(401);
      expect(response.headers.get("ratelimit-limit")).toBe("5");
      expect(response.headers.get("ratelimit-remaining")).toBe(String(4 - i));
      context.clock.advance(10_000);
    }
    // Attempts were at 0, 10, 20, 30, 40 s; now it is 50 s: the first frees at 60 s.
    const limited = await badLogin();
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: "rate_limited" });
    expect(limited.headers.get("retry-after")).toBe("10");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("ratelimit-reset")).toBe("10");
  });

  test("a request is allowed again once the window slides past the oldest one", async () => {
    for (let i = 0; i < 5; i++) {
      await badLogin();
      context.clock.advance(10_000);
    }
    // Now 50 s: attempts at 0…40 s fill the window.
    expect((await badLogin()).status).toBe(429);
    context.clock.advance(9_000);
    expect((await badLogin()).status).toBe(429);
    context.clock.advance(1_000);
    // 60 s: the attempt from 0 s has left the window, so exactly one slot is free.
    expect((await badLogin()).status).toBe(401);
    expect((await badLogin()).status).toBe(429);
  });

  test("the same path with a trailing slash (or a query) counts against the same bucket", async () => {
    for (let i = 0; i < 5; i++) await badLogin();
    const variants = ["/api/v1/auth/token/", "/api/v1/auth/token?x=1", "/api/v1/auth/refresh/"];
    for (const path of variants) {
      const body = path.includes("refresh")
        ? { refresh_token: "not-a-token" }
        : { email: "x@y.test", password: "wrong-password" };
      expect((await context.request("POST", path, { body })).status).toBe(429);
    }
  });

  test("a spoofed X-Forwarded-For does not buy a new bucket when the proxy is not trusted", async () => {
    for (let i = 0; i < 5; i++) await badLogin({ "x-forwarded-for": `10.0.0.${i}` });
    expect((await badLogin({ "x-forwarded-for": "10.9.9.9" })).status).toBe(429);
  });
});

describe("auth group behind a trusted proxy", () => {
  beforeEach(() => {
    context = buildTestApp({ trustProxy: true });
  });

  test("each forwarded client address has its own bucket", async () => {
    for (let i = 0; i < 5; i++) await badLogin({ "x-forwarded-for": "203.0.113.7" });
    expect((await badLogin({ "x-forwarded-for": "203.0.113.7" })).status).toBe(429);
    expect((await badLogin({ "x-forwarded-for": "203.0.113.8" })).status).toBe(401);
  });

  test("the right-most entry is the one counted: a client cannot prepend its way out", async () => {
    for (let i = 0; i < 5; i++) await badLogin({ "x-forwarded-for": `198.51.100.${i}, 203.0.113.7` });
    expect((await badLogin({ "x-forwarded-for": "1.2.3.4, 203.0.113.7" })).status).toBe(429);
  });
});

describe("management group: 120 per 60 s per API key", () => {
  beforeEach(() => {
    context = buildTestApp();
  });

  test("the 121st request with one key is limited; another key is not", async () => {
    const first = await seedTenant(context.deps, "One");
    const second = await seedTenant(context.deps, "Two");
    const get = (key: string) => context.request("GET", "/api/v1/tenant", { headers: { "x-api-key": key } });
    for (let i = 0; i < RATE_GROUPS.management.limit; i++) expect((await get(first.apiKey)).status).toBe(200);
    const limited = await get(first.apiKey);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect((await get(second.apiKey)).status).toBe(200);
  });
});

describe("PARLEY_RATE_LIMITS=off", () => {
  test("lifts every limit (for benchmarks)", async () => {
    context = buildTestApp({ rateLimits: false });
    for (let i = 0; i < 10; i++) expect((await badLogin()).status).toBe(401);
  });
});

describe("the group table", () => {
  test("matches DESIGN §3, plus the per-IP limits on failed credentials and rejected hooks and the per-account one on wrong passwords", () => {
    expect(RATE_GROUPS).toEqual({
      auth: { limit: 5, windowMs: 60_000 },
      chat: { limit: 60, windowMs: 60_000 },
      hooks: { limit: 500, windowMs: 60_000 },
      hook_rejects: { limit: 60, windowMs: 60_000 },
      login_failures: { limit: 20, windowMs: 900_000 },
      credential_failures: { limit: 20, windowMs: 60_000 },
      analytics: { limit: 120, windowMs: 60_000 },
      management: { limit: 120, windowMs: 60_000 },
    });
  });
});

describe("failed credentials: 20 per 60 s per client address", () => {
  beforeEach(() => {
    context = buildTestApp();
  });

  test("the 21st wrong API key answers 429, and then even a right key from that address waits", async () => {
    const seeded = await seedTenant(context.deps, "Keys");
    const wrong = () =>
      context.request("GET", "/api/v1/webhooks/rules-engine/rules", {
        headers: { "x-api-key": `pk_${"x".repeat(40)}` },
      });
    for (let i = 0; i < 20; i++) expect((await wrong()).status).toBe(401);
    const limited = await wrong();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(
      (await context.request("GET", "/api/v1/webhooks/rules-engine/rules", { headers: { "x-api-key": seeded.apiKey } }))
        .status,
    ).toBe(429);
    context.clock.advance(60_000);
    expect(
      (await context.request("GET", "/api/v1/webhooks/rules-engine/rules", { headers: { "x-api-key": seeded.apiKey } }))
        .status,
    ).toBe(200);
  });

  test("invalid Bearer tokens count the same way", async () => {
    for (let i = 0; i < 20; i++)
      expect(
        (await context.request("GET", "/api/v1/me", { headers: { authorization: "Bearer not-a-token" } })).status,
      ).toBe(401);
    expect(
      (await context.request("GET", "/api/v1/me", { headers: { authorization: "Bearer not-a-token" } })).status,
    ).toBe(429);
  });

  test("a valid key is never slowed down by its own traffic: only failures count", async () => {
    const seeded = await seedTenant(context.deps, "Busy");
    for (let i = 0; i < 60; i++) {
      expect(
        (
          await context.request("GET", "/api/v1/webhooks/rules-engine/rules", {
            headers: { "x-api-key": seeded.apiKey },
          })
        ).status,
      ).toBe(200);
    }
  });
});

describe("auth group counts before the body is parsed", () => {
  beforeEach(() => {
    context = buildTestApp();
  });

  test("malformed JSON to /auth/token uses up the limit like a wrong password", async () => {
    for (let i = 0; i < 5; i++) {
      const response = await context.request("POST", "/api/v1/auth/token", {
        rawBody: '{"email": "x@y.test", "password": ',
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(400);
    }
    expect((await badLogin()).status).toBe(429);
  });
});
