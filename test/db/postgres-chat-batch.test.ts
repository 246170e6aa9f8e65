import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SQL } from "bun";
import { MAX_BATCH } from "../../src/db/postgres/chat-batch.ts";
import { createPostgresStore } from "../../src/db/postgres/store.ts";
import type { ChatMessageRow, FinishedTurn, MessageLimits, Store } from "../../src/db/store.ts";
import { openTestPgStore, testPostgresUrl, type TestPgStore } from "../pg/test-store.ts";

// Group commit on PostgreSQL (src/db/postgres/chat-batch.ts): turns ending at the same time
// share one statement and one commit, reads one SELECT; each caller still gets its own outcome.
// The store here runs over a client that records every statement sent on the pool.

const url = testPostgresUrl();
const T0 = 1_700_000_000_000;
const UNLIMITED: MessageLimits = { quota: null, thresholdPercent: 80 };

/** Statements sent through the pool, with their parameters (a transaction's own connection is not seen). */
interface Sent {
  text: string;
  params: unknown[];
}

function recording(sql: SQL): { client: SQL; sent: Sent[] } {
  const sent: Sent[] = [];
  const client = new Proxy(sql, {
    get(target, property) {
      if (property === "unsafe")
        return (text: string, params: unknown[] = []) => {
          sent.push({ text, params });
          return target.unsafe(text, params);
        };
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { client, sent };
}

/** Several turns' ends in one statement: the sessions' updates are its second parameter. */
const isTurnsBatch = (each: Sent) => each.text.includes("json_to_recordset($2::text::json)");
const isOneTurn = (each: Sent) => each.text.includes("INSERT INTO chat_messages") && !isTurnsBatch(each);
const isReads = (each: Sent) => each.text.includes("unnest($1::text[], $2::text[])");
const sessionsOf = (batch: Sent) =>
  (JSON.parse(batch.params[1] as string) as Array<{ id: string }>).map((update) => update.id);

describe.skipIf(!url)("group commit on PostgreSQL: chat statements shared by concurrent requests", () => {
  let opened: TestPgStore;
  let store: Store;
  let sent: Sent[];
  let sessionCount = 0;

  beforeAll(async () => {
    opened = await openTestPgStore(url ?? "", T0);
    const recorded = recording(opened.sql);
    store = createPostgresStore(recorded.client);
    sent = recorded.sent;
    for (const tenant of ["ten_a", "ten_b"]) {
      await opened.sql`INSERT INTO tenants (id, name, plan, created_at, updated_at) VALUES (${tenant}, ${tenant}, 'business', ${T0}, ${T0})`;
      await opened.sql`INSERT INTO chatbots (id, tenant_id, name, created_at, updated_at) VALUES (${`bot_${tenant}`}, ${tenant}, 'Bot', ${T0}, ${T0})`;
    }
  });
  afterAll(() => opened.close());

  /** `count` new sessions of a tenant, each with no message yet. */
  async function newSessions(count: number, tenantId = "ten_a"): Promise<string[]> {
    const ids = Array.from({ length: count }, () => `ses_${String(sessionCount++).padStart(4, "0")}`);
    for (const id of ids)
      await store.chatSessions.insertSession({
        id,
        tenantId,
        chatbotId: `bot_${tenantId}`,
        channel: "web",
        status: "bot",
        state: "{}",
        visitorRef: null,
        origin: null,
        messageCount: 0,
        handoffReason: null,
        createdAt: T0,
        updatedAt: T0,
        closedAt: null,
      });
    return ids;
  }

  const message = (sessionId: string, n: number, role: ChatMessageRow["role"]): ChatMessageRow => ({
    id: `msg_${sessionId}_${n}_${role}`,
    sessionId,
    tenantId: "ten_a",
    role,
    text: `${role} ${n} of ${sessionId}`,
    quickReplies: role === "bot" ? ["Yes", "No"] : null,
    confidence: role === "bot" ? 0.5 : null,
    authorId: null,
    authorName: null,
    createdAt: T0 + n,
  });
  /** The n-th turn of a session: the visitor's message and the bot's reply, the count at n. */
  const turn = (sessionId: string, n: number): FinishedTurn => ({
    messages: [message(sessionId, n, "visitor"), message(sessionId, n, "bot")],
    sessionId,
    update: {
      status: n === 2 ? "handoff" : null,
      state: `{"turn":${n}}`,
      messageCount: n,
      handoffReason: n === 2 ? "asked" : null,
      updatedAt: T0 + n,
    },
  });
  /** A turn as a message ends it: alone in its store transaction. */
  const finish = (each: FinishedTurn) => store.transaction((tx) => tx.chatSessions.finishTurn(each));

  async function sessionRow(id: string) {
    const [row] =
      await opened.sql`SELECT status, state, message_count::int AS count, handoff_reason AS reason FROM chat_sessions WHERE id = ${id}`;
    return row as { status: string; state: string; count: number; reason: string | null } | undefined;
  }
  async function messagesOf(id: string): Promise<string[]> {
    const rows = (await opened.sql`SELECT id FROM chat_messages WHERE session_id = ${id} ORDER BY id`) as Array<{
      id: string;
    }>;
    return rows.map((row) => row.id);
  }
  async function queuedOf(id: string): Promise<string[]> {
    const rows = (await opened.sql`SELECT p.message_id AS id FROM chat_messages_search_pending AS p
      JOIN chat_messages AS m ON m.id = p.message_id WHERE m.session_id = ${id} ORDER BY p.message_id`) as Array<{
      id: string;
    }>;
    return rows.map((row) => row.id);
  }

  test("turns ending together share one statement, and each session gets its own turn", async () => {
    const ids = await newSessions(9);
    sent.length = 0;
    // The first goes at once, alone; the eight that end while it runs go together.
    await Promise.all(ids.map((id) => finish(turn(id, 1))));
    expect(sent.filter(isOneTurn)).toHaveLength(1);
    const batches = sent.filter(isTurnsBatch);
    expect(batches).toHaveLength(1);
    expect(sessionsOf(batches[0]!).sort()).toEqual(ids.slice(1));
    for (const id of ids) {
      expect(await sessionRow(id)).toEqual({ status: "bot", state: '{"turn":1}', count: 1, reason: null });
      expect(await messagesOf(id)).toEqual([`msg_${id}_1_bot`, `msg_${id}_1_visitor`]);
      // Only the visitor's message is queued for search, as for a turn alone.
      expect(await queuedOf(id)).toEqual([`msg_${id}_1_visitor`]);
    }
  });

  test("a batch holds at most MAX_BATCH turns", async () => {
    const ids = await newSessions(MAX_BATCH + 6);
    sent.length = 0;
    await Promise.all(ids.map((id) => finish(turn(id, 1))));
    const sizes = sent.filter(isTurnsBatch).map((batch) => sessionsOf(batch).length);
    expect(Math.max(...sizes)).toBe(MAX_BATCH);
    expect(sizes.reduce((sum, size) => sum + size, 0) + sent.filter(isOneTurn).length).toBe(ids.length);
  });

  test("a batch that fails is run again turn by turn: a session erased meanwhile fails only its own turn", async () => {
    const ids = await newSessions(6);
    const erased = ids[3]!;
    await opened.sql`DELETE FROM chat_sessions WHERE id = ${erased}`;
    sent.length = 0;
    const outcomes = await Promise.allSettled(ids.map((id) => finish(turn(id, 1))));
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    // The shared statement was tried with all five, then each of them went alone.
    expect(sent.filter(isTurnsBatch).map(sessionsOf)).toEqual([ids.slice(1)]);
    expect(sent.filter(isOneTurn)).toHaveLength(6);
    for (const id of ids.filter((id) => id !== erased)) {
      expect((await sessionRow(id))?.count).toBe(1);
      expect(await messagesOf(id)).toHaveLength(2);
    }
    expect(await messagesOf(erased)).toEqual([]);
  });

  test("two turns of one session never share a statement and land in order", async () => {
    const [first, ...others] = await newSessions(5);
    sent.length = 0;
    await Promise.all([
      finish(turn(others[0]!, 1)),
      finish(turn(first!, 1)),
      ...others.slice(1).map((id) => finish(turn(id, 1))),
      finish(turn(first!, 2)),
    ]);
    for (const batch of sent.filter(isTurnsBatch)) {
      const sessions = sessionsOf(batch);
      expect(new Set(sessions).size).toBe(sessions.length);
    }
    expect(await sessionRow(first!)).toEqual({ status: "handoff", state: '{"turn":2}', count: 2, reason: "asked" });
    expect(await messagesOf(first!)).toHaveLength(4);
  });

  test("a turn that wrote before its end keeps its own transaction, out of the shared statement", async () => {
    const ids = await newSessions(6);
    const [apart] = ids;
    sent.length = 0;
    await Promise.all([
      store.transaction(async (tx) => {
        await tx.settings.putSetting("batch_test", "1");
        await tx.chatSessions.finishTurn(turn(apart!, 1));
      }),
      ...ids.slice(1).map((id) => finish(turn(id, 1))),
    ]);
    const pooled = sent.filter(isTurnsBatch).flatMap(sessionsOf);
    expect(pooled).not.toContain(apart);
    expect(pooled.length).toBeGreaterThan(1);
    expect(await sessionRow(apart!)).toMatchObject({ count: 1 });
    expect((await opened.sql`SELECT value FROM settings WHERE key = 'batch_test'`)[0]).toEqual({ value: "1" });
  });

  test("messages read together: one SELECT, each caller its own session, only under its own tenant", async () => {
    const own = await newSessions(4);
    const [foreign] = await newSessions(1, "ten_b");
    const period = "2026-03";
    // The first message counts a block; the next ones of the block only read.
    await store.transaction((tx) => tx.usage.reserveMessage("ten_a", period, UNLIMITED, null));
    sent.length = 0;
    const asked = [own[0]!, null, own[1]!, foreign!, own[2]!, own[3]!];
    const results = await Promise.all(
      asked.map((sessionId) =>
        store.transaction((tx) => tx.usage.reserveMessage("ten_a", period, UNLIMITED, sessionId)),
      ),
    );
    expect(results.map((result) => result.session?.id ?? null)).toEqual([
      own[0]!,
      null,
      own[1]!,
      null,
      own[2]!,
      own[3]!,
    ]);
    expect(results.every((result) => result.reserved && result.lookupVersion === results[0]!.lookupVersion)).toBe(true);
    expect(sent.filter(isReads)).toHaveLength(2);
  });
});
