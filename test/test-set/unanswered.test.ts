import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestContext } from "../helpers.ts";
import { openWidgetSession, say } from "../http/chat-helpers.ts";
import { clinic } from "./helpers.ts";

let context: TestContext;
afterEach(() => context.close());

const UNANSWERED = "/api/v1/chatbot/unanswered";

interface Group {
  group_id: string;
  question: string;
  count: number;
  languages: string[];
  first_seen: string;
  last_seen: string;
  examples: Array<{ session_id: string; question: string }>;
}

async function ask(tenantId: string, message: string) {
  const visitor = await openWidgetSession(context, tenantId);
  const response = await say(context, visitor.access_token, tenantId, message);
  return { session_id: visitor.session_id, reply: ((await response.json()) as { reply: { text: string } }).reply.text };
}

const groups = async (key: Record<string, string>) =>
  ((await (await context.request("GET", UNANSWERED, { headers: key })).json()) as { data: Group[] }).data;

describe("unanswered questions", () => {
  test("a fallback is recorded, grouped with a paraphrase, fixed by an FAQ added from the group, and then answered", async () => {
    context = buildTestApp();
    const { tenant, key } = await clinic(context);
    const first = await ask(tenant.id, "Do you accept pets in the waiting room?");
    context.clock.advance(60_000);
    const second = await ask(tenant.id, "Are pets allowed in the waiting room?");
    context.clock.advance(60_000);
    await ask(tenant.id, "Do you sell gift cards?");
    await ask(tenant.id, "What are your opening hours?"); // answered: not recorded

    const listed = await groups(key);
    expect(listed.map((group) => [group.question, group.count])).toEqual([
      ["Do you sell gift cards?", 1],
      ["Are pets allowed in the waiting room?", 2],
    ]);
    const pets = listed[1]!;
    expect(pets).toMatchObject({
      languages: ["en"],
      first_seen: new Date(context.clock.now() - 120_000).toISOString(),
      last_seen: new Date(context.clock.now() - 60_000).toISOString(),
    });
    expect(pets.examples.map((example) => example.session_id)).toEqual([second.session_id, first.session_id]);

    const fixed = await context.request("POST", `${UNANSWERED}/${pets.group_id}/faq`, {
      headers: key,
      body: { answer: "Pets are welcome in the waiting room, on a lead." },
    });
    expect(fixed.status).toBe(200);
    expect(await fixed.json()).toMatchObject({
      ok: true,
      group_id: pets.group_id,
      resolved: 2,
      faq: { question: "Are pets allowed in the waiting room?" },
    });
    expect((await groups(key)).map((group) => group.question)).toEqual(["Do you sell gift cards?"]);

    const again = await ask(tenant.id, "Do you accept pets in the waiting room?");
    expect(again.reply).toContain("Pets are welcome in the waiting room");
    expect((await groups(key)).map((group) => group.question)).toEqual(["Do you sell gift cards?"]);
  });

  test("a group becomes a test case or is dismissed in one step; another tenant's group is 404", async () => {
    context = buildTestApp();
    const { tenant, key } = await clinic(context);
    const other = await clinic(context, "Other");
    await ask(tenant.id, "Do you sell gift cards?");
    const [gifts] = await groups(key);
    expect(
      (await context.request("POST", `${UNANSWERED}/${gifts!.group_id}/dismiss`, { headers: other.key })).status,
    ).toBe(404);

    const saved = await context.request("POST", `${UNANSWERED}/${gifts!.group_id}/test-case`, {
      headers: key,
      body: { expect: { contains: ["gift card"] } },
    });
    expect(saved.status).toBe(200);
    const body = (await saved.json()) as { resolved: number; case: { case_id: string; question: string } };
    expect(body).toMatchObject({
      resolved: 1,
      case: { question: "Do you sell gift cards?", expect: { contains: ["gift card"] } },
    });
    expect(await groups(key)).toEqual([]);
    expect((await (await context.request("GET", "/api/v1/chatbot/tests", { headers: key })).json()).data).toHaveLength(
      1,
    );

    await ask(tenant.id, "Can I pay in bitcoin?");
    const [bitcoin] = await groups(key);
    expect(
      await (await context.request("POST", `${UNANSWERED}/${bitcoin!.group_id}/dismiss`, { headers: key })).json(),
    ).toEqual({ ok: true, group_id: bitcoin!.group_id, resolved: 1 });
    expect(await groups(key)).toEqual([]);
    expect((await context.request("POST", `${UNANSWERED}/${bitcoin!.group_id}/dismiss`, { headers: key })).status).toBe(
      404,
    );
  });

  test("erasing a visitor removes their questions", async () => {
    context = buildTestApp();
    const { tenant, key } = await clinic(context);
    const asked = await ask(tenant.id, "Do you sell gift cards?");
    await ask(tenant.id, "Do you sell gift vouchers?");
    expect((await groups(key))[0]?.count).toBe(2);
    expect((await context.request("DELETE", `/api/v1/sessions/${asked.session_id}`, { headers: key })).status).toBe(
      200,
    );
    const [left] = await groups(key);
    expect(left).toMatchObject({ count: 1, question: "Do you sell gift vouchers?" });
    expect(left?.examples.map((example) => example.session_id)).not.toContain(asked.session_id);
  });
});
