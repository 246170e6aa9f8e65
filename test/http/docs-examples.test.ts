import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, login, seedTenant, type TestContext } from "../helpers.ts";
import { openWidgetSession } from "./chat-helpers.ts";
import { exampleRequest, FETCHING_ROUTES, openApiDocument } from "./openapi-examples.ts";

// /docs's "Test Request" opens with each operation's examples: sent as they are, with real
// credentials, no body is refused as malformed (422 validation_failed, 400 invalid_json).
// Inbound hooks are left out: their bodies must be signed by Meta or the payment provider.

let context: TestContext;
let owner = "";
let visitor = "";
beforeAll(async () => {
  context = buildTestApp({ rateLimits: false }, {}, { resolveHost: async () => ["93.184.216.34"] });
  const { tenant, email } = await seedTenant(context.deps, "Examples");
  owner = (await login(context, email)).access_token;
  visitor = (await openWidgetSession(context, tenant.id)).access_token;
});
afterAll(() => context.close());

describe("the reference's example requests", () => {
  test("every operation with a body is accepted as the reference fills it in", async () => {
    const document = await openApiDocument(context);
    const refused: string[] = [];
    const routes = context.app.routes.filter(
      (route) =>
        route.path.startsWith("/api/v1/") &&
        !route.path.startsWith("/api/v1/hooks/") &&
        ["POST", "PUT", "PATCH"].includes(route.method) &&
        !FETCHING_ROUTES.has(`${route.method} ${route.path}`),
    );
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const { path, body } = exampleRequest(document, route.method, route.path);
      // The chat and telemetry examples name a tenant that exists nowhere but in the reference: send them as its visitor would.
      const token =
        route.path.startsWith("/api/v1/chatbot/message") || route.path.startsWith("/api/v1/analytics/events")
          ? visitor
          : owner;
      const response = await context.request(route.method, path, {
        headers: { authorization: `Bearer ${token}` },
        body,
      });
      const payload = (await response
        .clone()
        .json()
        .catch(() => null)) as { error?: string; message?: string } | null;
      if (payload?.error === "validation_failed" || payload?.error === "invalid_json")
        refused.push(`${route.method} ${route.path} → ${response.status} ${payload.message}`);
    }
    expect(refused).toEqual([]);
  });
});
