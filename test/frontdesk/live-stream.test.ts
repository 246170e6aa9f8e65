import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, login, seedTenant, TEST_PASSWORD, type TestContext } from "../helpers.ts";
import { openWidgetSession, say } from "../http/chat-helpers.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { setDisplayName } from "../../src/auth/display-name.ts";
import { eventReader } from "./sse.ts";
import { teamAvailability } from "../../src/chat/engine/team-hours.ts";
import { getBotConfig } from "../../src/chat/bot-settings.ts";

let context: TestContext;
afterEach(() => context?.close());

async function frontDesk() {
  context = buildTestApp({ rateLimits: false });
  const { tenant } = await seedTenant(context.deps, "Live");
  const agent = await createUser(context.deps, {
    email: "sam@live.test",
    tenantId: tenant.id,
    role: "agent",
    password: TEST_PASSWORD,
  });
  await setDisplayName(context.deps, agent.userId, "Sam");
  const operator = { authorization: `Bearer ${(await login(context, "sam@live.test")).access_token}` };
  const visitor = await openWidgetSession(context, tenant.id);
  return { tenant, operator, visitor };
}

const openInbox = (headers: Record<string, string>) => context.request("GET", "/api/v1/inbox/stream", { headers });

describe("the live streams", () => {
  test("an agent's inbox stream gets the hand-off and the visitor's next message; the visitor's stream gets the reply with the operator's name, typing and closing", async () => {
    const { tenant, operator, visitor } = await frontDesk();
    const inboxResponse = await openInbox(operator);
    expect(inboxResponse.status).toBe(200);
    expect(inboxResponse.headers.get("content-type")).toStartWith("text/event-stream");
    const inbox = eventReader(inboxResponse);

    await say(context, visitor.access_token, tenant.id, "Can I talk to a human please?");
    const [handoff] = await inbox.next();
    expect(handoff).toMatchObject({
      event: "handoff.requested",
      data: { session_id: visitor.session_id, text: "Can I talk to a human please?", channel: "widget" },
    });
    // Whether a person may answer now, by the tenant's hours at the fake clock's time.
    const team = teamAvailability(await getBotConfig(context.deps, tenant.id), context.clock.now());
    expect(handoff?.data).toMatchObject({
      within_business_hours: team.withinBusinessHours,
      back_at: team.backAt === null ? null : new Date(team.backAt).toISOString(),
    });

    const widget = eventReader(
      await context.request("GET", `/api/v1/chatbot/sessions/${visitor.session_id}/stream`, {
        headers: { authorization: `Bearer ${visitor.access_token}` },
      }),
    );
    await say(context, visitor.access_token, tenant.id, "It is about my crown", { session_id: visitor.session_id });
    expect((await inbox.next())[0]).toMatchObject({ event: "visitor.message", data: { text: "It is about my crown" } });

    expect(
      (await context.request("POST", `/api/v1/sessions/${visitor.session_id}/typing`, { headers: operator })).status,
    ).toBe(200);
    await context.request("POST", `/api/v1/sessions/${visitor.session_id}/operator-messages`, {
      headers: operator,
      body: { text: "Hi, Sam here." },
    });
    await context.request("POST", `/api/v1/sessions/${visitor.session_id}/close`, { headers: operator });
    const seen = await widget.next(3);
    expect(seen.map((event) => event.event)).toEqual(["operator.typing", "operator.message", "session.closed"]);
    expect(seen[0]?.data.author_name).toBe("Sam");
    expect(seen[1]?.data).toMatchObject({ text: "Hi, Sam here.", author_name: "Sam" });
    expect((await inbox.next(2)).map((event) => event.event)).toEqual(["operator.message", "session.closed"]);
    await Promise.all([inbox.close(), widget.close()]);
  });

  test("a stream resumed with Last-Event-ID gets exactly what it missed, in order, then what is new", async () => {
    const { tenant, operator, visitor } = await frontDesk();
    const first = eventReader(await openInbox(operator));
    await say(context, visitor.access_token, tenant.id, "Can I talk to a human please?");
    const [handoff] = await first.next();
    await first.close();

    // While the operator is away: two messages and a reply.
    await say(context, visitor.access_token, tenant.id, "Hello?", { session_id: visitor.session_id });
    await say(context, visitor.access_token, tenant.id, "Anyone there?", { session_id: visitor.session_id });
    const resumed = eventReader(await openInbox({ ...operator, "last-event-id": handoff?.id ?? "" }));
    const missed = await resumed.next(2);
    expect(missed.map((event) => event.data.text)).toEqual(["Hello?", "Anyone there?"]);
    expect(Number(missed[0]?.id)).toBeGreaterThan(Number(handoff?.id));
    await context.request("POST", `/api/v1/sessions/${visitor.session_id}/operator-messages`, {
      headers: operator,
      body: { text: "Back now" },
    });
    expect((await resumed.next())[0]).toMatchObject({ event: "operator.message", data: { text: "Back now" } });
    await resumed.close();
  });

  test("a stream without Last-Event-ID starts from now; another tenant's events never reach it", async () => {
    const { tenant, operator, visitor } = await frontDesk();
    await say(context, visitor.access_token, tenant.id, "Can I talk to a human please?");
    const other = await seedTenant(context.deps, "Elsewhere");
    const otherVisitor = await openWidgetSession(context, other.tenant.id);
    const inbox = eventReader(await openInbox(operator));
    await say(context, otherVisitor.access_token, other.tenant.id, "Can I talk to a human please?");
    await say(context, visitor.access_token, tenant.id, "Still waiting", { session_id: visitor.session_id });
    expect((await inbox.next()).map((event) => event.data.text)).toEqual(["Still waiting"]);
    await inbox.close();
  });

  test("a visitor cannot open another session's stream, and a stream needs credentials", async () => {
    const { tenant, visitor } = await frontDesk();
    const stranger = await openWidgetSession(context, tenant.id);
    const refused = await context.request("GET", `/api/v1/chatbot/sessions/${visitor.session_id}/stream`, {
      headers: { authorization: `Bearer ${stranger.access_token}` },
    });
    expect(refused.status).toBe(404);
    expect((await context.request("GET", "/api/v1/inbox/stream")).status).toBe(401);
  });
});
