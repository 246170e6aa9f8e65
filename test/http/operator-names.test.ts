import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createUser } from "../../src/auth/create-user.ts";
import { buildTestApp, login, seedTenant, TEST_PASSWORD, testSql, type TestContext } from "../helpers.ts";
import { openWidgetSession, say } from "./chat-helpers.ts";

let context: TestContext;
let seeded: Awaited<ReturnType<typeof seedTenant>>;
let bearer: Record<string, string>;

beforeEach(async () => {
  context = buildTestApp({ rateLimits: false });
  seeded = await seedTenant(context.deps);
  bearer = { authorization: `Bearer ${(await login(context, seeded.email)).access_token}` };
});
afterEach(() => context.close());

const getMe = async () => (await context.request("GET", "/api/v1/me", { headers: bearer })).json();
const patchMe = (body: unknown) => context.request("PATCH", "/api/v1/me", { headers: bearer, body });

describe("GET and PATCH /api/v1/me", () => {
  test("a user without a display name reads null", async () => {
    expect((await getMe()).display_name).toBeNull();
  });

  test("PATCH sets the display name, trimmed, and GET reads it back; null clears it", async () => {
    const response = await patchMe({ display_name: "  Ana Lima  " });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      user_id: seeded.user.userId,
      email: seeded.email,
      display_name: "Ana Lima",
      memberships: [{ tenant_id: seeded.tenant.id, role: "owner" }],
    });
    expect((await getMe()).display_name).toBe("Ana Lima");

    const cleared = await patchMe({ display_name: null });
    expect(cleared.status).toBe(200);
    expect((await cleared.json()).display_name).toBeNull();
    expect((await getMe()).display_name).toBeNull();
  });

  test("60 characters are allowed, counted as characters (not UTF-16 units)", async () => {
    expect((await patchMe({ display_name: "a".repeat(60) })).status).toBe(200);
    const accented = "é😀".repeat(30); // 60 characters, 90 UTF-16 units
    expect((await patchMe({ display_name: accented })).status).toBe(200);
    expect((await getMe()).display_name).toBe(accented);
  });

  test("bad names answer 422 validation_failed naming display_name, and change nothing", async () => {
    await patchMe({ display_name: "Ana" });
    for (const bad of ["a".repeat(61), "   ", "", "Ana\nLima", "Ana\u0000", "Ana\u001b[31m", "Ana\u0085"]) {
      const response = await patchMe({ display_name: bad });
      expect(response.status).toBe(422);
      const body = await response.json();
      expect(body.error).toBe("validation_failed");
      expect(body.details[0].field).toBe("display_name");
    }
    expect((await getMe()).display_name).toBe("Ana");
  });

  test("a missing field, a number or an unknown field answer 422", async () => {
    for (const bad of [{}, { display_name: 42 }, { display_name: "Ana", role: "owner" }]) {
      const response = await patchMe(bad);
      expect(response.status).toBe(422);
      expect((await response.json()).error).toBe("validation_failed");
    }
  });

  test("no token answers 401; a tenant API key cannot set a name (it is no user)", async () => {
    expect((await context.request("PATCH", "/api/v1/me", { body: { display_name: "Ana" } })).status).toBe(401);
    expect(
      (
        await context.request("PATCH", "/api/v1/me", {
          headers: { "x-api-key": seeded.apiKey },
          body: { display_name: "Ana" },
        })
      ).status,
    ).toBe(401);
  });
});

describe("operator replies carry the author's name", () => {
  const transcriptOf = async (visitor: { session_id: string; access_token: string }) =>
    (
      await (
        await context.request("GET", `/api/v1/chatbot/sessions/${visitor.session_id}/messages`, {
          headers: { authorization: `Bearer ${visitor.access_token}` },
        })
      ).json()
    ).data as Array<{
      role: string;
      text: string;
      author_name: string | null;
    }>;
  const reply = (sessionId: string, text: string, headers: Record<string, string> = bearer) =>
    context.request("POST", `/api/v1/sessions/${sessionId}/operator-messages`, { headers, body: { text } });

  test("the reply, the transcript and the inbox preview name the operator; visitor and bot messages have null", async () => {
    await patchMe({ display_name: "Ana" });
    const visitor = await openWidgetSession(context, seeded.tenant.id);
    await say(context, visitor.access_token, seeded.tenant.id, "hello");
    const posted = await reply(visitor.session_id, "Hi, Ana here.");
    expect(posted.status).toBe(201);
    expect((await posted.json()).author_name).toBe("Ana");

    const transcript = await transcriptOf(visitor);
    expect(transcript.map((message) => [message.role, message.author_name])).toEqual([
      ["visitor", null],
      ["bot", null],
      ["operator", "Ana"],
    ]);
    const inbox = await (
      await context.request("GET", "/api/v1/inbox", { headers: { "x-api-key": seeded.apiKey } })
    ).json();
    expect(inbox.data[0].preview).toMatchObject({ role: "operator", author_name: "Ana" });
  });

  test("a rename does not rewrite old replies: each keeps the name it was sent with", async () => {
    const visitor = await openWidgetSession(context, seeded.tenant.id);
    await patchMe({ display_name: "Ana" });
    await reply(visitor.session_id, "first");
    await patchMe({ display_name: "Ana Lima" });
    await reply(visitor.session_id, "second");
    await patchMe({ display_name: null });
    await reply(visitor.session_id, "third");

    const operatorMessages = (await transcriptOf(visitor)).filter((message) => message.role === "operator");
    expect(operatorMessages.map((message) => [message.text, message.author_name])).toEqual([
      ["first", "Ana"],
      ["second", "Ana Lima"],
      ["third", null],
    ]);
    const sql = await testSql(context.deps);
    const stored = await sql.all<{ author_name: string | null }>(
      "SELECT author_name FROM chat_messages WHERE role = 'operator' ORDER BY id",
    );
    expect(stored.map((row) => row.author_name)).toEqual(["Ana", "Ana Lima", null]);
  });

  test("a reply sent with the tenant's API key has no author and no name", async () => {
    await patchMe({ display_name: "Ana" });
    const visitor = await openWidgetSession(context, seeded.tenant.id);
    const posted = await reply(visitor.session_id, "from the integration", { "x-api-key": seeded.apiKey });
    expect(posted.status).toBe(201);
    expect((await posted.json()).author_name).toBeNull();
  });

  test("each operator's reply carries their own name", async () => {
    const other = await createUser(context.deps, {
      email: "bea@acme.test",
      tenantId: seeded.tenant.id,
      role: "agent",
      password: TEST_PASSWORD,
      displayName: "Bea",
    });
    expect(other.created).toBe(true);
    const beaBearer = { authorization: `Bearer ${(await login(context, "bea@acme.test")).access_token}` };
    await patchMe({ display_name: "Ana" });
    const visitor = await openWidgetSession(context, seeded.tenant.id);
    await reply(visitor.session_id, "from Ana");
    await reply(visitor.session_id, "from Bea", beaBearer);
    expect((await transcriptOf(visitor)).map((message) => message.author_name)).toEqual(["Ana", "Bea"]);
  });
});
