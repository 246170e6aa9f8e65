import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, login, seedTenant, type TestContext } from "../helpers.ts";

let context: TestContext;
let seeded: Awaited<ReturnType<typeof seedTenant>>;
beforeEach(async () => {
  context = buildTestApp({ rateLimits: false });
  seeded = await seedTenant(context.deps);
});
afterEach(() => context.close());

/** Every JSON-body route so far, with a body that is valid for it; `{key}` is the tenant's API key. */
const BODY_ROUTES: Array<{
  method: string;
  path: string;
  valid: Record<string, unknown>;
  apiKey?: boolean;
  hasRequiredFields?: false;
}> = [
  { method: "POST", path: "/api/v1/auth/token", valid: { email: "a@b.test", password: "whatever-pass" } },
  { method: "POST", path: "/api/v1/auth/refresh", valid: { refresh_token: "rt_x" } },
  {
    method: "POST",
    path: "/api/v1/webhooks/rules-engine/rules",
    valid: { name: "n", event: "lead.created", url: "https://93.184.216.34/h", secret: "s".repeat(16), active: true },
    apiKey: true,
  },
  {
    method: "PATCH",
    path: "/api/v1/webhooks/rules-engine/rules/rule_x",
    valid: { name: "n" },
    apiKey: true,
    hasRequiredFields: false,
  },
  {
    method: "POST",
    path: "/api/v1/webhooks/dead-letters/retrigger",
    valid: { event: "lead.created" },
    apiKey: true,
    hasRequiredFields: false,
  },
  { method: "POST", path: "/api/v1/widget/session", valid: { tenant_id: "ten_x" } },
  { method: "POST", path: "/api/v1/chatbot/message", valid: { tenant_id: "ten_x", message: "hi" }, apiKey: true },
  { method: "PUT", path: "/api/v1/subscription", valid: { plan: "pro" }, apiKey: true },
  { method: "POST", path: "/api/v1/analytics/events", valid: { events: [{ name: "widget_opened" }] }, apiKey: true },
  {
    method: "PATCH",
    path: "/api/v1/chatbot/config",
    valid: { greeting: "Hello there" },
    apiKey: true,
    hasRequiredFields: false,
  },
  { method: "POST", path: "/api/v1/sessions/ses_x/operator-messages", valid: { text: "hello" }, apiKey: true },
];

async function expectJsonError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/json");
  const body = await response.json();
  expect(body.error).toBe(error);
  expect(typeof body.message).toBe("string");
  return body;
}

describe.each(BODY_ROUTES)("$method $path", ({ method, path, valid, apiKey, hasRequiredFields }) => {
  const request = (options: Parameters<TestContext["request"]>[2] = {}) =>
    context.request(method, path, {
      ...options,
      headers: { ...options.headers, ...(apiKey ? { "x-api-key": seeded.apiKey } : {}) },
    });

  test("malformed JSON answers 400 invalid_json", async () => {
    await expectJsonError(
      await request({ rawBody: '{"email": ', headers: { "content-type": "application/json" } }),
      400,
      "invalid_json",
    );
  });

  test("a field of the wrong type answers 422 with details naming it", async () => {
    const [field] = Object.keys(valid);
    const body = await expectJsonError(
      await request({ body: { ...valid, [field ?? "x"]: 42 } }),
      422,
      "validation_failed",
    );
    expect(body.details.filter((detail: { field: string }) => detail.field === field)).toHaveLength(1);
  });

  test("an unknown key answers 422", async () => {
    const body = await expectJsonError(await request({ body: { ...valid, admin: true } }), 422, "validation_failed");
    expect(JSON.stringify(body.details)).toContain("admin");
  });

  // Routes whose fields are all optional (PATCH, filters) accept {}: only the others are asked.
  if (hasRequiredFields !== false) {
    test("a missing field answers 422, with one detail per field", async () => {
      const body = await expectJsonError(await request({ body: {} }), 422, "validation_failed");
      const fields = body.details.map((detail: { field: string }) => detail.field);
      expect(fields.length).toBeGreaterThan(0);
      expect(new Set(fields).size).toBe(fields.length);
      for (const detail of body.details) expect(detail.message).toBe("is required");
    });
  }

  test("a JSON array, string, number, boolean or null instead of an object answers 422", async () => {
    for (const body of [[valid], "hello", [], null, 5, true]) {
      const error = await expectJsonError(await request({ body }), 422, "validation_failed");
      expect(error.details).toEqual([{ field: "(body)", message: "must be a JSON object" }]);
    }
  });

  test("a body over 64 KiB answers 413", async () => {
    await expectJsonError(
      await request({ body: { ...valid, padding: "x".repeat(65 * 1024) } }),
      413,
      "payload_too_large",
    );
  });

  test("a body over 64 KiB without a Content-Length answers 413", async () => {
    const big = JSON.stringify({ ...valid, padding: "x".repeat(65 * 1024) });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const headers: Record<string, string> = {
      "content-type": "application/json",
      ...(apiKey ? { "x-api-key": seeded.apiKey } : {}),
    };
    const response = await context.app.handle(
      new Request(`http://localhost${path}`, { method, body: stream, headers }),
    );
    await expectJsonError(response, 413, "payload_too_large");
  });

  test("a form-encoded or text body answers 415", async () => {
    await expectJsonError(
      await request({ rawBody: "email=a", headers: { "content-type": "application/x-www-form-urlencoded" } }),
      415,
      "unsupported_media_type",
    );
    await expectJsonError(
      await request({ rawBody: JSON.stringify(valid), headers: { "content-type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
  });

  test("an empty body declared as JSON answers 400 invalid_json", async () => {
    await expectJsonError(
      await request({ rawBody: "", headers: { "content-type": "application/json" } }),
      400,
      "invalid_json",
    );
  });

  // What `curl -H 'content-type: application/json' -d ''` sends: the server hands Elysia no body
  // stream at all, so its parser is never asked.
  test("a body declared as JSON with Content-Length: 0 answers 400 invalid_json too", async () => {
    await expectJsonError(
      await request({ headers: { "content-type": "application/json", "content-length": "0" } }),
      400,
      "invalid_json",
    );
  });
});

describe("every response", () => {
  test("carries an X-Request-Id, echoing a sane incoming one", async () => {
    const fresh = await context.request("GET", "/healthz");
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await context.request("GET", "/api/v1/nope", { headers: { "x-request-id": "trace-123" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-123");
    const insane = await context.request("GET", "/healthz", { headers: { "x-request-id": "<script>" } });
    expect(insane.headers.get("x-request-id")).not.toBe("<script>");
  });

  test("an unknown route answers a JSON 404", async () => {
    await expectJsonError(await context.request("GET", "/api/v1/does-not-exist"), 404, "not_found");
    await expectJsonError(await context.request("DELETE", "/api/v1/auth/token"), 404, "not_found");
  });

  test("GET routes ignore unknown query keys only where allowed: /tenant refuses them", async () => {
    const { access_token } = await login(context, seeded.email);
    await expectJsonError(
      await context.request("GET", "/api/v1/tenant?evil=1", { headers: { authorization: `Bearer ${access_token}` } }),
      422,
      "validation_failed",
    );
  });
});

describe("health", () => {
  test("/healthz and /readyz answer while the database is reachable", async () => {
    expect(await (await context.request("GET", "/healthz")).json()).toEqual({ status: "ok" });
    expect(await (await context.request("GET", "/readyz")).json()).toEqual({ status: "ready" });
  });

  test("/readyz answers 503 when the database is gone", async () => {
    context.close();
    await expectJsonError(await context.request("GET", "/readyz"), 503, "not_ready");
  });
});
