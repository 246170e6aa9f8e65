import { afterEach, describe, expect, test } from "bun:test";
import type { TestContext } from "../helpers.ts";
import { frontDesk, newDeskApp, say } from "./desk-helpers.ts";

let context: TestContext;
afterEach(() => context?.close());

const json = async (response: Response) => ({ status: response.status, body: await response.json() });

describe("the inbox for people", () => {
  test("a chat shows the visitor's name, contact, lead, appointment, language, page, wait and who has it", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    const visitor = await desk.handedOff({ page_url: "https://clinic.example/prices?x=1" });
    const handedOffAt = context.clock.now();
    await context.deps.store.captures.insertLead({
      id: "lead_01jz4k8m2q9wz7xr3t5v6b8c0d",
      tenantId: desk.tenant.id,
      chatbotId: "bot_x",
      sessionId: visitor.session_id,
      name: "Ana Lopez",
      phone: "+447700900123",
      email: "ana@example.com",
      interest: "crowns",
      source: "widget",
      confidence: 0.9,
      capturedAt: handedOffAt,
    });
    const startsAt = Date.UTC(2026, 0, 20, 10, 0);
    await context.deps.store.captures.insertAppointment({
      id: "apt_01jz4k8m2q9wz7xr3t5v6b8c0d",
      tenantId: desk.tenant.id,
      chatbotId: "bot_x",
      sessionId: visitor.session_id,
      startsAt,
      endsAt: startsAt + 1_800_000,
      timezone: "Europe/London",
      name: "Ana Lopez",
      phone: null,
      email: null,
      confidence: 0.9,
      createdAt: handedOffAt,
    });
    context.clock.advance(90_000);

    const { status, body } = await json(await context.request("GET", "/api/v1/inbox", { headers: desk.sam.headers }));
    expect(status).toBe(200);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({
      session_id: visitor.session_id,
      status: "handoff",
      visitor_name: "Ana Lopez",
      lead: { name: "Ana Lopez", email: "ana@example.com", phone: "+447700900123" },
      appointment: { starts_at: new Date(startsAt).toISOString(), timezone: "Europe/London" },
      language: "en",
      page_url: "https://clinic.example/prices?x=1",
      handoff_at: new Date(handedOffAt).toISOString(),
      waiting_since: new Date(handedOffAt).toISOString(),
      waiting_seconds: 90,
      unread: 1,
      assigned_to: null,
    });
  });

  test("the wait counts from the hand-off, stops at a person's reply and starts again at the visitor's next message", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    const visitor = await desk.handedOff();
    const chat = async () =>
      (
        await json(
          await context.request("GET", `/api/v1/inbox/chats/${visitor.session_id}`, { headers: desk.sam.headers }),
        )
      ).body;
    context.clock.advance(60_000);
    expect((await chat()).waiting_seconds).toBe(60);
    await context.request("POST", `/api/v1/sessions/${visitor.session_id}/operator-messages`, {
      headers: desk.sam.headers,
      body: { text: "Hi, Sam here." },
    });
    expect(await chat()).toMatchObject({ waiting_since: null, waiting_seconds: null });
    context.clock.advance(5_000);
    const askedAt = context.clock.now();
    await say(context, visitor.access_token, desk.tenant.id, "Thanks, it is about my crown", {
      session_id: visitor.session_id,
    });
    context.clock.advance(20_000);
    expect(await chat()).toMatchObject({ waiting_since: new Date(askedAt).toISOString(), waiting_seconds: 20 });
  });

  test("unread counts the visitor's messages per person: opening the chat reads them for that person only", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    const visitor = await desk.handedOff();
    await say(context, visitor.access_token, desk.tenant.id, "Hello?", { session_id: visitor.session_id });
    const unreadFor = async (headers: Record<string, string>) =>
      (await json(await context.request("GET", "/api/v1/inbox", { headers }))).body.data[0].unread;
    expect(await unreadFor(desk.sam.headers)).toBe(2);

    const read = await json(
      await context.request("POST", `/api/v1/inbox/chats/${visitor.session_id}/read`, { headers: desk.sam.headers }),
    );
    expect(read).toMatchObject({ status: 200, body: { unread: 0 } });
    expect(await unreadFor(desk.sam.headers)).toBe(0);
    expect(await unreadFor(desk.kim.headers)).toBe(2);

    await say(context, visitor.access_token, desk.tenant.id, "Anyone there?", { session_id: visitor.session_id });
    expect(await unreadFor(desk.sam.headers)).toBe(1);
    // An API key has no read marks of its own.
    expect(
      (await context.request("POST", `/api/v1/inbox/chats/${visitor.session_id}/read`, { headers: desk.apiKey }))
        .status,
    ).toBe(422);
  });

  test("the page comes from the widget's page_url, else the Referer; a page_url that is not http(s) is 422", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    const referred = await desk.handedOff({}, { referer: "https://shop.example/" });
    const chat = await json(
      await context.request("GET", `/api/v1/inbox/chats/${referred.session_id}`, { headers: desk.sam.headers }),
    );
    expect(chat.body.page_url).toBe("https://shop.example/");
    const refused = await context.request("POST", "/api/v1/widget/session", {
      body: { tenant_id: desk.tenant.id, page_url: "javascript:alert(1)" },
    });
    expect(refused.status).toBe(422);
    expect((await refused.json()).error).toBe("validation_failed");
  });

  test("another tenant's chat is 404 everywhere in the inbox, and its chats never show", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context, "Alpha");
    const other = await frontDesk(context, "Beta");
    const visitor = await desk.handedOff();
    for (const [method, path] of [
      ["GET", `/api/v1/inbox/chats/${visitor.session_id}`],
      ["POST", `/api/v1/inbox/chats/${visitor.session_id}/read`],
      ["POST", `/api/v1/sessions/${visitor.session_id}/assign`],
      ["POST", `/api/v1/sessions/${visitor.session_id}/reopen`],
    ] as const) {
      const response = await context.request(method, path, {
        headers: other.sam.headers,
        body: method === "POST" ? {} : undefined,
      });
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
    expect(
      (await json(await context.request("GET", "/api/v1/inbox", { headers: other.sam.headers }))).body.data,
    ).toEqual([]);
  });

  test("close and reopen: a closed chat leaves the inbox, is listed with ?status=closed, and comes back on reopen", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    const visitor = await desk.handedOff();
    const ids = async (query = "") =>
      (await json(await context.request("GET", `/api/v1/inbox${query}`, { headers: desk.sam.headers }))).body.data.map(
        (chat: { session_id: string }) => chat.session_id,
      );
    await context.request("POST", `/api/v1/sessions/${visitor.session_id}/close`, { headers: desk.sam.headers });
    expect(await ids()).toEqual([]);
    expect(await ids("?status=closed")).toEqual([visitor.session_id]);
    const reopened = await json(
      await context.request("POST", `/api/v1/sessions/${visitor.session_id}/reopen`, { headers: desk.sam.headers }),
    );
    expect(reopened).toMatchObject({ status: 200, body: { status: "handoff", closed_at: null } });
    expect(await ids()).toEqual([visitor.session_id]);
    expect((await context.request("GET", "/api/v1/inbox?status=bot", { headers: desk.sam.headers })).status).toBe(422);
  });
});
