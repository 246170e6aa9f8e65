import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, login, seedTenant, TEST_PASSWORD, type TestContext } from "../helpers.ts";
import { deliverAll, openWidgetSession, say, subscribeToEverything } from "../http/chat-helpers.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { updateBotConfig } from "../../src/chat/bot-settings.ts";
import { eventReader } from "./sse.ts";

let context: TestContext;
afterEach(() => context?.close());

const weekday = { open: "09:00", close: "17:00" };
// 2026-11-27 is a Friday; São Paulo is UTC−3.
const FRIDAY_10_SAO_PAULO = Date.UTC(2026, 10, 27, 13, 0);
const FRIDAY_18_SAO_PAULO = Date.UTC(2026, 10, 27, 21, 0);

async function frontDesk() {
  // Rule URLs are checked against DNS: a fixed public address stands in for the receiver's host.
  context = buildTestApp({ rateLimits: false }, {}, { resolveHost: async () => ["93.184.216.34"] });
  context.clock.set(FRIDAY_10_SAO_PAULO);
  const { tenant, apiKey } = await seedTenant(context.deps, "Desk");
  await updateBotConfig(context.deps, tenant.id, {
    appointments: {
      timezone: "America/Sao_Paulo",
      business_hours: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: null, sun: null },
    },
  });
  await createUser(context.deps, {
    email: "sam@desk.test",
    tenantId: tenant.id,
    role: "agent",
    password: TEST_PASSWORD,
  });
  const agent = { authorization: `Bearer ${(await login(context, "sam@desk.test")).access_token}` };
  return { tenant, agent, admin: { "x-api-key": apiKey } };
}

async function handedOff(tenantId: string) {
  const visitor = await openWidgetSession(context, tenantId);
  const response = await say(context, visitor.access_token, tenantId, "Can I talk to a human please?");
  return {
    ...visitor,
    reply: ((await response.json()) as { reply: { text: string } | null }).reply,
    auth: { authorization: `Bearer ${visitor.access_token}` },
  };
}

const transcript = async (sessionId: string, headers: Record<string, string>) =>
  (await (await context.request("GET", `/api/v1/chatbot/sessions/${sessionId}/messages`, { headers })).json()) as {
    seen_message_id: string | null;
    data: Array<{ message_id: string; role: string }>;
  };

describe("seen", () => {
  test("an operator opening the chat marks the visitor's newest message seen: an operator.seen event for the widget and seen_message_id in the transcript", async () => {
    const { tenant, agent } = await frontDesk();
    const visitor = await handedOff(tenant.id);
    await say(context, visitor.access_token, tenant.id, "It is about my crown", { session_id: visitor.session_id });
    const widget = eventReader(
      await context.request("GET", `/api/v1/chatbot/sessions/${visitor.session_id}/stream`, { headers: visitor.auth }),
    );

    // The visitor reading their own transcript marks nothing.
    const before = await transcript(visitor.session_id, visitor.auth);
    expect(before.seen_message_id).toBeNull();
    const last = before.data.filter((message) => message.role === "visitor").at(-1)?.message_id;

    await transcript(visitor.session_id, agent);
    const [seen] = await widget.next();
    expect(seen).toMatchObject({ event: "operator.seen", data: { session_id: visitor.session_id, message_id: last } });
    expect((await transcript(visitor.session_id, visitor.auth)).seen_message_id).toBe(last ?? "");

    // Opening it again tells nobody; a new visitor message is seen on the next opening.
    await transcript(visitor.session_id, agent);
    await say(context, visitor.access_token, tenant.id, "Hello?", { session_id: visitor.session_id });
    await transcript(visitor.session_id, agent);
    const [again] = await widget.next();
    const newest = (await transcript(visitor.session_id, visitor.auth)).data.at(-1)?.message_id;
    expect(again).toMatchObject({ event: "operator.seen", data: { message_id: newest } });
    expect(newest).not.toBe(last);
    await widget.close();
  });
});

describe("satisfaction", () => {
  test("a closed chat is rated once: 201 and conversation.rated; before closing, twice, or a bad score is a clear 4xx", async () => {
    const { tenant, agent } = await frontDesk();
    await subscribeToEverything(context, tenant.id);
    const visitor = await handedOff(tenant.id);
    const rate = (body: unknown, headers = visitor.auth) =>
      context.request("POST", `/api/v1/chatbot/sessions/${visitor.session_id}/rating`, { headers, body });

    const open = await rate({ score: 5 });
    expect(open.status).toBe(409);
    expect(await open.json()).toMatchObject({ error: "session_open" });
    await context.request("POST", `/api/v1/sessions/${visitor.session_id}/close`, { headers: agent });

    for (const score of [0, 6, 2.5]) {
      const bad = await rate({ score });
      expect(bad.status).toBe(422);
      expect(((await bad.json()) as { message: string }).message).toContain("score");
    }
    expect((await rate({ comment: "no score" })).status).toBe(422);
    const other = await openWidgetSession(context, tenant.id);
    expect((await rate({ score: 1 }, { authorization: `Bearer ${other.access_token}` })).status).toBe(404);

    await deliverAll(context);
    const rated = await rate({ score: 4, comment: "  Quick and kind  " });
    expect(rated.status).toBe(201);
    expect(await rated.json()).toMatchObject({
      ok: true,
      session_id: visitor.session_id,
      score: 4,
      comment: "Quick and kind",
    });
    const again = await rate({ score: 1 });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: "already_rated" });

    const events = (await deliverAll(context)).filter((delivery) => delivery.event === "conversation.rated");
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({
      session_id: visitor.session_id,
      score: 4,
      comment: "Quick and kind",
      rated_at: new Date(FRIDAY_10_SAO_PAULO).toISOString(),
    });

    // The CSAT, for owners and admins: an agent is refused.
    expect((await context.request("GET", "/api/v1/analytics/ratings", { headers: agent })).status).toBe(403);
  });

  test("the CSAT gives each day's count, average and 1–5 distribution over the last 30 days", async () => {
    const { tenant, agent, admin } = await frontDesk();
    const scores = [5, 4, 4, 1];
    for (const score of scores) {
      const visitor = await handedOff(tenant.id);
      await context.request("POST", `/api/v1/sessions/${visitor.session_id}/close`, { headers: agent });
      expect(
        (
          await context.request("POST", `/api/v1/chatbot/sessions/${visitor.session_id}/rating`, {
            headers: visitor.auth,
            body: { score },
          })
        ).status,
      ).toBe(201);
    }
    const csat = (await (await context.request("GET", "/api/v1/analytics/ratings", { headers: admin })).json()) as {
      days: Array<{ day: string; count: number; average: number | null; distribution: number[] }>;
      total: { count: number; average: number | null; distribution: number[] };
    };
    expect(csat.days).toHaveLength(30);
    expect(csat.days.at(-1)).toEqual({ day: "2026-11-27", count: 4, average: 3.5, distribution: [1, 0, 0, 2, 1] });
    expect(csat.days[0]).toEqual({ day: "2026-10-29", count: 0, average: null, distribution: [0, 0, 0, 0, 0] });
    expect(csat.total).toMatchObject({ count: 4, average: 3.5, distribution: [1, 0, 0, 2, 1] });
  });
});

describe("business hours and the expected reply time", () => {
  const expected = async (tenantId: string) =>
    (await (await context.request("GET", `/api/v1/widget/config?tenant_id=${tenantId}`)).json()) as {
      expected_reply_s: number | null;
      back_at: string | null;
    };

  /** A hand-off now, answered `waitS` seconds later (by the API key: a person's token lasts 15 minutes). */
  async function answeredAfter(tenantId: string, admin: Record<string, string>, waitS: number) {
    const visitor = await handedOff(tenantId);
    context.clock.advance(waitS * 1000);
    await context.request("POST", `/api/v1/sessions/${visitor.session_id}/operator-messages`, {
      headers: admin,
      body: { text: "Hi!" },
    });
    context.clock.advance(60_000);
  }

  test("inside hours the widget gets the median wait of answered hand-offs, none with fewer than five; out of hours none, and when the team is back", async () => {
    const { tenant, admin } = await frontDesk();
    for (const waitS of [60, 600, 120, 240]) await answeredAfter(tenant.id, admin, waitS);
    expect(await expected(tenant.id)).toEqual(expect.objectContaining({ expected_reply_s: null, back_at: null }));
    const visitor = await handedOff(tenant.id);
    context.clock.advance(180_000);
    const reply = (text: string) =>
      context.request("POST", `/api/v1/sessions/${visitor.session_id}/operator-messages`, {
        headers: admin,
        body: { text },
      });
    await reply("Hi!");
    // Only the first reply counts: a later one in the same chat is not a wait.
    context.clock.advance(3_600_000);
    await reply("Anything else?");
    expect((await expected(tenant.id)).expected_reply_s).toBe(180);
    context.clock.set(FRIDAY_18_SAO_PAULO);
    expect(await expected(tenant.id)).toMatchObject({ expected_reply_s: null, back_at: "2026-11-30T12:00:00.000Z" });
  });

  test("out-of-hours hand-offs do not count (they wait for the opening), and hand-offs older than 30 days drop out", async () => {
    const { tenant, admin } = await frontDesk();
    for (const waitS of [60, 60, 60, 60, 60]) await answeredAfter(tenant.id, admin, waitS);
    expect((await expected(tenant.id)).expected_reply_s).toBe(60);
    context.clock.set(FRIDAY_18_SAO_PAULO);
    for (let i = 0; i < 5; i++) await answeredAfter(tenant.id, admin, 3600 * 15);
    context.clock.set(Date.UTC(2026, 11, 1, 13, 0)); // Tuesday 10:00, four days later
    expect((await expected(tenant.id)).expected_reply_s).toBe(60);
    context.clock.set(Date.UTC(2026, 11, 28, 13, 0)); // Monday 10:00, 31 days later
    expect((await expected(tenant.id)).expected_reply_s).toBeNull();
  });

  test("the hand-off reply promises a person inside hours and takes a message outside, at the closing minute in the tenant's zone", async () => {
    const { tenant, admin } = await frontDesk();
    context.clock.set(Date.UTC(2026, 10, 27, 19, 59)); // Friday 16:59 in São Paulo
    expect((await handedOff(tenant.id)).reply?.text).toMatch(/member of our team/);
    context.clock.set(Date.UTC(2026, 10, 27, 20, 0)); // 17:00: closed
    const away = await handedOff(tenant.id);
    expect(away.reply?.text).toMatch(/away right now/);
    expect(away.reply?.text).toMatch(/your question/);
    // The visitor's details and question are the message the team finds in the inbox, marked out of hours.
    await say(context, away.access_token, tenant.id, "Ana, ana@example.com: can I move my Monday appointment?", {
      session_id: away.session_id,
    });
    const inbox = (await (await context.request("GET", "/api/v1/inbox", { headers: admin })).json()) as {
      data: Array<{ session_id: string; within_business_hours: boolean | null; preview: { text: string } | null }>;
    };
    const left = inbox.data.find((chat) => chat.session_id === away.session_id);
    expect(left).toMatchObject({
      within_business_hours: false,
      preview: { text: "Ana, ana@example.com: can I move my Monday appointment?" },
    });
    // The one handed off at 16:59 is marked within hours.
    expect(inbox.data.filter((chat) => chat.within_business_hours === true)).toHaveLength(1);
  });
});
