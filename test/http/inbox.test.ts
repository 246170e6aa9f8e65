import { afterEach, expect, test } from "bun:test";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";
import { openWidgetSession, say } from "./chat-helpers.ts";
import { postOperatorMessage } from "../../src/chat/sessions.ts";

let context: TestContext;
afterEach(() => context.close());

test("GET /api/v1/inbox lists the tenant's handed-off chats with their newest message as a preview; another tenant sees none", async () => {
  context = buildTestApp({ rateLimits: false });
  const a = await seedTenant(context.deps, "Alpha");
  const b = await seedTenant(context.deps, "Beta");
  const chatting = await openWidgetSession(context, a.tenant.id);
  await say(context, chatting.access_token, a.tenant.id, "what are your opening hours?");
  const waiting = await openWidgetSession(context, a.tenant.id);
  await say(context, waiting.access_token, a.tenant.id, "can I talk to a human please");
  const long = "x".repeat(300);
  await postOperatorMessage(context.deps, a.tenant.id, waiting.session_id, { text: long });

  const inbox = await (await context.request("GET", "/api/v1/inbox", { headers: { "x-api-key": a.apiKey } })).json();
  expect(inbox.data.map((session: { session_id: string }) => session.session_id)).toEqual([waiting.session_id]);
  expect(inbox.data[0].preview).toEqual({
    role: "operator",
    text: `${"x".repeat(139)}…`,
    author_name: null,
    created_at: expect.any(String),
  });
  expect(inbox.data[0].status).toBe("handoff");

  const other = await (await context.request("GET", "/api/v1/inbox", { headers: { "x-api-key": b.apiKey } })).json();
  expect(other.data).toEqual([]);
  expect((await context.request("GET", "/api/v1/inbox")).status).toBe(401);
  expect((await context.request("GET", "/api/v1/inbox?limit=0", { headers: { "x-api-key": a.apiKey } })).status).toBe(
    422,
  );
});
