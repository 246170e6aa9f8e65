import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, login, seedTenant, type TestContext } from "../helpers.ts";
import { openWidgetSession } from "./chat-helpers.ts";

/**
 * Bad input never answers 500: every route, every credential, a battery of hostile bodies,
 * queries and path parameters. Deterministic (no randomness), bounded.
 */
let context: TestContext;
let headersByCredential: Record<string, Record<string, string>>;
let tenantId: string;
const seenStatuses = new Map<number, number>();

// Every route the app registers, so a new route is fuzzed the day it is added.
context = buildTestApp(
  { rateLimits: false, allowPrivateWebhooks: false },
  {},
  { resolveHost: async () => ["93.184.216.34"] },
);
const ROUTES: Array<[string, string]> = [
  ...new Map(
    context.app.routes.map((route) => [
      `${route.method} ${route.path}`,
      [route.method, route.path] as [string, string],
    ]),
  ).values(),
];

const IDS = [
  "x",
  "%00",
  "..%2F..%2Fetc",
  `ten_${"9".repeat(26)}`,
  "'; DROP TABLE tenants; --",
  "%F0%9F%92%A9",
  "a".repeat(200),
];

const BODIES: unknown[] = [
  null,
  0,
  -1e308,
  "text",
  [],
  [{}],
  {},
  { tenant_id: null, message: null, email: [], password: {}, plan: 7, text: true, secret: 1 },
  { tenant_id: "ten_x", message: "\u0000\u202e💩".repeat(100), session_id: "../../x" },
  {
    name: "n",
    event: "lead.created",
    url: "javascript:alert(1)",
    secret: "s".repeat(20),
    active: true,
    conditions: { min_confidence: "high" },
  },
  { name: "n", event: "lead.created", url: "http://[::1]:99999/", secret: "s".repeat(20), active: true },
  {
    greeting: { nested: { deeper: [1, 2, 3] } },
    faq: "none",
    appointments: { business_hours: { mon: { open: "25:00", close: "-1" } } },
  },
  { since: "9999-99-99", event: "lead.created" },
  { refresh_token: `rt_${"x".repeat(150)}` },
  { __proto__: { admin: true }, constructor: { prototype: { polluted: true } } },
];

const QUERIES = [
  "",
  "?limit=-1",
  "?limit=1.5",
  "?limit=1e9",
  "?limit=abc&cursor=%00",
  "?cursor=garbage",
  "?tenant_id=ten_other",
  "?status[]=x",
  "?after=%FF",
  "?since=tomorrow",
];

beforeAll(async () => {
  const seeded = await seedTenant(context.deps, "Fuzz");
  tenantId = seeded.tenant.id;
  const { access_token } = await login(context, seeded.email);
  const visitor = await openWidgetSession(context, tenantId);
  headersByCredential = {
    none: {},
    apiKey: { "x-api-key": seeded.apiKey },
    member: { authorization: `Bearer ${access_token}` },
    visitor: { authorization: `Bearer ${visitor.access_token}` },
    garbage: { authorization: "Bearer \u00ff\u00fe", "x-api-key": `pk_${"!".repeat(40)}` },
  };
});
afterAll(() => context.close());

describe("no request answers 500", () => {
  for (const [method, template] of ROUTES) {
    test(`${method} ${template}`, async () => {
      const failures: string[] = [];
      for (const [credential, headers] of Object.entries(headersByCredential)) {
        for (const id of IDS.slice(0, 3)) {
          // Tenant ids in hook paths are real (so the handlers run); every other parameter is hostile.
          const path = template.replaceAll(/:(\w+)/g, (_, name: string) => (name.startsWith("tenant") ? tenantId : id));
          for (const query of method === "GET" ? QUERIES : [""]) {
            const hasBody = !["GET", "DELETE", "OPTIONS"].includes(method);
            const bodies = hasBody ? BODIES : [undefined];
            const variants: Array<Parameters<TestContext["request"]>[2]> = bodies.map((body) => ({ body, headers }));
            if (hasBody) {
              variants.push({
                rawBody: '{"tenant_id": "ten_',
                headers: { ...headers, "content-type": "application/json" },
              });
              variants.push({ rawBody: "tenant_id=x", headers: { ...headers, "content-type": "text/plain" } });
            }
            for (const variant of variants) {
              const body = variant?.body ?? variant?.rawBody;
              const response = await context.request(method, `${path}${query}`, variant);
              seenStatuses.set(response.status, (seenStatuses.get(response.status) ?? 0) + 1);
              if (response.status >= 500)
                failures.push(
                  `${credential} ${path}${query} ${JSON.stringify(body)?.slice(0, 80)} → ${response.status} ${await response.text()}`,
                );
              else if (template.startsWith("/api/"))
                expect(response.headers.get("content-type") ?? "").toMatch(/json|text\/plain|text\/event-stream/);
            }
          }
        }
      }
      expect(failures).toEqual([]);
    });
  }

  test("the route list is the app's own: every API resource is in it", () => {
    const paths = ROUTES.map(([, path]) => path);
    for (const path of [
      "/api/v1/auth/token",
      "/api/v1/chatbot/message",
      "/api/v1/webhooks/rules-engine/rules/:id",
      "/api/v1/hooks/payments/:tenant_id",
      "/api/v1/analytics/summary",
    ]) {
      expect(paths).toContain(path);
    }
    expect(ROUTES.length).toBeGreaterThanOrEqual(50);
  });

  test("the battery really reached the handlers: successes and each kind of refusal were seen", () => {
    for (const status of [200, 400, 401, 404, 415, 422]) expect(seenStatuses.get(status) ?? 0).toBeGreaterThan(0);
  });

  test("hostile path ids on every id route", async () => {
    const failures: string[] = [];
    for (const id of IDS) {
      for (const path of [
        `/api/v1/webhooks/rules-engine/rules/${id}`,
        `/api/v1/webhooks/deliveries/${id}`,
        `/api/v1/chatbot/sessions/${id}/messages`,
        `/api/v1/hooks/payments/${id}`,
      ]) {
        const response = await context.request(path.startsWith("/api/v1/hooks") ? "POST" : "GET", path, {
          headers: headersByCredential.apiKey,
          body: path.startsWith("/api/v1/hooks") ? {} : undefined,
        });
        if (response.status >= 500) failures.push(`${path} → ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
