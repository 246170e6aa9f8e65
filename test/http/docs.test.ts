import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestContext } from "../helpers.ts";

let context: TestContext;
beforeAll(() => {
  context = buildTestApp();
});
afterAll(() => context.close());

describe("GET /docs/json", () => {
  test("is an OpenAPI 3.1 document of every API route, with the request schemas that validate them", async () => {
    const response = await context.request("GET", "/docs/json");
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.openapi).toBe("3.1.0");
    for (const path of ["/api/v1/auth/token", "/api/v1/chatbot/message", "/api/v1/webhooks/rules-engine/rules", "/api/v1/webhooks/rules-engine/rules/{id}", "/api/v1/webhooks/dead-letters/{id}/retrigger", "/api/v1/analytics/summary"]) {
      expect(Object.keys(document.paths)).toContain(path);
    }
    const create = document.paths["/api/v1/webhooks/rules-engine/rules"].post;
    expect(create.requestBody.content["application/json"].schema.required).toEqual(["name", "event", "url", "secret"]);
    expect(create.requestBody.content["application/json"].schema.properties.active).toMatchObject({ type: "boolean", default: true });
    expect(create.requestBody.content["application/json"].schema.additionalProperties).toBe(false);
    expect(create.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(create.responses["201"].content["application/json"].schema.properties)).toEqual(["ok", "rule_id", "event", "active", "created_at"]);
    expect(document.paths["/api/v1/webhooks/rules-engine/rules/{id}"].get.parameters).toEqual([expect.objectContaining({ name: "id", in: "path", required: true })]);
    expect(document.paths["/api/v1/auth/token"].post.security).toEqual([]);
    expect(document.paths["/api/v1/leads"].get.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(["limit", "cursor", "tenant_id"]);
  });

  test("every operation answers errors in the one documented shape", async () => {
    const document = await (await context.request("GET", "/docs/json")).json();
    expect(document.components.schemas.Error.required).toEqual(["error", "message"]);
    for (const operations of Object.values(document.paths) as Array<Record<string, { responses: Record<string, unknown> }>>) {
      for (const operation of Object.values(operations)) expect(operation.responses.default).toBeDefined();
    }
  });
});

describe("GET /docs", () => {
  test("is a script-free page listing the operations, under a strict CSP", async () => {
    const response = await context.request("GET", "/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).not.toContain("<script");
    expect(html).toContain("/api/v1/chatbot/message");
    expect(html).toContain("Body: tenant_id, message, session_id?");
  });
});
