import { afterEach, describe, expect, test } from "bun:test";
import { deliverAll } from "../http/chat-helpers.ts";
import { postOperatorMessage, startSession } from "../../src/chat/sessions.ts";
import { answer, startFakeProvider, toolCall, type FakeProvider, type RecordedRequest } from "./fake-provider.ts";
import { assistantFixture, type AssistantFixture, type ReplyBody } from "./setup.ts";

let provider: FakeProvider;
let fixture: AssistantFixture;
afterEach(() => {
  fixture?.context.close();
  provider?.stop();
});

const LEAD_DATA_KEYS = [
  "lead_id",
  "chatbot_id",
  "session_id",
  "sector",
  "name",
  "phone",
  "email",
  "interest",
  "source",
  "captured_at",
  "confidence",
];
const STREAM = { accept: "text/event-stream" };

/** The tool message Parley sent back in the request after the tool call. */
function toolResult(request: RecordedRequest | undefined): {
  ok: boolean;
  error?: string;
  problems?: string[];
  reason?: string;
  nearest_free_slots?: string[];
} {
  const message = request?.body.messages.find((m) => m.role === "tool");
  expect(message?.tool_call_id).toBe("call_1");
  return JSON.parse(message?.content ?? "null");
}

describe("the model's tools", () => {
  test("a capture_lead call streamed in fragments ends in exactly one lead.created with the spec fields", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(
      toolCall("capture_lead", {
        name: "Ana Lopez",
        phone: "(415) 555-0132",
        email: "ana@example.com",
        interest: "Invisalign",
      }),
      answer("Thanks Ana, the team will call you."),
    );
    const response = await fixture.send("I'm Ana Lopez, (415) 555-0132, ana@example.com, I want Invisalign", STREAM);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("event: done");
    expect(toolResult(provider.requests[1]).ok).toBe(true);
    // The assistant message with the assembled tool call went back to the model too.
    expect(provider.requests[1]?.body.messages.find((m) => m.role === "assistant")?.tool_calls?.[0]?.function).toEqual({
      name: "capture_lead",
      arguments: JSON.stringify({
        name: "Ana Lopez",
        phone: "(415) 555-0132",
        email: "ana@example.com",
        interest: "Invisalign",
      }),
    });

    const leads = (await deliverAll(fixture.context)).filter((body) => body.event === "lead.created");
    expect(leads).toHaveLength(1);
    const lead = leads[0]?.data ?? {};
    expect(Object.keys(lead)).toEqual(LEAD_DATA_KEYS);
    expect(lead).toMatchObject({
      session_id: fixture.sessionId,
      name: "Ana Lopez",
      phone: "+14155550132",
      email: "ana@example.com",
      interest: "Invisalign",
      confidence: 0.95,
    });
  });

  test("invalid arguments produce no event and a corrective tool result, and the model asks again", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(
      toolCall("capture_lead", { name: "Ana", phone: "12", email: "ana@example.con", interest: "cleaning" }),
      answer("Could you check your phone number and e-mail?"),
    );
    const body = (await (await fixture.send("Ana, 12, ana@example.con")).json()) as ReplyBody;
    expect(body.reply?.text).toBe("Could you check your phone number and e-mail?");
    const result = toolResult(provider.requests[1]);
    expect(result.ok).toBe(false);
    expect(result.error).toBe("invalid_arguments");
    expect(result.problems?.some((problem) => problem.startsWith("phone:"))).toBe(true);
    expect(result.problems?.some((problem) => problem.startsWith("email:"))).toBe(true);
    expect((await deliverAll(fixture.context)).map((d) => d.event)).toEqual(["session.started"]);
  });

  test("arguments that are not JSON are a corrective result too, not a failure", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(toolCall("capture_lead", '{"name": "Ana'), answer("Sorry, could you repeat your details?"));
    const body = (await (await fixture.send("Ana here")).json()) as ReplyBody;
    expect(body.reply?.text).toBe("Sorry, could you repeat your details?");
    expect(toolResult(provider.requests[1])).toMatchObject({ ok: false, error: "invalid_arguments" });
  });

  test("book_appointment books a free slot: one appointment.created in the tenant's zone", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(
      toolCall("book_appointment", { start: "2026-01-16T10:00", name: "Ana Lopez" }),
      answer("You're booked for Friday at 10:00."),
    );
    const body = (await (await fixture.send("Friday 10am please, I'm Ana Lopez")).json()) as ReplyBody;
    expect(body.reply?.text).toBe("You're booked for Friday at 10:00.");
    const booked = (await deliverAll(fixture.context)).filter((d) => d.event === "appointment.created");
    expect(booked).toHaveLength(1);
    expect(booked[0]?.data).toMatchObject({
      session_id: fixture.sessionId,
      name: "Ana Lopez",
      starts_at: "2026-01-16T15:00:00.000Z",
      ends_at: "2026-01-16T15:30:00.000Z",
      timezone: "America/New_York",
      confidence: 0.95,
    });
  });

  test("a closed or taken slot goes back to the model with the reason and the nearest free slots", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(
      toolCall("book_appointment", { start: "2026-01-18T10:00" }),
      answer("We're closed on Sunday; how about Monday?"),
    );
    await fixture.send("Sunday at 10?");
    const result = toolResult(provider.requests[1]);
    expect(result).toMatchObject({ ok: false, error: "slot_unavailable", reason: "closed" });
    expect(result.nearest_free_slots?.length).toBeGreaterThan(0);
    for (const slot of result.nearest_free_slots ?? []) expect(slot).toMatch(/^2026-01-1[5-9]T\d\d:[03]0$/);
    expect((await deliverAll(fixture.context)).filter((d) => d.event === "appointment.created")).toEqual([]);
  });

  test("handoff hands the session to a person: one handoff.requested with reason assistant, then the bot is silent", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(toolCall("handoff", { reason: "wants a person" }), answer("I'll get a team member for you."));
    const body = (await (await fixture.send("My case is complicated, my insurer refused twice")).json()) as ReplyBody;
    expect(body.status).toBe("handoff");
    const handoffs = (await deliverAll(fixture.context)).filter((d) => d.event === "handoff.requested");
    expect(handoffs).toHaveLength(1);
    expect(handoffs[0]?.data).toMatchObject({
      session_id: fixture.sessionId,
      reason: "assistant",
      last_message: "My case is complicated, my insurer refused twice",
      confidence: 0.7,
    });
    const silent = (await (await fixture.send("hello?")).json()) as ReplyBody;
    expect(silent.reply).toBeNull();
    expect(provider.requests).toHaveLength(2);
  });

  test("the handoff tool tells the model whether a person can answer now: out of hours it must ask for a message instead", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    // 09:00 UTC is 04:00 at the New York clinic: closed.
    provider.script(toolCall("handoff", {}), answer("The team is away; leave your details and question."));
    await fixture.send("My case is complicated, my insurer refused twice");
    expect((toolResult(provider.requests[1]) as { message?: string }).message).toMatch(
      /away now .*leave their name, phone or e-mail and their question/,
    );

    const open = startFakeProvider();
    const inHours = await assistantFixture(open);
    inHours.context.clock.set(Date.UTC(2026, 0, 15, 15, 0)); // 10:00 in New York
    open.script(toolCall("handoff", {}), answer("A team member will join."));
    await inHours.send("My case is complicated, my insurer refused twice");
    expect((toolResult(open.requests[1]) as { message?: string }).message).toBe(
      "A team member will take over this conversation; tell the visitor so.",
    );
    inHours.context.close();
    open.stop();
  });

  test("a prompt-injected second call of the same tool in one turn is refused, so one event", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    const args = { name: "Ana Lopez", phone: "(415) 555-0132", email: "ana@example.com", interest: "x" };
    provider.script(
      toolCall("capture_lead", args),
      toolCall("capture_lead", { ...args, name: "Eve" }),
      answer("Done."),
    );
    await fixture.send("Ana Lopez (415) 555-0132 ana@example.com");
    const second = provider.requests[2]?.body.messages
      .filter((m) => m.role === "tool")
      .map((m) => JSON.parse(m.content ?? "{}"));
    expect(second?.[1]).toMatchObject({ ok: false, error: "already_done" });
    expect((await deliverAll(fixture.context)).filter((d) => d.event === "lead.created")).toHaveLength(1);
  });
  test("a slot booked by someone else while the model was thinking is not booked twice: the reply says so", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    const deps = fixture.context.deps;
    provider.onRequest(async (request) => {
      if (request.body.messages.some((m) => m.role === "tool")) {
        // Between the tool check and the write phase, another visitor takes Friday 10:00.
        const other = await startSession(deps, deps.store, { tenantId: fixture.tenantId, channel: "api" });
        await deps.store.captures.insertAppointment({
          id: "apt_other",
          tenantId: fixture.tenantId,
          chatbotId: other.chatbotId,
          sessionId: other.id,
          startsAt: Date.UTC(2026, 0, 16, 15),
          endsAt: Date.UTC(2026, 0, 16, 15, 30),
          timezone: "America/New_York",
          name: null,
          phone: null,
          email: null,
          confidence: 1,
          createdAt: 0,
        });
      }
      return null;
    });
    provider.script(
      toolCall("book_appointment", { start: "2026-01-16T10:00" }),
      answer("You're booked for Friday at 10:00."),
    );
    const body = (await (await fixture.send("Friday 10am please")).json()) as ReplyBody;
    expect(body.reply?.text).toStartWith("Sorry — that time was booked by someone else a moment ago");
    expect(body.reply?.text).toContain("Fri, Jan 16, 10:30 AM");
    const appointments = await deps.store.captures.listAppointments(fixture.tenantId, null, 100);
    expect(appointments.map((row) => row.id)).toEqual(["apt_other"]);
    expect(appointments.filter((row) => row.sessionId === fixture.sessionId)).toEqual([]);
    expect((await deliverAll(fixture.context)).filter((d) => d.event === "appointment.created")).toEqual([]);
  });

  test("an operator who takes over while the model is thinking wins: the model's reply and actions are dropped", async () => {
    provider = startFakeProvider();
    fixture = await assistantFixture(provider);
    provider.script(answer("Hello from the bot."));
    await fixture.send("hi");
    provider.onRequest(() =>
      postOperatorMessage(fixture.context.deps, fixture.tenantId, fixture.sessionId, {
        text: "Hi, Sam here from the front desk.",
      }),
    );
    provider.script(
      toolCall("capture_lead", { name: "Ana Lopez", phone: "(415) 555-0132", email: "ana@example.com", interest: "x" }),
      answer("Thanks!"),
    );
    const body = (await (await fixture.send("Ana Lopez (415) 555-0132 ana@example.com")).json()) as ReplyBody;
    expect(body.reply).toBeNull();
    expect(body.status).toBe("handoff");
    expect((await deliverAll(fixture.context)).filter((d) => d.event === "lead.created")).toEqual([]);
  });
});
