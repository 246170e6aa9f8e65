import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, login, seedTenant, TEST_PASSWORD, type TestContext } from "../helpers.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { exampleRequest, FETCHING_ROUTES, openApiDocument, type OpenApiDocument } from "./openapi-examples.ts";

// What an agent may do: work the inbox, its own profile, knowledge search. Everything else
// under /api/v1 that needs credentials is for owners and admins, and the API refuses it.
const AGENT_ROUTES = new Set([
  "GET /api/v1/me",
  "PATCH /api/v1/me",
  "POST /api/v1/me/password",
  "GET /api/v1/tenant",
  "POST /api/v1/chatbot/message",
  "GET /api/v1/chatbot/sessions/:id/messages",
  "GET /api/v1/chatbot/sessions/:id/stream",
  // The visitor's own (its token); a member reaches it like the transcript, no role needed.
  "POST /api/v1/chatbot/sessions/:id/rating",
  "GET /api/v1/inbox",
  "GET /api/v1/inbox/stream",
  "GET /api/v1/inbox/search",
  "GET /api/v1/inbox/chats/:id",
  "POST /api/v1/inbox/chats/:id/read",
  "POST /api/v1/sessions/:id/assign",
  "POST /api/v1/sessions/:id/reopen",
  "GET /api/v1/canned-replies",
  "GET /api/v1/sessions",
  "POST /api/v1/sessions/:id/operator-messages",
  "POST /api/v1/sessions/:id/typing",
  "POST /api/v1/sessions/:id/close",
  "GET /api/v1/knowledge/search",
  "POST /api/v1/analytics/events",
]);
// Routes that take no member credentials at all (log-in, the widget's own, inbound hooks).
const PUBLIC_PREFIXES = ["/api/v1/auth/", "/api/v1/widget/", "/api/v1/hooks/"];

let context: TestContext;
let document: OpenApiDocument;
let agentToken = "";
let ownerToken = "";
beforeAll(async () => {
  // Rule URLs are checked against DNS: a fixed public address stands in for the examples' host.
  context = buildTestApp({ rateLimits: false }, {}, { resolveHost: async () => ["93.184.216.34"] });
  const { tenant, email } = await seedTenant(context.deps, "Roles");
  await createUser(context.deps, {
    email: "agent@roles.test",
    tenantId: tenant.id,
    role: "agent",
    password: TEST_PASSWORD,
  });
  agentToken = (await login(context, "agent@roles.test")).access_token;
  ownerToken = (await login(context, email)).access_token;
  document = await openApiDocument(context);
});
afterAll(() => context.close());

const adminOnlyRoutes = () =>
  context.app.routes
    .filter((route) => route.path.startsWith("/api/v1/") && !["OPTIONS", "HEAD"].includes(route.method))
    .filter((route) => !PUBLIC_PREFIXES.some((prefix) => route.path.startsWith(prefix)))
    .filter((route) => !AGENT_ROUTES.has(`${route.method} ${route.path}`));

describe("an agent at the API", () => {
  test("gets 403 forbidden, with a message naming the role needed, on every admin-only route", async () => {
    const routes = adminOnlyRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const answered: string[] = [];
    for (const route of routes) {
      const { path, body } = exampleRequest(document, route.method, route.path);
      const response = await context.request(route.method, path, {
        headers: { authorization: `Bearer ${agentToken}` },
        body,
      });
      const payload = (await response.json().catch(() => null)) as { error?: string; message?: string } | null;
      if (response.status !== 403 || payload?.error !== "forbidden" || !/owner/.test(payload.message ?? ""))
        answered.push(`${route.method} ${route.path} → ${response.status} ${payload?.error}`);
    }
    expect(answered).toEqual([]);
  });

  test("the same example requests are not refused to an owner, so the walk above reaches the role check", async () => {
    const refused: string[] = [];
    for (const route of adminOnlyRoutes().filter((route) => !FETCHING_ROUTES.has(`${route.method} ${route.path}`))) {
      const { path, body } = exampleRequest(document, route.method, route.path);
      const response = await context.request(route.method, path, {
        headers: { authorization: `Bearer ${ownerToken}` },
        body,
      });
      if (response.status === 401 || response.status === 403 || response.status === 422)
        refused.push(`${route.method} ${route.path} → ${response.status} ${await response.text()}`);
    }
    expect(refused).toEqual([]);
  });

  test("works the inbox, its profile and knowledge search", async () => {
    const bearer = { authorization: `Bearer ${agentToken}` };
    for (const path of ["/api/v1/inbox", "/api/v1/sessions", "/api/v1/me", "/api/v1/knowledge/search?q=hours"]) {
      expect([path, (await context.request("GET", path, { headers: bearer })).status]).toEqual([path, 200]);
    }
    const renamed = await context.request("PATCH", "/api/v1/me", { headers: bearer, body: { display_name: "Sam" } });
    expect(((await renamed.json()) as { display_name: string }).display_name).toBe("Sam");
  });
});
