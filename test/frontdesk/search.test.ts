import { afterEach, describe, expect, test } from "bun:test";
import type { TestContext } from "../helpers.ts";
import { frontDesk, newDeskApp, say } from "./desk-helpers.ts";
import { fullTextQuery, searchWords } from "../../src/frontdesk/search-chats.ts";

let context: TestContext;
afterEach(() => context?.close());

const search = async (headers: Record<string, string>, query: string) => {
  const response = await context.request("GET", `/api/v1/inbox/search?${query}`, { headers });
  return { status: response.status, body: await response.json() };
};
const idsOf = (body: { data: Array<{ session_id: string }> }) => body.data.map((chat) => chat.session_id);

describe("search over past conversations", () => {
  test("finds chats by message text, visitor name, e-mail and phone, any status, newest first", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    const crown = await desk.handedOff();
    await say(context, crown.access_token, desk.tenant.id, "My crown came loose yesterday", {
      session_id: crown.session_id,
    });
    await context.request("POST", `/api/v1/sessions/${crown.session_id}/close`, { headers: desk.owner.headers });
    context.clock.advance(1000);
    const ana = await desk.handedOff();
    await context.deps.store.captures.insertLead({
      id: "lead_01jz4k8m2q9wz7xr3t5v6b8c0d",
      tenantId: desk.tenant.id,
      chatbotId: "bot_x",
      sessionId: ana.session_id,
      name: "Ana López",
      phone: "+447700900123",
      email: "ana.lopez@example.com",
      interest: "",
      source: "widget",
      confidence: 0.9,
      capturedAt: context.clock.now(),
    });

    expect(idsOf((await search(desk.sam.headers, "q=crown")).body)).toEqual([crown.session_id]);
    expect(idsOf((await search(desk.sam.headers, "q=LOOSE%20cro")).body)).toEqual([crown.session_id]);
    expect(idsOf((await search(desk.sam.headers, "q=ana%20lopez")).body)).toEqual([ana.session_id]);
    expect(idsOf((await search(desk.sam.headers, `q=${encodeURIComponent("ana.lopez@example.com")}`)).body)).toEqual([
      ana.session_id,
    ]);
    expect(idsOf((await search(desk.sam.headers, `q=${encodeURIComponent("+44770090")}`)).body)).toEqual([
      ana.session_id,
    ]);
    // Both visitors asked for a human: newest first.
    expect(idsOf((await search(desk.sam.headers, "q=human")).body)).toEqual([ana.session_id, crown.session_id]);
    expect((await search(desk.sam.headers, "q=crown")).body.data[0]).toMatchObject({ status: "closed" });
    expect((await search(desk.sam.headers, "q=dentures")).body).toEqual({ data: [], next_cursor: null });
  });

  test("pages with a cursor, and never shows another tenant's chats", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context, "Alpha");
    const other = await frontDesk(context, "Beta");
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) {
      context.clock.advance(1000);
      mine.unshift((await desk.handedOff()).session_id);
    }
    const theirs = await other.handedOff();
    const first = await search(desk.sam.headers, "q=human&limit=2");
    expect(idsOf(first.body)).toEqual(mine.slice(0, 2));
    const second = await search(desk.sam.headers, `q=human&limit=2&cursor=${first.body.next_cursor}`);
    expect(idsOf(second.body)).toEqual(mine.slice(2, 4));
    const third = await search(desk.sam.headers, `q=human&limit=2&cursor=${second.body.next_cursor}`);
    expect(third.body).toMatchObject({ next_cursor: null });
    expect(idsOf(third.body)).toEqual(mine.slice(4));
    expect(idsOf((await search(other.sam.headers, "q=human")).body)).toEqual([theirs.session_id]);
  });

  test("a query with no word, too long, or a bad cursor is 422; FTS syntax in it is only words", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    await desk.handedOff();
    for (const query of ["q=", "q=%20%2B%2B", `q=${"a".repeat(201)}`, "q=x&cursor=nope", "", "q=x&limit=101"]) {
      const answer = await search(desk.sam.headers, query);
      expect({ query, status: answer.status, error: answer.body.error }).toEqual({
        query,
        status: 422,
        error: "validation_failed",
      });
    }
    for (const query of ['"human', "human NEAR(talk", "human OR * AND", "talk:* & !human | (", "col:human"]) {
      expect({ query, status: (await search(desk.sam.headers, `q=${encodeURIComponent(query)}`)).status }).toEqual({
        query,
        status: 200,
      });
    }
  });

  test("the query keeps letters and digits of any script and quotes each word behind the tenant's key", () => {
    expect(searchWords("  Ana  López, +44 7700! ana ")).toEqual(["ana", "lópez", "44", "7700"]);
    expect(fullTextQuery("sqlite", "ten_01jz4k8m2q9wz7xr3t5v6b8c0d", ["ana", "near"])).toBe(
      '"01jz4k8m2q9wz7xr3t5v6b8c0dana"* AND "01jz4k8m2q9wz7xr3t5v6b8c0dnear"*',
    );
    expect(fullTextQuery("postgres", "ten_A_b", ["ana", "44"])).toBe("'abana':* & 'ab44':*");
  });
});
