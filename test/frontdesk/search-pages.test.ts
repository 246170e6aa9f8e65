import { afterEach, expect, test } from "bun:test";
import { buildDeps, closeDeps, seedTenant, type TestDeps, testSql } from "../helpers.ts";
import { newId } from "../../src/lib/ids.ts";
import { textWords } from "../../src/db/search-terms.ts";
import { searchChats } from "../../src/frontdesk/search-chats.ts";
import { EXPANSION_BOUND } from "../../src/db/sqlite/search-vocabulary.ts";

// Search pages against a brute-force reference, on whichever store the tests run: rows go in
// out of time order (so insertion order and id order disagree), a new chat's only match is its
// oldest-inserted message, an old chat's is its newest, some chats match only by their lead.

let deps: TestDeps | undefined;
afterEach(() => deps && closeDeps(deps));

interface Planted {
  tenantId: string;
  sessionId: string;
  role: "visitor" | "bot" | "operator";
  text: string;
}

/** A deterministic shuffle (the same order every run). */
function shuffled<T>(items: T[]): T[] {
  let seed = 7;
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

test("every page of a search is the brute-force answer: newest session first, across cursors, tenants apart", async () => {
  deps = buildDeps();
  const sql = await testSql(deps);
  const mine = await seedTenant(deps, "Mine");
  const theirs = await seedTenant(deps, "Theirs");
  const chatbotOf = async (tenantId: string) =>
    (await sql.get<{ id: string }>("SELECT id FROM chatbots WHERE tenant_id = ?", tenantId))?.id as string;
  const bots = {
    [mine.tenant.id]: await chatbotOf(mine.tenant.id),
    [theirs.tenant.id]: await chatbotOf(theirs.tenant.id),
  };
  const start = 1_800_000_000_000;
  const sessions: Array<{ tenantId: string; id: string; at: number }> = [];
  const messages: Planted[] = [];
  const leads: Array<{ tenantId: string; sessionId: string; name: string; email: string }> = [];
  for (let i = 0; i < 160; i++) {
    const tenantId = i % 4 === 3 ? theirs.tenant.id : mine.tenant.id;
    const at = start + i * 60_000;
    const id = newId("ses", at);
    sessions.push({ tenantId, id, at });
    // Every chat's bot says the common word; bot messages are never matched.
    messages.push({ tenantId, sessionId: id, role: "bot", text: "Our opening hours are 9 to 5" });
    if (i % 3 !== 0)
      messages.push({ tenantId, sessionId: id, role: "visitor", text: `what are your hours on day ${i}` });
    if (i % 5 === 0) messages.push({ tenantId, sessionId: id, role: "operator", text: `Hourly rate is ${i}` });
    if (i % 11 === 0) messages.push({ tenantId, sessionId: id, role: "visitor", text: "I saw a zebra today" });
    // A word of its own per chat: "b1" stands for tens of words, "b" for more than a prefix expands to.
    if (i % 2 === 0) messages.push({ tenantId, sessionId: id, role: "operator", text: `booking b${i}x` });
    if (i % 7 === 0) leads.push({ tenantId, sessionId: id, name: `Hours Quintana ${i}`, email: `q${i}@example.com` });
  }
  const newest = sessions.filter((s) => s.tenantId === mine.tenant.id).at(-2) as (typeof sessions)[number];
  const oldest = sessions.filter((s) => s.tenantId === mine.tenant.id)[1] as (typeof sessions)[number];
  // A new chat whose only "walrus" is inserted before every other row, an old chat whose only one is inserted last.
  const firstRow: Planted = { tenantId: mine.tenant.id, sessionId: newest.id, role: "visitor", text: "a walrus hours" };
  const lastRow: Planted = { tenantId: mine.tenant.id, sessionId: oldest.id, role: "visitor", text: "walrus again" };
  for (const s of sessions)
    await sql.run(
      "INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, message_count, created_at, updated_at) VALUES (?, ?, ?, 'widget', 'closed', '{}', 0, ?, ?)",
      s.id,
      s.tenantId,
      bots[s.tenantId] as string,
      s.at,
      s.at,
    );
  const atOf = new Map(sessions.map((s) => [s.id, s.at]));
  for (const [n, row] of [firstRow, ...shuffled(messages), lastRow].entries()) {
    const at = (atOf.get(row.sessionId) as number) + 1 + (row === lastRow ? 9_000_000 : n % 50);
    // Through the store's own write, which queues the message for the search index.
    await deps.store.chatSessions.insertMessage({
      id: newId("msg", at),
      sessionId: row.sessionId,
      tenantId: row.tenantId,
      role: row.role,
      text: row.text,
      quickReplies: null,
      confidence: null,
      authorId: null,
      authorName: null,
      createdAt: at,
    });
  }
  for (const lead of shuffled(leads))
    await sql.run(
      "INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at) VALUES (?, ?, ?, ?, ?, '+4477', ?, '', 'widget', 1, ?)",
      newId("lead", atOf.get(lead.sessionId) as number),
      lead.tenantId,
      bots[lead.tenantId] as string,
      lead.sessionId,
      lead.name,
      lead.email,
      atOf.get(lead.sessionId) as number,
    );

  /** The sessions of the tenant with a searchable text (a message, a lead) holding every word as a prefix, newest first. */
  const reference = (tenantId: string, query: string): string[] => {
    const words = [...new Set(textWords(query))];
    const textsOf = (sessionId: string) => [
      ...[firstRow, ...messages, lastRow]
        .filter((m) => m.sessionId === sessionId && m.role !== "bot")
        .map((m) => textWords(m.text)),
      ...leads.filter((l) => l.sessionId === sessionId).map((l) => textWords(`${l.name} ${l.email} +4477`)),
    ];
    return sessions
      .filter((s) => s.tenantId === tenantId)
      .filter((s) => textsOf(s.id).some((terms) => words.every((word) => terms.some((term) => term.startsWith(word)))))
      .map((s) => s.id)
      .sort()
      .reverse();
  };
  const pages = async (tenantId: string, query: string, limit: number): Promise<string[][]> => {
    const out: string[][] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 100; n++) {
      const page = await searchChats(deps as TestDeps, tenantId, null, query, { limit, cursor });
      out.push(page.data.map((chat) => chat.session_id));
      if (page.next_cursor === null) return out;
      cursor = page.next_cursor;
    }
    throw new Error("more pages than chats");
  };
  const chunks = (ids: string[], size: number) =>
    ids.length === 0
      ? [[]]
      : Array.from({ length: Math.ceil(ids.length / size) }, (_, i) => ids.slice(i * size, i * size + size));

  const queries = ["hours", "hour", "walrus", "zebra", "quintana", "hours quintana", "hourly", "q7", "nothing"];
  for (const query of [...queries, "q", "b1", "booking b1", "b", "b hour", "b15", "b158x"])
    for (const limit of [1, 7, 50]) {
      const expected = reference(mine.tenant.id, query);
      expect({ query, limit, pages: await pages(mine.tenant.id, query, limit) }).toEqual({
        query,
        limit,
        pages: chunks(expected, limit),
      });
    }
  // The planted cases land where their sessions are, and the common word covers most chats.
  expect(reference(mine.tenant.id, "walrus")).toEqual([newest.id, oldest.id]);
  expect(reference(mine.tenant.id, "hours").length).toBeGreaterThan(80);
  expect(reference(mine.tenant.id, "quintana").length).toBeGreaterThan(10);
  // "b1" stands for several words within the bound, "b" for more than it.
  const wordsWith = (prefix: string) =>
    new Set(
      messages
        .filter((m) => m.tenantId === mine.tenant.id)
        .flatMap((m) => textWords(m.text))
        .filter((word) => word.startsWith(prefix)),
    ).size;
  expect(wordsWith("b1")).toBeGreaterThan(10);
  expect(wordsWith("b1")).toBeLessThanOrEqual(EXPANSION_BOUND);
  expect(wordsWith("b")).toBeGreaterThan(EXPANSION_BOUND);
  // The other tenant finds its own chats only.
  expect((await pages(theirs.tenant.id, "hours", 200)).flat()).toEqual(reference(theirs.tenant.id, "hours"));
  expect(reference(theirs.tenant.id, "hours").length).toBeGreaterThan(20);
}, 60_000);
