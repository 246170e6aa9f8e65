import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { buildTestApp, type TestContext } from "../helpers.ts";
import { EVENT_NAMES } from "../../src/webhooks/events.ts";

let context: TestContext;
beforeAll(() => {
  context = buildTestApp();
});
afterAll(() => context.close());

type Operation = {
  summary?: string;
  description?: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
const documentOf = async () =>
  (await (await context.request("GET", "/docs/json")).json()) as {
    paths: Record<string, Record<string, Operation>>;
    [key: string]: unknown;
  };

/** A file the binary carries: its text, checked to be gzipped (at least `ratio`× smaller) when asked and to answer 304 to its ETag. */
async function expectGzippedWithEtag(path: string, contentType: string, ratio: number): Promise<string> {
  const plain = await context.request("GET", path);
  expect(plain.status).toBe(200);
  expect(plain.headers.get("content-type")).toBe(contentType);
  const text = await plain.text();
  const gzipped = await context.request("GET", path, { headers: { "accept-encoding": "gzip, br" } });
  expect(gzipped.headers.get("content-encoding")).toBe("gzip");
  const bytes = new Uint8Array(await gzipped.arrayBuffer());
  expect(bytes.length).toBeLessThan(text.length / ratio);
  expect(new TextDecoder().decode(Bun.gunzipSync(bytes))).toBe(text);
  const etag = plain.headers.get("etag") ?? "";
  expect(etag).toMatch(/^"\w+"$/);
  expect((await context.request("GET", path, { headers: { "if-none-match": etag } })).status).toBe(304);
  return text;
}

describe("GET /docs/json", () => {
  test("is gzipped when asked, with an ETag that answers 304", async () => {
    const text = await expectGzippedWithEtag("/docs/json", "application/json", 4);
    expect(text.length).toBeGreaterThan(100_000);
  });

  test("is a valid OpenAPI 3.1 document (checked against the official schema)", async () => {
    const validator = new Validator();
    const result = await validator.validate(await documentOf());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  test("the validator does refuse a broken document, so the check above can fail", async () => {
    const broken = { ...(await documentOf()), paths: { "/x": { get: { responses: "none" } } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  test("every /api/v1 route of the app has a summary, a description and a 2xx response schema", async () => {
    const document = await documentOf();
    const routes = context.app.routes.filter(
      (route) => route.path.startsWith("/api/v1/") && route.method !== "OPTIONS",
    );
    expect(routes.length).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const route of routes) {
      const operation = document.paths[route.path.replace(/:(\w+)/g, "{$1}")]?.[route.method.toLowerCase()];
      const success = Object.entries(operation?.responses ?? {}).find(([status]) => /^2\d\d$/.test(status));
      const schema = success ? Object.values(success[1].content ?? {})[0]?.schema : undefined;
      if (!operation?.summary || operation.summary.startsWith(route.method) || !operation.description || !schema)
        missing.push(`${route.method} ${route.path}`);
    }
    expect(missing).toEqual([]);
  });

  test("keeps the request schemas that validate requests: required fields, limits, enums, examples", async () => {
    const document = await documentOf();
    for (const path of [
      "/api/v1/auth/token",
      "/api/v1/chatbot/message",
      "/api/v1/webhooks/rules-engine/rules",
      "/api/v1/webhooks/rules-engine/rules/{id}",
      "/api/v1/webhooks/dead-letters/{id}/retrigger",
      "/api/v1/analytics/summary",
    ]) {
      expect(Object.keys(document.paths)).toContain(path);
    }
    const create = document.paths["/api/v1/webhooks/rules-engine/rules"]!.post as unknown as {
      requestBody: {
        content: {
          "application/json": {
            schema: {
              required: string[];
              additionalProperties: boolean;
              properties: Record<string, Record<string, unknown>>;
            };
          };
        };
      };
      security: unknown;
      responses: Record<
        string,
        { content: { "application/json": { schema: { properties: Record<string, unknown> } } } }
      >;
    };
    const body = create.requestBody.content["application/json"].schema;
    expect(body.required).toEqual(["name", "event", "url", "secret"]);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.active).toMatchObject({ type: "boolean", default: true });
    expect(body.properties.event).toMatchObject({ type: "string", enum: [...EVENT_NAMES] });
    expect(body.properties.name).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(body.properties.secret).toMatchObject({ minLength: 16, maxLength: 256 });
    expect(body.properties.url?.examples).toEqual(["https://crm.example.com/hooks/parley"]);
    expect(create.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(create.responses["201"]!.content["application/json"].schema.properties)).toEqual([
      "ok",
      "rule_id",
      "event",
      "active",
      "created_at",
    ]);
    const leads = document.paths["/api/v1/leads"]!.get as unknown as {
      parameters: Array<{ name: string; schema: Record<string, unknown> }>;
    };
    expect(leads.parameters.map((parameter) => parameter.name)).toEqual(["limit", "cursor", "tenant_id"]);
    // t.Numeric is a string-or-number union for the query parser; the document shows the integer.
    expect(leads.parameters[0]?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect((document.paths["/api/v1/auth/token"]!.post as unknown as { security: unknown }).security).toEqual([]);
  });

  test("documents response bodies field by field, with the event enum", async () => {
    const document = await documentOf();
    const deliveries = document.paths["/api/v1/webhooks/deliveries"]!.get!.responses["200"]!.content![
      "application/json"
    ]!.schema as {
      properties: { data: { items: { properties: Record<string, Record<string, unknown>> } }; next_cursor: unknown };
    };
    const item = deliveries.properties.data.items.properties;
    expect(item.event).toMatchObject({ type: "string", enum: [...EVENT_NAMES] });
    expect(Object.keys(item)).toEqual(
      expect.arrayContaining(["webhook_id", "status", "attempts", "next_attempt_at", "last_error", "completed_at"]),
    );
    const handshake = document.paths["/api/v1/hooks/whatsapp/{tenant_id}"]!.get!.responses["200"]!.content!;
    expect(Object.keys(handshake)).toEqual(["text/plain"]);
  });

  test("describes each outbound event as an OpenAPI webhook with its signed body and example", async () => {
    const document = (await documentOf()) as unknown as {
      webhooks: Record<
        string,
        { post: { requestBody: { content: { "application/json": { example: { event: string; data: unknown } } } } } }
      >;
    };
    expect(Object.keys(document.webhooks)).toEqual([...EVENT_NAMES]);
    const lead = document.webhooks["lead.created"]!.post.requestBody.content["application/json"].example;
    expect(lead.event).toBe("lead.created");
    expect(lead.data).toMatchObject({ confidence: expect.any(Number) });
  });

  test("every API operation answers errors in the one documented shape", async () => {
    const document = (await documentOf()) as unknown as {
      components: { schemas: { Error: { required: string[] } } };
      paths: Record<string, Record<string, Operation>>;
    };
    expect(document.components.schemas.Error.required).toEqual(["error", "message"]);
    for (const [path, operations] of Object.entries(document.paths)) {
      if (!path.startsWith("/api/v1/")) continue;
      for (const operation of Object.values(operations)) expect(operation.responses.default).toBeDefined();
    }
  });
});

describe("GET /docs", () => {
  test("is the embedded interactive reference: only scripts from this server, no inline script, nothing from a CDN", async () => {
    const response = await context.request("GET", "/docs");
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toMatch(/https?:\/\/(?!localhost)/);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((script) => script[1]?.match(/src="([^"?]+)/)?.[1])).toEqual([
      "/docs/viewer.js",
      "/docs/viewer-init.js",
    ]);
    for (const script of scripts) expect(script[2]).toBe("");
    expect(html).not.toMatch(/(src|href)="https?:/);
  });

  test("lists the operations for readers without JavaScript", async () => {
    const html = await (await context.request("GET", "/docs")).text();
    const noscript = html.match(/<noscript>([\s\S]*)<\/noscript>/)?.[1] ?? "";
    expect(noscript).toContain(
      "POST /api/v1/chatbot/message</code> Send a chat message. Body: tenant_id, message, session_id?",
    );
    expect(noscript).toContain('href="/docs/json"');
  });

  test("serves Scalar's viewer from the binary, gzipped when asked, with an ETag", async () => {
    const code = await expectGzippedWithEtag("/docs/viewer.js", "application/javascript; charset=utf-8", 2);
    expect(code.length).toBeGreaterThan(1_000_000);
    expect(code).toContain("createApiReference");
  });

  test("starts the viewer on /docs/json with telemetry, web fonts and the AI agent off", async () => {
    const init = await (await context.request("GET", "/docs/viewer-init.js")).text();
    expect(init).toStartWith('Scalar.createApiReference("#reference", ');
    const config = JSON.parse(init.slice(init.indexOf("{"), init.lastIndexOf("}") + 1));
    expect(config).toMatchObject({
      url: "/docs/json",
      telemetry: false,
      withDefaultFonts: false,
      agent: { disabled: true },
    });
  });
});
