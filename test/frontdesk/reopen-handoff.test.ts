import { afterEach, expect, test } from "bun:test";
import { buildTestApp, type TestContext } from "../helpers.ts";
import { expectOneHandoff, FRIDAY_18_SAO_PAULO, hoursDesk, WAIT_MS } from "./hours-desk.ts";

let context: TestContext;
afterEach(() => context?.close());

async function desk() {
  context = buildTestApp({ rateLimits: false });
  const d = await hoursDesk(context);
  const act = async (sessionId: string, action: "close" | "reopen") =>
    expect(
      (await context.request("POST", `/api/v1/sessions/${sessionId}/${action}`, { headers: d.apiKey })).status,
    ).toBe(200);
  return { ...d, act };
}

const iso = (ms: number) => new Date(ms).toISOString();

test("a chat closed before any hand-off and reopened is handed off at the reopen: the inbox shows it and the visitor's wait", async () => {
  const d = await desk();
  const chat = await d.visitor();
  expect((await chat.say("Hello")).status).toBe("bot");
  context.clock.advance(60_000);
  await d.act(chat.sessionId, "close");
  context.clock.advance(60 * 60_000);
  const reopenedAt = context.clock.now();
  await d.act(chat.sessionId, "reopen");
  context.clock.advance(30_000);
  const askedAt = context.clock.now();
  expect((await chat.say("Is anyone there?")).status).toBe("handoff");
  expect(await d.inboxChat(chat.sessionId)).toMatchObject({
    status: "handoff",
    handoff_at: iso(reopenedAt),
    within_business_hours: true,
    waiting_since: iso(askedAt),
  });

  context.clock.advance(WAIT_MS);
  expect((await d.reply(chat.sessionId, d.apiKey)).status).toBe(201);
  expect(await context.deps.store.desk.findHandoff(chat.sessionId)).toMatchObject({
    handoffAt: reopenedAt,
    firstReplyAt: askedAt + WAIT_MS,
    withinBusinessHours: true,
    takenOver: true,
  });
  expect((await d.inboxChat(chat.sessionId)).waiting_since).toBeNull();
  // A person brought the chat back, as a takeover: nobody asked and waited, so it is no reply wait.
  expect(await d.waits()).toEqual([]);
});

test("a chat handed off, answered, closed and reopened keeps its hand-off; asking again there is no second one, and the wait shows", async () => {
  const d = await desk();
  const chat = await d.visitor();
  const handedOffAt = context.clock.now();
  expect((await chat.say("Can I talk to a human please?")).status).toBe("handoff");
  context.clock.advance(WAIT_MS);
  expect((await d.reply(chat.sessionId, d.apiKey)).status).toBe(201);
  await d.act(chat.sessionId, "close");
  context.clock.advance(60 * 60_000);
  await d.act(chat.sessionId, "reopen");
  context.clock.advance(30_000);
  const askedAt = context.clock.now();
  expect((await chat.say("Can I talk to a human please?")).status).toBe("handoff");
  expect((await d.inboxChat(chat.sessionId)).waiting_since).toBe(iso(askedAt));
  context.clock.advance(45_000);
  expect((await d.reply(chat.sessionId, d.apiKey)).status).toBe(201);
  await expectOneHandoff(d, chat.sessionId, handedOffAt, WAIT_MS);
});

test("a reopen out of the team's hours is a hand-off out of hours", async () => {
  const d = await desk();
  const chat = await d.visitor();
  expect((await chat.say("Hello")).status).toBe("bot");
  await d.act(chat.sessionId, "close");
  context.clock.set(FRIDAY_18_SAO_PAULO);
  await d.act(chat.sessionId, "reopen");
  expect(await d.inboxChat(chat.sessionId)).toMatchObject({
    handoff_at: iso(FRIDAY_18_SAO_PAULO),
    within_business_hours: false,
  });
});
