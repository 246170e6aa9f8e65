import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_BODY_BYTES } from "../../src/http/body.ts";
import { MAX_VALIDATION_DETAILS } from "../../src/http/errors.ts";
import { MAX_JSON_CONTAINERS, MAX_JSON_DEPTH } from "../../src/lib/safe-json.ts";
import { buildTestApp, login, seedTenant, type TestContext } from "../helpers.ts";

/**
 * Nested and oversized bodies on every route that takes one, with every kind of credential
 * (none included: the widget session and token routes are open). Each answer is below 500 and
 * comes without a stall, and the process does not balloon: such a body once held the one
 * JavaScript thread for seconds and left gigabytes allocated, on a route that needs no login.
 */
let context: TestContext;
let tenantId: string;
let headersByCredential: Record<string, Record<string, string>>;

context = buildTestApp({ rateLimits: false }, {}, { resolveHost: async () => ["93.184.216.34"] });
const BODY_ROUTES = [
  ...new Map(
    context.app.routes
      .filter((route) => ["POST", "PUT", "PATCH"].includes(route.method))
      .map((route) => [`${route.method} ${route.path}`, route]),
  ).values(),
];

const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** Hostile bodies by name; `tenant` is filled in so that open routes get past their first check. */
function hostileBodies(tenant: string): Record<string, string> {
  const head = `{"tenant_id":"${tenant}","email":"a@b.test","password":"x","message":"hi"`;
  const wideKeys = Array.from({ length: 6000 }, (_, i) => `"k${i}":0`).join(",");
  const bodies: Record<string, string> = {};
  for (const depth of [100, 5_000, 30_000]) {
    bodies[`unknown key, arrays ${depth} deep`] = `${head},"x":${arrays(depth)}}`;
    bodies[`string field, arrays ${depth} deep`] =
      `{"tenant_id":"${tenant}","message":${arrays(depth)},"text":${arrays(depth)}}`;
    bodies[`unknown key, objects ${depth} deep`] = `${head},"x":${objects(depth)}}`;
    bodies[`top level, arrays ${depth} deep`] = arrays(depth);
  }
  bodies["many shallow arrays up to the size limit"] =
    `${`${head},"x":[${Array.from({ length: 2_000 }, () => arrays(MAX_JSON_DEPTH - 2)).join(",")}]}`.slice(0, MAX_BODY_BYTES - 2)}]}`;
  bodies["thousands of unknown keys"] = `${head},${wideKeys}}`;
  bodies["one key the size of the limit"] = `${head},"${"k".repeat(MAX_BODY_BYTES - 200)}":1}`;
  return bodies;
}

beforeAll(async () => {
  const seeded = await seedTenant(context.deps, "Hostile");
  tenantId = seeded.tenant.id;
  const { access_token } = await login(context, seeded.email);
  headersByCredential = {
    none: {},
    apiKey: { "x-api-key": seeded.apiKey },
    member: { authorization: `Bearer ${access_token}` },
  };
});
afterAll(() => context.close());

const MIB = 1024 * 1024;

/** The process's resident memory after a full collection: what a route's requests left behind, not garbage yet to be swept. */
function settledRss(): number {
  Bun.gc(true);
  return process.memoryUsage().rss;
}

describe("hostile bodies on every route", () => {
  for (const route of BODY_ROUTES) {
    test(`${route.method} ${route.path} answers each below 500, within a second, with a small error`, async () => {
      const path = route.path.replaceAll(/:(\w+)/g, (_, name: string) => (name.startsWith("tenant") ? tenantId : "x"));
      const failures: string[] = [];
      const startRss = settledRss();
      for (const [credential, headers] of Object.entries(headersByCredential)) {
        for (const [name, rawBody] of Object.entries(hostileBodies(tenantId))) {
          const started = performance.now();
          const response = await context.request(route.method, path, {
            rawBody,
            headers: { ...headers, "content-type": "application/json" },
          });
          const text = await response.text();
          const elapsed = performance.now() - started;
          if (response.status >= 500) failures.push(`${credential}, ${name}: ${response.status} ${text.slice(0, 200)}`);
          // A stall detector with a wide margin, not a speed measure (bench/hostile-input.ts is that).
          if (elapsed > 1_000) failures.push(`${credential}, ${name}: answered after ${Math.round(elapsed)} ms`);
          if (text.length > 8 * 1024) failures.push(`${credential}, ${name}: a ${text.length}-byte answer`);
        }
      }
      expect(failures).toEqual([]);
      // One such body once left the process 1.8 GB larger; a route's whole battery may not leave 256 MB.
      expect(settledRss() - startRss).toBeLessThan(256 * MIB);
    });
  }
});

describe("the nesting limit", () => {
  test("a body nested deeper than the limit is refused with 400 invalid_json before validation", async () => {
    const response = await context.request("POST", "/api/v1/widget/session", {
      rawBody: `{"tenant_id":"${tenantId}","x":${arrays(MAX_JSON_DEPTH)}}`,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe("invalid_json");
    expect(body.message).toContain(`${MAX_JSON_DEPTH} levels`);
  });

  test("a body exactly at the limit is parsed and validated as usual", async () => {
    const response = await context.request("POST", "/api/v1/widget/session", {
      rawBody: `{"tenant_id":"${tenantId}","x":${arrays(MAX_JSON_DEPTH - 1)}}`,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { details: Array<{ field: string; message: string }> }).details).toEqual([
      { field: "x", message: "is not a known field" },
    ]);
  });

  test("a body with more arrays and objects than the limit is refused with 400 invalid_json", async () => {
    const many = Array(MAX_JSON_CONTAINERS).fill("[]").join(",");
    const response = await context.request("POST", "/api/v1/widget/session", {
      rawBody: `{"tenant_id":"${tenantId}","x":[${many}]}`,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(
      `more than ${MAX_JSON_CONTAINERS} arrays and objects`,
    );
  });

  test("brackets inside strings do not count toward the depth", async () => {
    const response = await context.request("POST", "/api/v1/widget/session", {
      rawBody: JSON.stringify({ tenant_id: tenantId, x: arrays(500) }),
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(422);
  });

  test("a validation failure describes at most a bounded number of fields", async () => {
    const body: Record<string, unknown> = { tenant_id: tenantId };
    for (let i = 0; i < 500; i++) body[`unknown_${i}`] = i;
    const response = await context.request("POST", "/api/v1/widget/session", { body });
    expect(response.status).toBe(422);
    const answer = (await response.json()) as { details: unknown[] };
    expect(answer.details).toHaveLength(MAX_VALIDATION_DETAILS);
  });

  test("a field name as long as the body limit comes back cut short", async () => {
    const response = await context.request("POST", "/api/v1/widget/session", {
      body: { tenant_id: tenantId, ["k".repeat(60_000)]: 1 },
    });
    expect(response.status).toBe(422);
    const text = await response.text();
    expect(text.length).toBeLessThan(1_024);
  });
});
