import { afterEach, expect, test } from "bun:test";
import { buildTestApp, testSql, type TestContext } from "../helpers.ts";
import { expectOneHandoff, FRIDAY_18_SAO_PAULO, hoursDesk, WAIT_MS } from "./hours-desk.ts";
import { EMBEDDED_MIGRATIONS } from "../../src/db/embedded-migrations.ts";
import { PG_MIGRATIONS } from "../../src/db/postgres/migrations.ts";

let context: TestContext;
afterEach(() => context?.close());

function desk() {
  context = buildTestApp({ rateLimits: false });
  return hoursDesk(context);
}

test("a visitor asking for a person: the inbox's hand-off time is the one the reply waits count from", async () => {
  const d = await desk();
  const chat = await d.visitor();
  context.clock.advance(10_000);
  const handedOffAt = context.clock.now();
  expect((await chat.say("Can I talk to a human please?")).status).toBe("handoff");
  context.clock.advance(WAIT_MS);
  expect((await d.reply(chat.sessionId, d.owner)).status).toBe(201);
  await expectOneHandoff(d, chat.sessionId, handedOffAt, WAIT_MS);
});

test("the rule engine handing off after two misses: the same time in the inbox and in the reply waits", async () => {
  const d = await desk();
  const chat = await d.visitor();
  expect((await chat.say("blorp zib quantum wuggle")).status).toBe("bot");
  context.clock.advance(30_000);
  const handedOffAt = context.clock.now();
  expect((await chat.say("frobnicate the wibble")).status).toBe("handoff");
  context.clock.advance(WAIT_MS);
  expect((await d.reply(chat.sessionId, d.apiKey)).status).toBe(201);
  await expectOneHandoff(d, chat.sessionId, handedOffAt, WAIT_MS);
});

test("a chat over the API (a member's token) asking for a person: the same time in the inbox and in the reply waits", async () => {
  const d = await desk();
  const handedOffAt = context.clock.now();
  const response = await context.request("POST", "/api/v1/chatbot/message", {
    body: { tenant_id: d.tenantId, message: "I want to speak to a person" },
    headers: d.owner,
  });
  const body = (await response.json()) as { session_id: string; status: string };
  expect(body.status).toBe("handoff");
  context.clock.advance(WAIT_MS);
  expect((await d.reply(body.session_id, d.apiKey)).status).toBe(201);
  await expectOneHandoff(d, body.session_id, handedOffAt, WAIT_MS);
});

test("a person taking a chat over by replying (admin page, or the API key) is the chat's hand-off, answered at once and no reply wait", async () => {
  const d = await desk();
  for (const headers of [d.owner, d.apiKey]) {
    const chat = await d.visitor();
    expect((await chat.say("Hello")).status).toBe("bot");
    context.clock.advance(45_000);
    const takenAt = context.clock.now();
    expect((await d.reply(chat.sessionId, headers)).status).toBe(201);
    context.clock.advance(WAIT_MS);
    expect(await d.inboxChat(chat.sessionId)).toMatchObject({
      status: "handoff",
      handoff_at: new Date(takenAt).toISOString(),
      within_business_hours: true,
    });
    expect(await context.deps.store.desk.findHandoff(chat.sessionId)).toMatchObject({
      handoffAt: takenAt,
      firstReplyAt: takenAt,
      takenOver: true,
    });
  }
  // Nobody waited for these replies: the widget's expected reply time does not count them.
  expect(await d.waits()).toEqual([]);
});

test("the widget's expected reply time takes the hand-offs visitors waited for, not the takeovers; a takeover out of hours is out of hours", async () => {
  const d = await desk();
  const waited = [60, 120, 180];
  for (const waitS of waited) {
    const chat = await d.visitor();
    await chat.say("Can I talk to a human please?");
    context.clock.advance(waitS * 1000);
    await d.reply(chat.sessionId, d.apiKey);
  }
  const expected = async () =>
    (
      (await (await context.request("GET", `/api/v1/widget/config?tenant_id=${d.tenantId}`)).json()) as {
        expected_reply_s: number | null;
      }
    ).expected_reply_s;
  expect(await expected()).toBeNull(); // three answered hand-offs: too few
  for (let i = 0; i < 2; i++) {
    const chat = await d.visitor();
    await chat.say("Hello");
    await d.reply(chat.sessionId, d.owner);
  }
  // Two takeovers (answered at once) would make 0, 0, 60, 120, 180 and a median of 60: they are left out.
  expect(await expected()).toBeNull();
  for (const waitS of [240, 300]) {
    const chat = await d.visitor();
    await chat.say("Can I talk to a human please?");
    context.clock.advance(waitS * 1000);
    await d.reply(chat.sessionId, d.apiKey);
  }
  expect(await expected()).toBe(180); // 60, 120, 180, 240, 300

  context.clock.set(FRIDAY_18_SAO_PAULO);
  const late = await d.visitor();
  await late.say("Hello");
  await d.reply(late.sessionId, d.apiKey);
  expect(await d.inboxChat(late.sessionId)).toMatchObject({ within_business_hours: false });
});

test("the migration keeps every hand-off time: a taken-over chat's, held by session_desk alone, becomes its handoffs row", async () => {
  const d = await desk();
  const bot = await d.visitor();
  const botAt = context.clock.now();
  await bot.say("Can I talk to a human please?");
  context.clock.advance(WAIT_MS);
  await d.reply(bot.sessionId, d.apiKey);
  const taken = await d.visitor();
  await taken.say("Hello");
  context.clock.advance(60_000);
  const takenAt = context.clock.now();
  await d.reply(taken.sessionId, d.owner);
  const untouched = await d.visitor();
  await untouched.say("Hello");

  // The old shape: the time also in session_desk, and a takeover without a handoffs row.
  const sql = await testSql(context.deps);
  const postgres = context.deps.store.kind === "postgres";
  await sql.run(`ALTER TABLE session_desk ADD COLUMN handoff_at ${postgres ? "bigint" : "integer"}`);
  await sql.run("UPDATE session_desk SET handoff_at = ? WHERE session_id = ?", botAt, bot.sessionId);
  await sql.run(
    "INSERT INTO session_desk (session_id, tenant_id, handoff_at) VALUES (?, ?, ?)",
    taken.sessionId,
    d.tenantId,
    takenAt,
  );
  await sql.run("DELETE FROM handoffs WHERE session_id = ?", taken.sessionId);
  const migration = postgres
    ? PG_MIGRATIONS.find((m) => m.tag.endsWith("_desk_handoff_and_accents"))
    : EMBEDDED_MIGRATIONS.find((m) => m.tag.endsWith("_handoff_time_once"));
  const statements = (migration?.sql ?? "")
    .split("--> statement-breakpoint")
    .filter((text) => /session_desk/.test(text));
  expect(statements.length).toBe(2);
  for (const statement of statements) await sql.run(statement);

  const rows = await sql.all<{
    session_id: string;
    handoff_at: unknown;
    within: unknown;
    taken: unknown;
    first_reply_at: unknown;
  }>(
    "SELECT session_id, handoff_at, within_business_hours AS within, taken_over AS taken, first_reply_at FROM handoffs ORDER BY handoff_at",
  );
  expect(
    rows.map((row) => [
      row.session_id,
      Number(row.handoff_at),
      Boolean(row.within),
      Boolean(row.taken),
      Number(row.first_reply_at),
    ]),
  ).toEqual([
    [bot.sessionId, botAt, true, false, botAt + WAIT_MS],
    [taken.sessionId, takenAt, true, true, takenAt],
  ]);
  expect((await d.inboxChat(taken.sessionId)).handoff_at).toBe(new Date(takenAt).toISOString());
  expect((await sql.all("SELECT * FROM session_desk WHERE session_id = ?", taken.sessionId))[0]).not.toHaveProperty(
    "handoff_at",
  );
});
