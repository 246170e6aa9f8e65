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

const ROUTES: Array<[string, string]> = [
  ["POST", "/api/v1/auth/token"],
  ["POST", "/api/v1/auth/refresh"],
  ["GET", "/api/v1/me"],
  ["GET", "/api/v1/tenant"],
  ["POST", "/api/v1/widget/session"],
  ["POST", "/api/v1/chatbot/message"],
  ["GET", "/api/v1/chatbot/sessions/:id/messages"],
  ["GET", "/api/v1/chatbot/config"],
  ["PATCH", "/api/v1/chatbot/config"],
  ["GET", "/api/v1/sessions"],
  ["POST", "/api/v1/sessions/:id/operator-messages"],
  ["POST", "/api/v1/sessions/:id/close"],
  ["GET", "/api/v1/leads"],
  ["GET", "/api/v1/appointments"],
  ["GET", "/api/v1/subscription"],
  ["PUT", "/api/v1/subscription"],
  ["GET", "/api/v1/usage"],
  ["GET", "/api/v1/webhooks/events"],
  ["POST", "/api/v1/webhooks/rules-engine/rules"],
  ["GET", "/api/v1/webhooks/rules-engine/rules"],
  ["GET", "/api/v1/webhooks/rules-engine/rules/:id"],
  ["PATCH", "/api/v1/webhooks/rules-engine/rules/:id"],
  ["DELETE", "/api/v1/webhooks/rules-engine/rules/:id"],
  ["POST", "/api/v1/webhooks/rules-engine/rules/:id/test"],
  ["GET", "/api/v1/webhooks/deliveries"],
  ["GET", "/api/v1/webhooks/deliveries/:id"],
  ["GET", "/api/v1/webhooks/dead-letters"],
  ["POST", "/api/v1/webhooks/dead-letters/retrigger"],
  ["POST", "/api/v1/webhooks/dead-letters/:id/retrigger"],
  ["POST", "/api/v1/hooks/payments/:tenant"],
  ["GET", "/api/v1/integrations/payments"],
  ["POST", "/api/v1/analytics/events"],
  ["GET", "/api/v1/hooks/whatsapp/:tenant"],
  ["POST", "/api/v1/hooks/whatsapp/:tenant"],
  ["GET", "/api/v1/integrations/whatsapp"],
  ["PUT", "/api/v1/integrations/whatsapp"],
  ["GET", "/api/v1/analytics/summary"],
  ["PUT", "/api/v1/integrations/payments"],
];

const IDS = ["x", "%00", "..%2F..%2Fetc", "ten_" + "9".repeat(26), "'; DROP TABLE tenants; --", "%F0%9F%92%A9", "a".repeat(200)];

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
  { name: "n", event: "lead.created", url: "javascript:alert(1)", secret: "s".repeat(20), active: true, conditions: { min_confidence: "high" } },
  { name: "n", event: "lead.created", url: "http://[::1]:99999/", secret: "s".repeat(20), active: true },
  { greeting: { nested: { deeper: [1, 2, 3] } }, faq: "none", appointments: { business_hours: { mon: { open: "25:00", close: "-1" } } } },
  { since: "9999-99-99", event: "lead.created" },
  { refresh_token: "rt_" + "x".repeat(150) },
  { __proto__: { admin: true }, constructor: { prototype: { polluted: true } } },
];

const QUERIES = ["", "?limit=-1", "?limit=1e9", "?limit=abc&cursor=%00", "?tenant_id=ten_other", "?status[]=x", "?after=%FF", "?since=tomorrow"];

beforeAll(async () => {
  context = buildTestApp({ rateLimits: false, allowPrivateWebhooks: false }, {}, { resolveHost: async () => ["93.184.216.34"] });
  const seeded = await seedTenant(context.deps, "Fuzz");
  tenantId = seeded.tenant.id;
  const { access_token } = await login(context, seeded.email);
  const visitor = await openWidgetSession(context, tenantId);
  headersByCredential = {
    none: {},
    apiKey: { "x-api-key": seeded.apiKey },
    member: { authorization: `Bearer ${access_token}` },
    visitor: { authorization: `Bearer ${visitor.access_token}` },
    garbage: { authorization: "Bearer \u00ff\u00fe", "x-api-key": "pk_" + "!".repeat(40) },
  };
});
afterAll(() => context.close());

describe("no request answers 500", () => {
  for (const [method, template] of ROUTES) {
    test(`${method} ${template}`, async () => {
      const failures: string[] = [];
      for (const [credential, headers] of Object.entries(headersByCredential)) {
        for (const id of IDS.slice(0, 3)) {
          const path = template.replace(":id", id).replace(":tenant", tenantId);
          for (const query of method === "GET" ? QUERIES : [""]) {
            const bodies = method === "GET" || method === "DELETE" ? [undefined] : BODIES;
            const variants: Array<Parameters<TestContext["request"]>[2]> = bodies.map((body) => ({ body, headers }));
            if (method !== "GET" && method !== "DELETE") {
              variants.push({ rawBody: '{"tenant_id": "ten_', headers: { ...headers, "content-type": "application/json" } });
              variants.push({ rawBody: "tenant_id=x", headers: { ...headers, "content-type": "text/plain" } });
            }
            for (const variant of variants) {
              const body = variant?.body ?? variant?.rawBody;
              const response = await context.request(method, `${path}${query}`, variant);
              seenStatuses.set(response.status, (seenStatuses.get(response.status) ?? 0) + 1);
              if (response.status >= 500) failures.push(`${credential} ${path}${query} ${JSON.stringify(body)?.slice(0, 80)} → ${response.status} ${await response.text()}`);
              else expect(response.headers.get("content-type") ?? "").toMatch(/json|text\/plain/);
            }
          }
        }
      }
      expect(failures).toEqual([]);
    });
  }

  test("the battery really reached the handlers: successes and each kind of refusal were seen", () => {
    for (const status of [200, 400, 401, 404, 415, 422]) expect(seenStatuses.get(status) ?? 0).toBeGreaterThan(0);
  });

  test("hostile path ids on every id route", async () => {
    const failures: string[] = [];
    for (const id of IDS) {
      for (const path of [`/api/v1/webhooks/rules-engine/rules/${id}`, `/api/v1/webhooks/deliveries/${id}`, `/api/v1/chatbot/sessions/${id}/messages`, `/api/v1/hooks/payments/${id}`]) {
        const response = await context.request(path.startsWith("/api/v1/hooks") ? "POST" : "GET", path, { headers: headersByCredential.apiKey, body: path.startsWith("/api/v1/hooks") ? {} : undefined });
        if (response.status >= 500) failures.push(`${path} → ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
