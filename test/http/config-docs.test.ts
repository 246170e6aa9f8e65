import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";

let context: TestContext;
let apiKey = "";
beforeAll(async () => {
  context = buildTestApp({ rateLimits: false });
  apiKey = (await seedTenant(context.deps)).apiKey;
});
afterAll(() => context.close());

describe("docs/chatbot-engine.md's table of the bot configuration", () => {
  test("has a row for every top-level key the configuration takes", async () => {
    // retention and limits show only once set.
    const patched = await context.request("PATCH", "/api/v1/chatbot/config", {
      headers: { "x-api-key": apiKey },
      body: { retention: { chat_days: 90 }, limits: { anonymous_daily_messages: 500 } },
    });
    expect(patched.status).toBe(200);
    const keys = Object.keys(await patched.json());
    expect(keys).toEqual(expect.arrayContaining(["retention", "limits", "ai"]));
    const page = await Bun.file(new URL("../../docs/chatbot-engine.md", import.meta.url)).text();
    const table = page.slice(page.indexOf("## Configuration (`BotConfig`)"), page.indexOf("## Known limits"));
    const rows = [...table.matchAll(/^\| `([a-z_]+)[`.]/gm)].map((match) => match[1]);
    expect(keys.filter((key) => !rows.includes(key))).toEqual([]);
  });
});
