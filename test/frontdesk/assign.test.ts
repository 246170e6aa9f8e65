import { afterEach, describe, expect, test } from "bun:test";
import type { TestContext } from "../helpers.ts";
import { frontDesk, newDeskApp } from "./desk-helpers.ts";
import { eventReader } from "./sse.ts";
import { assignChat } from "../../src/frontdesk/assign-chat.ts";

let context: TestContext;
afterEach(() => context?.close());

const assign = async (sessionId: string, headers: Record<string, string>, body: Record<string, unknown> = {}) => {
  const response = await context.request("POST", `/api/v1/sessions/${sessionId}/assign`, { headers, body });
  return { status: response.status, body: await response.json() };
};

describe("Take and assign", () => {
  test("an agent takes an unassigned chat; everyone then sees who has it", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    const visitor = await desk.handedOff();
    const taken = await assign(visitor.session_id, desk.sam.headers);
    expect(taken).toMatchObject({
      status: 200,
      body: { session_id: visitor.session_id, assigned_to: { user_id: desk.sam.userId, display_name: "Sam" } },
    });
    const seenByKim = (await (await context.request("GET", "/api/v1/inbox", { headers: desk.kim.headers })).json())
      .data[0];
    expect(seenByKim.assigned_to).toEqual({
      user_id: desk.sam.userId,
      display_name: "Sam",
      assigned_at: new Date(context.clock.now()).toISOString(),
    });
  });

  test("an agent cannot take another person's chat (409), give a chat to someone else (403) or release another's (409)", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    const visitor = await desk.handedOff();
    await assign(visitor.session_id, desk.sam.headers);
    expect(await assign(visitor.session_id, desk.kim.headers)).toMatchObject({
      status: 409,
      body: { error: "chat_taken", message: expect.stringContaining("Sam has this chat") },
    });
    expect(await assign(visitor.session_id, desk.kim.headers, { user_id: null })).toMatchObject({
      status: 409,
      body: { error: "chat_taken" },
    });
    const other = await desk.handedOff();
    expect(await assign(other.session_id, desk.kim.headers, { user_id: desk.sam.userId })).toMatchObject({
      status: 403,
      body: { error: "forbidden" },
    });
    // Sam still has the first chat, and may release it; then Kim may take it.
    expect(await assign(visitor.session_id, desk.sam.headers, { user_id: null })).toMatchObject({
      status: 200,
      body: { assigned_to: null },
    });
    expect(await assign(visitor.session_id, desk.kim.headers)).toMatchObject({
      status: 200,
      body: { assigned_to: { user_id: desk.kim.userId } },
    });
  });

  test("an owner or the API key reassigns any chat to any member; a non-member is 404 and a closed chat 409", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context, "Alpha");
    const other = await frontDesk(context, "Beta");
    const visitor = await desk.handedOff();
    await assign(visitor.session_id, desk.sam.headers);
    expect(await assign(visitor.session_id, desk.owner.headers, { user_id: desk.kim.userId })).toMatchObject({
      status: 200,
      body: { assigned_to: { user_id: desk.kim.userId, display_name: "Kim" } },
    });
    expect(await assign(visitor.session_id, desk.apiKey, { user_id: desk.sam.userId })).toMatchObject({
      status: 200,
      body: { assigned_to: { user_id: desk.sam.userId } },
    });
    expect(await assign(visitor.session_id, desk.owner.headers, { user_id: other.sam.userId })).toMatchObject({
      status: 404,
      body: { error: "user_not_found" },
    });
    expect(await assign(visitor.session_id, desk.apiKey)).toMatchObject({
      status: 422,
      body: { error: "validation_failed" },
    });
    expect(await assign(visitor.session_id, desk.owner.headers, { user_id: 7 })).toMatchObject({ status: 422 });
    expect(await assign(visitor.session_id, desk.owner.headers, { who: "me" })).toMatchObject({ status: 422 });
    await context.request("POST", `/api/v1/sessions/${visitor.session_id}/close`, { headers: desk.owner.headers });
    expect(await assign(visitor.session_id, desk.owner.headers)).toMatchObject({
      status: 409,
      body: { error: "session_closed" },
    });
  });

  test("of two people taking the same chat at once, one wins and the other gets 409", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    const visitor = await desk.handedOff();
    const agent = (userId: string) =>
      assignChat(context.deps, desk.tenant.id, { userId, manager: false }, visitor.session_id, undefined);
    const results = await Promise.allSettled([agent(desk.sam.userId), agent(desk.kim.userId)]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "chat_taken", status: 409 });
  });

  test("the inbox stream carries session.assigned (who, by whom) and session.reopened", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    const visitor = await desk.handedOff();
    const inbox = eventReader(await context.request("GET", "/api/v1/inbox/stream", { headers: desk.kim.headers }));
    await assign(visitor.session_id, desk.sam.headers);
    await assign(visitor.session_id, desk.sam.headers); // already Sam's: nothing new to tell
    await assign(visitor.session_id, desk.owner.headers, { user_id: null });
    await context.request("POST", `/api/v1/sessions/${visitor.session_id}/close`, { headers: desk.owner.headers });
    await context.request("POST", `/api/v1/sessions/${visitor.session_id}/reopen`, { headers: desk.owner.headers });
    const events = await inbox.next(4);
    expect(events.map((event) => event.event)).toEqual([
      "session.assigned",
      "session.assigned",
      "session.closed",
      "session.reopened",
    ]);
    expect(events[0]?.data).toEqual({
      session_id: visitor.session_id,
      assigned_to: { user_id: desk.sam.userId, display_name: "Sam" },
      assigned_by: desk.sam.userId,
      assigned_at: expect.any(String),
    });
    expect(events[1]?.data).toMatchObject({ assigned_to: null, assigned_by: desk.owner.userId });
    expect(events[3]?.data).toEqual({ session_id: visitor.session_id, reopened_at: expect.any(String) });
    await inbox.close();
  });
});
