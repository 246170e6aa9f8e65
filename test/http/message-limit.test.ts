import { afterAll, describe, expect, test } from "bun:test";
import { MESSAGE_MAX_LENGTH } from "../../src/chat/engine/turn.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildTestApp, seedTenant } from "../helpers.ts";
import { openWidgetSession, say } from "./chat-helpers.ts";

const context = buildTestApp({ rateLimits: false });
afterAll(() => context.close());

describe("one limit on a chat message", () => {
  test("a visitor's message of the limit is answered, one character more is a 422 naming the limit", async () => {
    const tenant = await createTenant(context.deps, { name: "Limit Dental", sector: "dental-clinic" });
    const visitor = await openWidgetSession(context, tenant.id);
    expect((await say(context, visitor.access_token, tenant.id, "a".repeat(MESSAGE_MAX_LENGTH))).status).toBe(200);
    const refused = await say(context, visitor.access_token, tenant.id, "a".repeat(MESSAGE_MAX_LENGTH + 1));
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { message: string }).message).toContain(String(MESSAGE_MAX_LENGTH));
  });

  test("the engine reads the whole message the API accepts: a question at its end is answered", async () => {
    const tenant = await createTenant(context.deps, { name: "Long Dental", sector: "dental-clinic" });
    const visitor = await openWidgetSession(context, tenant.id);
    const question = "What are your opening hours?";
    const filler = "I have been meaning to write for a while about my teeth. "
      .repeat(60)
      .slice(0, MESSAGE_MAX_LENGTH - question.length - 1);
    const response = await say(context, visitor.access_token, tenant.id, `${filler} ${question}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { reply: { text: string } };
    expect(body.reply.text).toContain("Monday to Thursday");
  });

  test("an operator's message has the same limit", async () => {
    const { tenant, apiKey } = await seedTenant(context.deps, "Operator Limit");
    const visitor = await openWidgetSession(context, tenant.id);
    await say(context, visitor.access_token, tenant.id, "hello");
    const post = (text: string) =>
      context.request("POST", `/api/v1/sessions/${visitor.session_id}/operator-messages`, {
        headers: { "x-api-key": apiKey },
        body: { text },
      });
    expect((await post("b".repeat(MESSAGE_MAX_LENGTH))).status).toBe(201);
    expect((await post("b".repeat(MESSAGE_MAX_LENGTH + 1))).status).toBe(422);
  });
});
