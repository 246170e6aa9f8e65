import { afterEach, describe, expect, test } from "bun:test";
import type { TestContext } from "../helpers.ts";
import { frontDesk, newDeskApp } from "./desk-helpers.ts";
import { CANNED_REPLY_LIMIT } from "../../src/frontdesk/canned-replies.ts";

let context: TestContext;
afterEach(() => context?.close());

const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const response = await context.request(method, `/api/v1/canned-replies${path}`, { headers, body });
  return { status: response.status, body: await response.json() };
};

describe("canned replies", () => {
  test("managers create, change and delete them; agents read them, by shortcut", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    const hours = await call("POST", "", desk.owner.headers, {
      shortcut: "hours",
      text: "  We're open 9:00 to 17:00.  ",
    });
    const id: string = hours.body.canned_reply_id;
    expect(id).toStartWith("cnr_");
    expect(hours).toMatchObject({ status: 201, body: { shortcut: "hours", text: "We're open 9:00 to 17:00." } });
    await call("POST", "", desk.apiKey, { shortcut: "address", text: "1 High Street." });
    const listed = await call("GET", "", desk.sam.headers);
    expect(listed.body.data.map((reply: { shortcut: string }) => reply.shortcut)).toEqual(["address", "hours"]);

    expect(await call("PATCH", `/${id}`, desk.owner.headers, { text: "Open 8:00 to 18:00." })).toMatchObject({
      status: 200,
      body: { shortcut: "hours", text: "Open 8:00 to 18:00." },
    });
    expect(await call("DELETE", `/${id}`, desk.owner.headers)).toEqual({
      status: 200,
      body: { ok: true, canned_reply_id: id, deleted: true },
    });
    expect((await call("GET", "", desk.sam.headers)).body.data).toHaveLength(1);
    expect(await call("DELETE", `/${id}`, desk.owner.headers)).toMatchObject({
      status: 404,
      body: { error: "canned_reply_not_found" },
    });
  });

  test("an agent may not write them (403)", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    expect(await call("POST", "", desk.sam.headers, { shortcut: "hi", text: "Hello!" })).toMatchObject({
      status: 403,
      body: { error: "forbidden" },
    });
    const made = await call("POST", "", desk.owner.headers, { shortcut: "hi", text: "Hello!" });
    expect((await call("PATCH", `/${made.body.canned_reply_id}`, desk.sam.headers, { text: "x" })).status).toBe(403);
    expect((await call("DELETE", `/${made.body.canned_reply_id}`, desk.sam.headers)).status).toBe(403);
  });

  test("bad input is 422, a taken shortcut 409, another tenant's reply 404", async () => {
    context = newDeskApp();
    const desk = await frontDesk(context, "Alpha");
    const other = await frontDesk(context, "Beta");
    for (const body of [
      { shortcut: "Hours", text: "x" },
      { shortcut: "", text: "x" },
      { shortcut: "a".repeat(33), text: "x" },
      { shortcut: "ok", text: "" },
      { shortcut: "ok", text: "   " },
      { shortcut: "ok", text: "x".repeat(2001) },
      { shortcut: "ok" },
      { shortcut: "ok", text: "x", extra: 1 },
    ]) {
      const answer = await call("POST", "", desk.owner.headers, body);
      expect({ body, status: answer.status, error: answer.body.error }).toEqual({
        body,
        status: 422,
        error: "validation_failed",
      });
    }
    const first = await call("POST", "", desk.owner.headers, { shortcut: "hours", text: "x" });
    const second = await call("POST", "", desk.owner.headers, { shortcut: "price", text: "y" });
    expect(await call("POST", "", desk.owner.headers, { shortcut: "hours", text: "z" })).toMatchObject({
      status: 409,
      body: { error: "shortcut_taken" },
    });
    expect(
      await call("PATCH", `/${second.body.canned_reply_id}`, desk.owner.headers, { shortcut: "hours" }),
    ).toMatchObject({ status: 409, body: { error: "shortcut_taken" } });
    // The same shortcut in another tenant is that tenant's own.
    expect((await call("POST", "", other.owner.headers, { shortcut: "hours", text: "theirs" })).status).toBe(201);
    expect(
      (await call("PATCH", `/${first.body.canned_reply_id}`, other.owner.headers, { text: "stolen" })).status,
    ).toBe(404);
    expect((await call("DELETE", `/${first.body.canned_reply_id}`, other.owner.headers)).status).toBe(404);
    expect((await call("GET", "", other.sam.headers)).body.data.map((reply: { text: string }) => reply.text)).toEqual([
      "theirs",
    ]);
  });

  test(`a tenant keeps at most ${CANNED_REPLY_LIMIT}`, async () => {
    context = newDeskApp();
    const desk = await frontDesk(context);
    for (let i = 0; i < CANNED_REPLY_LIMIT; i++) {
      await context.deps.store.cannedReplies.insertCannedReply({
        id: `cnr_${String(i).padStart(26, "0")}`,
        tenantId: desk.tenant.id,
        shortcut: `r${i}`,
        text: "x",
        createdAt: 1,
        updatedAt: 1,
      });
    }
    expect(await call("POST", "", desk.owner.headers, { shortcut: "one-more", text: "x" })).toMatchObject({
      status: 409,
      body: { error: "limit_reached" },
    });
  });
});
