import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestContext } from "../helpers.ts";

let context: TestContext;
beforeEach(() => {
  context = buildTestApp({ rateLimits: false });
});
afterEach(() => context.close());

const errorOf = async (response: Response) => (await response.json()) as { error: string; message: string };

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
