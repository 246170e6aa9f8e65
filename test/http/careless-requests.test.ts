import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";

let context: TestContext;
let apiKey: string;
beforeEach(async () => {
  context = buildTestApp({ rateLimits: false });
  apiKey = (await seedTenant(context.deps)).apiKey;
});
afterEach(() => context.close());

const errorOf = async (response: Response) =>
  (await response.json()) as { error: string; message: string; details?: Array<{ field: string; message: string }> };

describe("a request without credentials", () => {
  test("to a route that takes an API key or a token names both", async () => {
    for (const path of ["/api/v1/webhooks/rules-engine/rules", "/api/v1/chatbot/sessions/ses_x/messages"]) {
      const response = await context.request("GET", path);
      expect(response.status).toBe(401);
      expect((await errorOf(response)).message).toBe(
        "Send X-API-Key: <api_key> or Authorization: Bearer <access_token>.",
      );
    }
  });

  test("to a route that takes only a token names the token", async () => {
    const response = await context.request("GET", "/api/v1/me");
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toBe("Send Authorization: Bearer <access_token>.");
  });
});

describe("a query value out of range", () => {
  test("names the query field it is in, not the body", async () => {
    const cases = [
      ["/api/v1/webhooks/rules-engine/rules?limit=0", "limit", "must be a whole number from 1 to 100"],
      ["/api/v1/leads?limit=99999999999999999999", "limit", "must be a whole number from 1 to 100"],
      ["/api/v1/webhooks/deliveries?limit=2.5", "limit", "must be a whole number from 1 to 100"],
      ["/api/v1/knowledge/search?q=parking&limit=0", "limit", "must be a whole number from 1 to 20"],
      ["/api/v1/chatbot/config?dry_run=maybe", "dry_run", "must be true or false", "PATCH"],
    ] as const;
    for (const [path, field, message, method = "GET"] of cases) {
      const body = method === "PATCH" ? {} : undefined;
      const response = await context.request(method, path, { headers: { "x-api-key": apiKey }, body });
      expect(response.status).toBe(422);
      const error = await errorOf(response);
      expect(error.details).toEqual([{ field, message }]);
      expect(error.message).toBe(`${field}: ${message}`);
    }
  });
});

describe("a value of the right kind that breaks its rule", () => {
  test("where a field takes one of two kinds, is told the rule of the kind it sent", async () => {
    const headers = { "x-api-key": apiKey };
    const empty = await context.request("POST", "/api/v1/chatbot/tests", {
      headers,
      body: { question: [], expect: { action: "none" } },
    });
    expect(empty.status).toBe(422);
    expect((await errorOf(empty)).details).toEqual([{ field: "question", message: "must have at least 1 item" }]);
  });
});
