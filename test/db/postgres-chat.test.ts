import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDatabase } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import type {
  AppointmentRow,
  ChatMessageRow,
  ChatSessionRow,
  LeadRow,
  SessionTurnUpdate,
  Store,
} from "../../src/db/store.ts";
import { MESSAGE_BLOCK } from "../../src/db/postgres/usage.ts";
import { openTestPgStore, testPostgresUrl, type TestPgStore } from "../pg/test-store.ts";

// The chat, knowledge and privacy aggregates on PostgreSQL (src/db/postgres/{chat,knowledge,
// privacy}.ts) against SQLite's (src/db/sqlite/): the same calls through both stores, every
// result equal. Tests run in order and build on each other's rows.

const url = testPostgresUrl();
const T0 = 1_700_000_000_000;
const MIN = 60_000;
/** A document added by hand: no source, no fetch validators. */
const UNSOURCED = { sourceId: null, etag: null, lastModified: null, contentHash: null };

let lite: Store;
let closeLite: () => void;
let pgHandle: TestPgStore;
let pg: Store;

/** Runs the same call on both stores and expects the same result; returns it. */
async function both<T>(call: (store: Store) => Promise<T>): Promise<T> {
  const expected = await call(lite);
  const actual = await call(pg);
  expect(actual).toEqual(expected);
  return expected;
}

const session = (id: string, tenantId: string, extra: Partial<ChatSessionRow> = {}): ChatSessionRow => ({
  id,
  tenantId,
  chatbotId: tenantId === "ten_1" ? "bot_1" : "bot_2",
  channel: "web",
  status: "bot",
  state: "{}",
  visitorRef: null,
  origin: "https://a.example",
  messageCount: 0,
  handoffReason: null,
  createdAt: T0,
  updatedAt: T0,
  closedAt: null,
  ...extra,
});

const message = (id: string, sessionId: string, text: string, extra: Partial<ChatMessageRow> = {}): ChatMessageRow => ({
  id,
  sessionId,
  tenantId: "ten_1",
  role: "visitor",
  text,
  quickReplies: null,
  confidence: null,
  authorId: null,
  authorName: null,
  createdAt: T0 + 1,
  ...extra,
});

const lead = (id: string, sessionId: string, extra: Partial<LeadRow> = {}): LeadRow => ({
  id,
  tenantId: "ten_1",
  chatbotId: "bot_1",
  sessionId,
  name: "Ana",
  phone: "+31611111111",
  email: "Ana@Example.com",
  interest: "cut",
  source: "chat",
  confidence: 0.9,
  capturedAt: T0 + 5,
  ...extra,
});

const appointment = (
  id: string,
  sessionId: string,
  startsAt: number,
  extra: Partial<AppointmentRow> = {},
): AppointmentRow => ({
  id,
  tenantId: "ten_1",
  chatbotId: "bot_1",
  sessionId,
  startsAt,
  endsAt: startsAt + 30 * MIN,
  timezone: "Europe/Amsterdam",
  name: "Ana",
  phone: "+31611111111",
  email: "ANA@example.com",
  confidence: 0.75,
  createdAt: T0 + 6,
  ...extra,
});

describe.skipIf(!url)("chat, knowledge and privacy aggregates: PostgreSQL as SQLite", () => {
  beforeAll(async () => {
    const handle = openDatabase(":memory:");
    applyMigrations(handle.sqlite, T0);
    lite = handle.store;
    closeLite = () => handle.close();
    pgHandle = await openTestPgStore(url ?? "", T0);
    pg = pgHandle.store;
    await both(async (store) => {
      await store.tenants.insertTenant({
        id: "ten_1",
        name: "One",
        plan: "pro",
        sector: "salon",
        allowedOrigins: ["https://a.example"],
        createdAt: T0,
        updatedAt: T0,
      });
      await store.tenants.insertTenant({
        id: "ten_2",
        name: "Two",
        plan: "free",
        sector: "general",
        allowedOrigins: [],
        createdAt: T0,
        updatedAt: T0 + 1,
      });
      await store.tenants.insertTenant({
        id: "ten_3",
        name: "Three",
        plan: "free",
        sector: "general",
        allowedOrigins: [],
        createdAt: T0,
        updatedAt: T0,
      });
      await store.tenants.insertChatbot({
        id: "bot_1",
        tenantId: "ten_1",
        name: "Bot",
        config: { greeting: "Hi", retention: { chat_days: 30 } },
        createdAt: T0,
        updatedAt: T0,
      });
      await store.tenants.insertChatbot({
        id: "bot_2",
        tenantId: "ten_2",
        name: "Bot",
        config: {},
        createdAt: T0,
        updatedAt: T0 + 2,
      });
    });
  });

  afterAll(async () => {
    closeLite?.();
    await pgHandle?.close();
  });

  test("chat sessions and messages", async () => {
    await both(async (store) => {
      await store.chatSessions.insertSession(session("ses_01A", "ten_1"));
      await store.chatSessions.insertSession(
        session("ses_01B", "ten_1", { status: "handoff", handoffReason: "asked", messageCount: 3 }),
      );
      await store.chatSessions.insertSession(session("ses_01C", "ten_1", { status: "closed", closedAt: T0 + 9 }));
      await store.chatSessions.insertSession(
        session("ses_01D", "ten_1", {
          channel: "whatsapp",
          visitorRef: "+31622222222",
          state: '{"note":"Bob@Mail.example"}',
        }),
      );
      await store.chatSessions.insertSession(
        session("ses_01E", "ten_1", { channel: "whatsapp", visitorRef: "+31622222222", updatedAt: T0 + 100 * MIN }),
      );
      await store.chatSessions.insertSession(session("ses_01F", "ten_2", { visitorRef: "+31622222222" }));
    });
    const found = await both((store) => store.chatSessions.findSession("ten_1", "ses_01B"));
    expect(found).toEqual(session("ses_01B", "ten_1", { status: "handoff", handoffReason: "asked", messageCount: 3 }));
    expect(await both((store) => store.chatSessions.findSession("ten_2", "ses_01B"))).toBeNull();
    expect(await both((store) => store.chatSessions.findSession("ten_1", "ses_none"))).toBeNull();
    expect(
      (await both((store) => store.chatSessions.findOpenVisitorSession("ten_1", "whatsapp", "+31622222222")))?.id,
    ).toBe("ses_01E");
    expect(await both((store) => store.chatSessions.findOpenVisitorSession("ten_1", "web", "+31622222222"))).toBeNull();

    for (const status of [null, "bot", "handoff", "closed"] as const) {
      for (const beforeId of [null, "ses_01E", "ses_01B", "ses_0"]) {
        for (const limit of [1, 2, 50])
          await both((store) => store.chatSessions.listSessions("ten_1", status, beforeId, limit));
      }
    }
    expect(
      (await both((store) => store.chatSessions.listSessions("ten_1", null, null, 50))).map((row) => row.id),
    ).toEqual(["ses_01E", "ses_01D", "ses_01C", "ses_01B", "ses_01A"]);
    expect(
      (await both((store) => store.chatSessions.listSessions("ten_1", "bot", "ses_01E", 50))).map((row) => row.id),
    ).toEqual(["ses_01D", "ses_01A"]);

    await both(async (store) => {
      await store.chatSessions.updateSessionTurn("ses_01A", {
        status: "handoff",
        state: '{"step":2}',
        messageCount: 4,
        handoffReason: "keyword",
        updatedAt: T0 + 10,
      });
      await store.chatSessions.closeSession("ses_01E", T0 + 200 * MIN);
    });
    await both((store) => store.chatSessions.findSession("ten_1", "ses_01A"));
    // A null status leaves the status as it is (the common turn: SQLite then skips its index).
    await both((store) =>
      store.chatSessions.updateSessionTurn("ses_01A", {
        status: null,
        state: '{"step":3}',
        messageCount: 5,
        handoffReason: "keyword",
        updatedAt: T0 + 11,
      }),
    );
    expect(await both((store) => store.chatSessions.findSession("ten_1", "ses_01A"))).toMatchObject({
      status: "handoff",
      state: '{"step":3}',
      messageCount: 5,
      updatedAt: T0 + 11,
    });
    const closed = await both((store) => store.chatSessions.findSession("ten_1", "ses_01E"));
    expect(closed).toMatchObject({ status: "closed", closedAt: T0 + 200 * MIN, updatedAt: T0 + 200 * MIN });
    expect(
      (await both((store) => store.chatSessions.findOpenVisitorSession("ten_1", "whatsapp", "+31622222222")))?.id,
    ).toBe("ses_01D");

    await both(async (store) => {
      await store.chatSessions.insertMessage(message("msg_01", "ses_01A", "Hello there"));
      await store.chatSessions.insertMessage(
        message("msg_02", "ses_01A", "Hi! How can I help?", {
          role: "bot",
          quickReplies: ["Prices", "Book"],
          confidence: 0.5,
          createdAt: T0 + 2,
        }),
      );
      await store.chatSessions.insertMessage(
        message("msg_03", "ses_01A", "Mail me at Carol@Example.org", { createdAt: T0 + 3 }),
      );
      await store.chatSessions.insertMessage(
        message("msg_04", "ses_01A", "Sure", {
          role: "operator",
          authorId: "usr_1",
          authorName: "Ana Lima",
          quickReplies: [],
          createdAt: T0 + 4,
        }),
      );
      await store.chatSessions.insertMessage(
        message("msg_05", "ses_01B", "Ünïcödé text ✓ here", { createdAt: T0 + 5 }),
      );
      await store.chatSessions.insertMessage(message("msg_06", "ses_01F", "other tenant", { tenantId: "ten_2" }));
    });
    expect(await both((store) => store.chatSessions.listRecentMessages("ses_01A", 2))).toEqual([
      { role: "visitor", text: "Mail me at Carol@Example.org" },
      { role: "operator", text: "Sure" },
    ]);
    await both((store) => store.chatSessions.listRecentMessages("ses_01A", 10));
    await both((store) => store.chatSessions.listRecentMessages("ses_none", 10));
    const transcript = await both((store) => store.chatSessions.listMessagesAfter("ses_01A", ""));
    expect(transcript.map((row) => row.quickReplies)).toEqual([null, ["Prices", "Book"], null, []]);
    expect(transcript[1]).toEqual(
      message("msg_02", "ses_01A", "Hi! How can I help?", {
        role: "bot",
        quickReplies: ["Prices", "Book"],
        confidence: 0.5,
        createdAt: T0 + 2,
      }),
    );
    expect(
      (await both((store) => store.chatSessions.listMessagesAfter("ses_01A", "msg_02"))).map((row) => row.id),
    ).toEqual(["msg_03", "msg_04"]);

    expect(await both((store) => store.chatSessions.listNewestMessages("ten_1", [], 10))).toEqual([]);
    const byId = <T extends { sessionId: string }>(rows: T[]) =>
      [...rows].sort((a, b) => (a.sessionId < b.sessionId ? -1 : 1));
    const newestLite = byId(
      await lite.chatSessions.listNewestMessages("ten_1", ["ses_01A", "ses_01B", "ses_01C", "ses_01F", "ses_none"], 4),
    );
    const newestPg = byId(
      await pg.chatSessions.listNewestMessages("ten_1", ["ses_01A", "ses_01B", "ses_01C", "ses_01F", "ses_none"], 4),
    );
    expect(newestPg).toEqual(newestLite);
    expect(newestPg).toEqual([
      { sessionId: "ses_01A", role: "operator", text: "Sure", authorName: "Ana Lima", createdAt: T0 + 4 },
      { sessionId: "ses_01B", role: "visitor", text: "Ünïc", authorName: null, createdAt: T0 + 5 },
    ]);
    await both((store) => store.chatSessions.listNewestMessages("ten_1", ["ses_01A"], 0));
  });

  test("usage counters", async () => {
    expect(await both((store) => store.usage.findUsage("ten_1", "2024-01"))).toBeNull();
    expect(await both((store) => store.usage.incrementMessages("ten_1", "2024-01"))).toEqual({
      messages: 1,
      thresholdNotifiedAt: null,
    });
    await both((store) => store.usage.incrementMessages("ten_1", "2024-01"));
    await both((store) => store.usage.markThresholdNotified("ten_1", "2024-01", T0 + 7));
    expect(await both((store) => store.usage.incrementMessages("ten_1", "2024-01"))).toEqual({
      messages: 3,
      thresholdNotifiedAt: T0 + 7,
    });
    await both((store) => store.usage.markThresholdNotified("ten_1", "1999-01", T0));
    await both(async (store) => {
      await store.usage.addAiUsage("ten_1", "2024-01", { calls: 1, promptTokens: 1200, completionTokens: 80 });
      await store.usage.addAiUsage("ten_1", "2024-01", { calls: 2, promptTokens: 3_000_000_000, completionTokens: 5 });
      await store.usage.addAiUsage("ten_1", "2024-02", { calls: 1, promptTokens: 10, completionTokens: 20 });
      await store.usage.countVisitorRefusal("ten_1", "2024-01");
      await store.usage.countVisitorRefusal("ten_1", "2024-03");
    });
    expect(await both((store) => store.usage.findUsage("ten_1", "2024-01"))).toEqual({
      tenantId: "ten_1",
      period: "2024-01",
      messages: 3,
      thresholdNotifiedAt: T0 + 7,
      aiCalls: 3,
      aiPromptTokens: 3_000_001_200,
      aiCompletionTokens: 85,
      visitorRefused: 1,
    });
    await both((store) => store.usage.findUsage("ten_1", "2024-02"));
    await both((store) => store.usage.findUsage("ten_1", "2024-03"));
    await both((store) => store.usage.incrementMessages("ten_1", "2024-03"));

    // A reservation counts only a message clear of the lines: within the quota (3 here), and
    // not the first to reach 80 % while that is not notified yet; otherwise nothing changes.
    const reserve = (store: Store, period: string, quota: number | null) =>
      store.usage
        .reserveMessage("ten_1", period, { quota, thresholdPercent: 80 }, null)
        .then(({ reserved, messages }) => ({ reserved, messages }));
    expect(await both((store) => reserve(store, "2024-04", 5))).toEqual({ reserved: true, messages: null });
    expect(await both((store) => reserve(store, "2024-04", 5))).toEqual({ reserved: true, messages: null });
    expect(await both((store) => reserve(store, "2024-04", 5))).toEqual({ reserved: true, messages: null });
    expect(await both((store) => reserve(store, "2024-04", 5))).toEqual({ reserved: false, messages: 3 });
    await both((store) => store.usage.markThresholdNotified("ten_1", "2024-04", T0 + 8));
    expect(await both((store) => reserve(store, "2024-04", 5))).toEqual({ reserved: true, messages: null });
    expect(await both((store) => reserve(store, "2024-04", 5))).toEqual({ reserved: true, messages: null });
    expect(await both((store) => reserve(store, "2024-04", 5))).toEqual({ reserved: false, messages: 5 });
    expect(await both((store) => reserve(store, "2024-04", null))).toEqual({ reserved: true, messages: null });
    // An unlimited plan: SQLite counts the message, PostgreSQL a block of them held by the instance.
    expect((await lite.usage.findUsage("ten_1", "2024-04"))?.messages).toBe(6);
    expect((await pg.usage.findUsage("ten_1", "2024-04"))?.messages).toBe(5 + MESSAGE_BLOCK);
    // A quota of 1: its first message is the one that reaches 80 %.
    expect(await both((store) => reserve(store, "2024-06", 1))).toEqual({ reserved: false, messages: 0 });
    expect(await both((store) => store.usage.findUsage("ten_1", "2024-06"))).toBeNull();
    // The lookup version comes with it, as findLookupVersion reads it.
    for (const store of [lite, pg])
      expect(
        (await store.usage.reserveMessage("ten_1", "2024-08", { quota: null, thresholdPercent: 80 }, null))
          .lookupVersion,
      ).toBe(await store.tenants.findLookupVersion());
    // And the tenant's session asked for: another tenant's is null.
    const withSession = (store: Store, tenantId: string) =>
      store.usage
        .reserveMessage(tenantId, "2024-09", { quota: null, thresholdPercent: 80 }, "ses_01B")
        .then((reserved) => reserved.session);
    expect(await both((store) => withSession(store, "ten_1"))).toEqual(
      session("ses_01B", "ten_1", { status: "handoff", handoffReason: "asked", messageCount: 3 }),
    );
    expect(await both((store) => withSession(store, "ten_2"))).toBeNull();
    // Inside a transaction that rolls back, the reservation is taken back (on PostgreSQL it had committed on its own).
    for (const store of [lite, pg]) {
      const failed = store.transaction(async (tx) => {
        await tx.usage.reserveMessage("ten_1", "2024-04", { quota: null, thresholdPercent: 80 }, null);
        throw new Error("the turn fails");
      });
      await expect(failed).rejects.toThrow("the turn fails");
      // PostgreSQL gave the block's rest back when the tenant moved on to 2024-08, then took a new
      // block here: the rollback leaves it held by the instance, and the next message takes it.
      expect((await store.usage.findUsage("ten_1", "2024-04"))?.messages).toBe(store === lite ? 6 : 6 + MESSAGE_BLOCK);
    }
    for (const store of [lite, pg]) {
      await store.transaction((tx) =>
        tx.usage.reserveMessage("ten_1", "2024-04", { quota: null, thresholdPercent: 80 }, null),
      );
      expect((await store.usage.findUsage("ten_1", "2024-04"))?.messages).toBe(store === lite ? 7 : 6 + MESSAGE_BLOCK);
    }

    // Several instances counting at once: every increment is counted once.
    const results = await Promise.all(Array.from({ length: 20 }, () => pg.usage.incrementMessages("ten_2", "2024-05")));
    expect(results.map((row) => row.messages).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    expect((await pg.usage.findUsage("ten_2", "2024-05"))?.messages).toBe(20);
  });

  test("captures: leads and appointments", async () => {
    await both(async (store) => {
      await store.captures.insertLead(lead("led_01", "ses_01A"));
      await store.captures.insertLead(
        lead("led_02", "ses_01B", { phone: "+31633333333", email: "bob@mail.example", name: "Bob" }),
      );
      await store.captures.insertLead(lead("led_03", "ses_01F", { tenantId: "ten_2", chatbotId: "bot_2" }));
      expect(await store.captures.insertAppointment(appointment("apt_01", "ses_01A", T0 + 60 * MIN))).toBe(true);
      await store.captures.insertAppointment(
        appointment("apt_02", "ses_01B", T0 + 120 * MIN, { name: null, phone: "+31633333333", email: null }),
      );
      await store.captures.insertAppointment(
        appointment("apt_03", "ses_01F", T0 + 60 * MIN, { tenantId: "ten_2", chatbotId: "bot_2" }),
      );
    });
    // A taken slot writes nothing and says so.
    expect(
      await both((store) => store.captures.insertAppointment(appointment("apt_04", "ses_01A", T0 + 60 * MIN))),
    ).toBe(false);

    // A taken slot inside a transaction: the caller may go on, and what it did commits.
    expect(
      await both((store) =>
        store.transaction(async (tx) => {
          const booked = await tx.captures.insertAppointment(appointment("apt_05", "ses_01A", T0 + 120 * MIN));
          await tx.captures.insertLead(
            lead("led_04", "ses_01C", { phone: "+31644444444", email: "dan@example.net", capturedAt: T0 + 8 }),
          );
          return booked;
        }),
      ),
    ).toBe(false);
    expect(
      await both((store) =>
        store.captures.listAppointments("ten_1", null, 10).then((rows) => rows.map((row) => row.id)),
      ),
    ).toEqual(["apt_02", "apt_01"]);

    await both((store) =>
      store.captures.updateSessionLead("ten_1", "ses_01B", {
        name: "Robert",
        phone: "+31655555555",
        email: "robert@mail.example",
      }),
    );
    await both((store) =>
      store.captures.updateSessionLead("ten_2", "ses_01A", { name: "Nobody", phone: "", email: "" }),
    );
    for (const beforeId of [null, "led_04", "led_02", "led_0"]) {
      for (const limit of [1, 10]) {
        await both((store) => store.captures.listLeads("ten_1", beforeId, limit));
        await both((store) =>
          store.captures.listAppointments("ten_1", beforeId === null ? null : beforeId.replace("led", "apt"), limit),
        );
      }
    }
    expect(
      (await both((store) => store.captures.listLeads("ten_1", null, 10))).map((row) => [row.id, row.name]),
    ).toEqual([
      ["led_04", "Ana"],
      ["led_02", "Robert"],
      ["led_01", "Ana"],
    ]);
    expect(await both((store) => store.captures.listAppointmentStarts("ten_1", T0 + 60 * MIN, T0 + 120 * MIN))).toEqual(
      [T0 + 60 * MIN, T0 + 120 * MIN],
    );
    await both((store) => store.captures.listAppointmentStarts("ten_1", T0 + 60 * MIN + 1, T0 + 120 * MIN));
    await both((store) => store.captures.listAppointmentStarts("ten_1", 0, T0));
  });

  test("bot configs", async () => {
    expect(await both((store) => store.botConfigs.findBotConfigVersion("ten_2"))).toEqual({
      chatbotId: "bot_2",
      updatedAt: T0 + 2,
      tenantUpdatedAt: T0 + 1,
    });
    expect(await both((store) => store.botConfigs.findBotConfigVersion("ten_3"))).toBeNull();
    expect(await both((store) => store.botConfigs.findBotConfigDocument("bot_1"))).toEqual({
      config: { greeting: "Hi", retention: { chat_days: 30 } },
      sector: "salon",
      allowedOrigins: ["https://a.example"],
    });
    expect(await both((store) => store.botConfigs.findBotConfigDocument("bot_none"))).toBeNull();
    const config = {
      zeta: 1,
      alpha: { nested: [1, "two", null, true] },
      retention: { analytics_days: 7 },
      greeting: "Hallo ✓",
    };
    expect(await both((store) => store.botConfigs.updateBotConfig("ten_2", config, "Renamed", T0 + 20))).toBe("bot_2");
    expect(await both((store) => store.botConfigs.updateBotConfig("ten_3", {}, "None", T0 + 20))).toBeNull();
    await both((store) =>
      store.botConfigs.updateTenantProfile("ten_2", {
        allowedOrigins: ["https://b.example", "https://c.example"],
        sector: "dental",
        updatedAt: T0 + 21,
      }),
    );
    const document = await both((store) => store.botConfigs.findBotConfigDocument("bot_2"));
    expect(Object.keys(document?.config ?? {})).toEqual(["zeta", "alpha", "retention", "greeting"]);
    expect(document).toEqual({ config, sector: "dental", allowedOrigins: ["https://b.example", "https://c.example"] });
    expect(await both((store) => store.botConfigs.findBotConfigVersion("ten_2"))).toEqual({
      chatbotId: "bot_2",
      updatedAt: T0 + 20,
      tenantUpdatedAt: T0 + 21,
    });
  });

  test("knowledge", async () => {
    await both(async (store) => {
      await store.knowledge.insertDocument({
        id: "doc_01",
        tenantId: "ten_1",
        title: "Prices",
        format: "markdown",
        sourceUrl: null,
        content: "# Prices\ncut 20",
        bytes: 15,
        chunkCount: 2,
        createdAt: T0,
        ...UNSOURCED,
      });
      await store.knowledge.insertDocument({
        id: "doc_02",
        tenantId: "ten_1",
        title: "Hours",
        format: "text",
        sourceUrl: "https://a.example/hours",
        content: "9-5",
        bytes: 3,
        chunkCount: 1,
        createdAt: T0 + 1,
        ...UNSOURCED,
      });
      await store.knowledge.insertDocument({
        id: "doc_03",
        tenantId: "ten_2",
        title: "Other",
        format: "text",
        sourceUrl: null,
        content: "x",
        bytes: 1,
        chunkCount: 1,
        createdAt: T0,
        ...UNSOURCED,
      });
      await store.knowledge.insertChunks([
        {
          tenantId: "ten_1",
          documentId: "doc_01",
          position: 1,
          heading: "Prices",
          text: "cut 20",
          embedding: null,
          embeddingModel: null,
        },
        {
          tenantId: "ten_1",
          documentId: "doc_01",
          position: 0,
          heading: "Prices",
          text: "intro",
          embedding: Buffer.from([1, 2, 3, 4]),
          embeddingModel: "m1",
        },
      ]);
      await store.knowledge.insertChunks([]);
      await store.knowledge.insertChunks([
        {
          tenantId: "ten_1",
          documentId: "doc_02",
          position: 0,
          heading: "",
          text: "9-5",
          embedding: Buffer.alloc(0),
          embeddingModel: "m1",
        },
      ]);
      await store.knowledge.insertChunks([
        {
          tenantId: "ten_2",
          documentId: "doc_03",
          position: 0,
          heading: "",
          text: "x",
          embedding: null,
          embeddingModel: null,
        },
      ]);
    });
    for (const beforeId of [null, "doc_02", "doc_01"]) {
      for (const limit of [1, 10]) await both((store) => store.knowledge.listDocuments("ten_1", beforeId, limit));
    }
    expect(
      (await both((store) => store.knowledge.listDocuments("ten_1", null, 10))).map((row) => [row.id, row.content]),
    ).toEqual([
      ["doc_02", ""],
      ["doc_01", ""],
    ]);
    expect((await both((store) => store.knowledge.findDocument("ten_1", "doc_01")))?.content).toBe("# Prices\ncut 20");
    expect(await both((store) => store.knowledge.findDocument("ten_2", "doc_01"))).toBeNull();
    expect((await both((store) => store.knowledge.listDocumentChunks("doc_01"))).map((row) => row.text)).toEqual([
      "intro",
      "cut 20",
    ]);
    expect(await both((store) => store.knowledge.findKnowledgeUsage("ten_1"))).toEqual({
      plan: "pro",
      documents: 2,
      bytes: 18,
    });
    expect(await both((store) => store.knowledge.findKnowledgeUsage("ten_3"))).toEqual({
      plan: "free",
      documents: 0,
      bytes: 0,
    });
    expect(await both((store) => store.knowledge.findKnowledgeUsage("ten_none"))).toBeNull();
    expect(await both((store) => store.knowledge.findChunkSignature("ten_1"))).toEqual({ count: 3, maxId: 3 });
    expect(await both((store) => store.knowledge.findChunkSignature("ten_3"))).toEqual({ count: 0, maxId: 0 });
    const indexed = await both((store) => store.knowledge.listIndexedChunks("ten_1"));
    expect(indexed.map((row) => [row.id, row.position, row.embedding === null ? null : [...row.embedding]])).toEqual([
      [1, 1, null],
      [2, 0, [1, 2, 3, 4]],
      [3, 0, []],
    ]);
    expect(Buffer.isBuffer((await pg.knowledge.listIndexedChunks("ten_1"))[1]?.embedding)).toBe(true);
    await both((store) => store.knowledge.storeChunkVectors([]));
    await both((store) =>
      store.knowledge.storeChunkVectors([
        { id: 1, embedding: Buffer.from([9, 8]), model: "m2" },
        { id: 2, embedding: Buffer.from([7]), model: "m2" },
      ]),
    );
    await both((store) => store.knowledge.listIndexedChunks("ten_1"));
    await both((store) => store.knowledge.listIndexedChunks("ten_2"));
    expect(await both((store) => store.knowledge.deleteDocument("ten_2", "doc_01"))).toBe(false);
    expect(await both((store) => store.knowledge.deleteDocument("ten_1", "doc_01"))).toBe(true);
    expect(await both((store) => store.knowledge.deleteDocument("ten_1", "doc_01"))).toBe(false);
    expect(await both((store) => store.knowledge.findChunkSignature("ten_1"))).toEqual({ count: 1, maxId: 3 });
    await both((store) => store.knowledge.listDocumentChunks("doc_01"));
    await both((store) => store.knowledge.listIndexedChunks("ten_1"));

    // Many chunks: several statements (1000 rows each) in one transaction, ids in the given order.
    const many = Array.from({ length: 2100 }, (_, index) => ({
      tenantId: "ten_3",
      documentId: "doc_04",
      position: index,
      heading: "",
      text: `t${index}`,
      embedding: index % 2 === 0 ? Buffer.from([index % 256]) : null,
      embeddingModel: "m",
    }));
    await both(async (store) => {
      await store.knowledge.insertDocument({
        id: "doc_04",
        tenantId: "ten_3",
        title: "Big",
        format: "text",
        sourceUrl: null,
        content: "",
        bytes: 0,
        chunkCount: many.length,
        createdAt: T0,
        ...UNSOURCED,
      });
      await store.knowledge.insertChunks(many);
      await store.knowledge.storeChunkVectors(
        Array.from({ length: 1500 }, (_, index) => ({
          id: 5 + index,
          embedding: Buffer.from([1, index % 256]),
          model: "v",
        })),
      );
    });
    const big = await both((store) => store.knowledge.listIndexedChunks("ten_3"));
    expect(big.map((row) => row.position)).toEqual(many.map((row) => row.position));
    expect(await both((store) => store.knowledge.findChunkSignature("ten_3"))).toEqual({
      count: 2100,
      maxId: 4 + 2100,
    });
  });

  test("privacy: finders, deletes and retention", async () => {
    await both(async (store) => {
      await store.webhookRules.insertRule({
        id: "rul_01",
        tenantId: "ten_1",
        name: "r",
        event: "lead.created",
        url: "https://hook.example/x",
        secret: "s",
        minConfidence: null,
        active: true,
        createdAt: T0,
        updatedAt: T0,
      });
      await store.transaction(async (tx) => {
        await tx.outbox.insertEvent({
          id: "evt_01",
          tenantId: "ten_1",
          event: "lead.created",
          data: '{"email":"Carol@Example.org","phone":"+31611111111"}',
          confidence: 0.9,
          occurredAt: T0,
        });
        await tx.outbox.insertEvent({
          id: "evt_02",
          tenantId: "ten_1",
          event: "lead.created",
          data: '{"email":"someone@else.example"}',
          confidence: null,
          occurredAt: T0 + 1,
        });
        await tx.outbox.insertEvent({
          id: "evt_03",
          tenantId: "ten_2",
          event: "lead.created",
          data: '{"email":"carol@example.org"}',
          confidence: null,
          occurredAt: T0,
        });
        await tx.outbox.insertPendingDelivery({
          id: "dlv_01",
          tenantId: "ten_1",
          eventId: "evt_01",
          ruleId: "rul_01",
          event: "lead.created",
          url: "https://hook.example/x",
          now: T0 + 3,
        });
        await tx.outbox.insertPendingDelivery({
          id: "dlv_02",
          tenantId: "ten_1",
          eventId: "evt_02",
          ruleId: "rul_01",
          event: "lead.created",
          url: "https://hook.example/x",
          now: T0 + 4,
        });
      });
      await store.analytics.insertAnalyticsEvents([
        { tenantId: "ten_1", sessionId: "ses_01A", name: "chat_opened", day: "2023-11-14", occurredAt: T0 },
        { tenantId: "ten_1", sessionId: "ses_01B", name: "chat_opened", day: "2023-11-14", occurredAt: T0 + 1 },
        { tenantId: "ten_1", sessionId: null, name: "widget_loaded", day: "2023-11-14", occurredAt: T0 + 2 },
        { tenantId: "ten_2", sessionId: "ses_01A", name: "chat_opened", day: "2023-11-14", occurredAt: T0 + 3 },
      ]);
    });
    const privacy = (store: Store) => store.privacy;
    for (const by of ["id", "sessionId", "phone"] as const) {
      for (const values of [
        [],
        ["led_01", "led_03", "ses_01A", "ses_01B", "+31611111111", "+31644444444"],
        ["nothing"],
      ]) {
        await both((store) => privacy(store).findLeads("ten_1", by, values));
      }
    }
    expect(
      (await both((store) => privacy(store).findLeads("ten_1", "phone", ["+31611111111", "+31644444444"]))).map(
        (row) => row.id,
      ),
    ).toEqual(["led_01", "led_04"]);
    for (const by of ["sessionId", "phone"] as const) {
      for (const values of [[], ["ses_01A", "ses_01B", "ses_01F", "+31611111111", "+31633333333"]])
        await both((store) => privacy(store).findAppointments("ten_1", by, values));
    }
    expect(await both((store) => privacy(store).findLeadsByEmail("ten_1", []))).toEqual([]);
    expect(
      (await both((store) => privacy(store).findLeadsByEmail("ten_1", ["ana@example.com", "robert@mail.example"]))).map(
        (row) => row.id,
      ),
    ).toEqual(["led_01", "led_02"]);
    expect(
      (await both((store) => privacy(store).findAppointmentsByEmail("ten_1", ["ana@example.com"]))).map(
        (row) => row.id,
      ),
    ).toEqual(["apt_01"]);
    await both((store) => privacy(store).findAppointmentsByEmail("ten_1", []));
    for (const by of ["id", "visitorRef"] as const) {
      for (const values of [[], ["ses_01A", "ses_01F", "+31622222222"]])
        await both((store) => privacy(store).findSessions("ten_1", by, values));
    }
    expect(
      (await both((store) => privacy(store).findSessions("ten_1", "visitorRef", ["+31622222222"]))).map(
        (row) => row.id,
      ),
    ).toEqual(["ses_01D", "ses_01E"]);
    expect(await both((store) => privacy(store).findSessionsMentioning("ten_1", []))).toEqual([]);
    expect(
      (
        await both((store) => privacy(store).findSessionsMentioning("ten_1", ["CAROL@example.org", "bob@mail.example"]))
      ).map((row) => row.id),
    ).toEqual(["ses_01A", "ses_01D"]);
    await both((store) => privacy(store).findSessionsMentioning("ten_2", ["carol@example.org"]));
    await both((store) => privacy(store).findSessionsMentioning("ten_1", ["ünïcödé"]));
    expect(await both((store) => privacy(store).listMessagesOfSessions([]))).toEqual([]);
    expect(
      (await both((store) => privacy(store).listMessagesOfSessions(["ses_01B", "ses_01A", "ses_none"]))).map(
        (row) => row.id,
      ),
    ).toEqual(["msg_01", "msg_02", "msg_03", "msg_04", "msg_05"]);
    expect(await both((store) => privacy(store).findEventsMentioning("ten_1", []))).toEqual([]);
    expect(
      (
        await both((store) =>
          privacy(store).findEventsMentioning("ten_1", ["carol@example.org", "CAROL@EXAMPLE.ORG", "+31611111111"]),
        )
      ).map((row) => row.id),
    ).toEqual(["evt_01"]);
    await both((store) => privacy(store).findEventsMentioning("ten_1", ["@"]));
    expect(await both((store) => privacy(store).listDeliveriesOfEvents([]))).toEqual([]);
    expect(await both((store) => privacy(store).listDeliveriesOfEvents(["evt_02", "evt_01", "evt_03"]))).toEqual([
      {
        id: "dlv_01",
        eventId: "evt_01",
        ruleId: "rul_01",
        url: "https://hook.example/x",
        status: "pending",
        attempts: 0,
        createdAt: T0 + 3,
        completedAt: null,
      },
      {
        id: "dlv_02",
        eventId: "evt_02",
        ruleId: "rul_01",
        url: "https://hook.example/x",
        status: "pending",
        attempts: 0,
        createdAt: T0 + 4,
        completedAt: null,
      },
    ]);
    expect(await both((store) => privacy(store).listAnalyticsOfSessions("ten_1", []))).toEqual([]);
    expect(await both((store) => privacy(store).listAnalyticsOfSessions("ten_1", ["ses_01A", "ses_01B"]))).toEqual([
      { id: 1, sessionId: "ses_01A", name: "chat_opened", occurredAt: T0 },
      { id: 2, sessionId: "ses_01B", name: "chat_opened", occurredAt: T0 + 1 },
    ]);

    // Retention settings: bot_1 sets chat_days (insertChatbot), bot_2 analytics_days (updateBotConfig).
    const retention = await both((store) => privacy(store).listTenantRetention());
    expect(retention).toEqual([
      { tenantId: "ten_1", chatDays: 30, analyticsDays: null },
      { tenantId: "ten_2", chatDays: null, analyticsDays: 7 },
    ]);
    await both((store) =>
      store.botConfigs.updateBotConfig(
        "ten_2",
        { retention: { chat_days: 1.5, analytics_days: null } },
        "Bot",
        T0 + 30,
      ),
    );
    await both((store) => privacy(store).listTenantRetention());
    await both((store) =>
      store.botConfigs.updateBotConfig("ten_2", { retention: { analytics_days: null } }, "Bot", T0 + 31),
    );
    expect(await both((store) => privacy(store).listTenantRetention())).toEqual([
      { tenantId: "ten_1", chatDays: 30, analyticsDays: null },
    ]);

    // Deletes: deliveries go with their events, messages with their sessions.
    await both(async (store) => {
      await privacy(store).deleteRows("events", []);
      await privacy(store).deleteRows("events", ["evt_01", "evt_none"]);
      await privacy(store).deleteRows("analyticsEvents", [1, 3]);
      await privacy(store).deleteRows("appointments", ["apt_01"]);
      await privacy(store).deleteRows("leads", ["led_01", "led_03"]);
      await privacy(store).deleteRows("chatSessions", ["ses_01A"]);
    });
    expect(
      (await both((store) => privacy(store).listDeliveriesOfEvents(["evt_01", "evt_02"]))).map((row) => row.id),
    ).toEqual(["dlv_02"]);
    expect((await both((store) => privacy(store).findEventsMentioning("ten_1", ["@"]))).map((row) => row.id)).toEqual([
      "evt_02",
    ]);
    expect(
      (await both((store) => privacy(store).listAnalyticsOfSessions("ten_1", ["ses_01A", "ses_01B"]))).map(
        (row) => row.id,
      ),
    ).toEqual([2]);
    await both((store) => privacy(store).listAnalyticsOfSessions("ten_2", ["ses_01A"]));
    expect((await both((store) => store.captures.listAppointments("ten_1", null, 10))).map((row) => row.id)).toEqual([
      "apt_02",
    ]);
    expect((await both((store) => store.captures.listLeads("ten_1", null, 10))).map((row) => row.id)).toEqual([
      "led_04",
      "led_02",
    ]);
    expect(await both((store) => store.captures.listLeads("ten_2", null, 10))).toEqual([]);
    expect(await both((store) => store.chatSessions.findSession("ten_1", "ses_01A"))).toBeNull();
    expect(await both((store) => privacy(store).listMessagesOfSessions(["ses_01A"]))).toEqual([]);

    // Inactive sessions: created before the id bound and idle since the cutoff, at most `limit`.
    expect(await both((store) => privacy(store).purgeInactiveSessions("ten_1", "ses_01D", T0 + 10, 10))).toBe(2);
    expect(await both((store) => privacy(store).purgeInactiveSessions("ten_1", "ses_01F", T0 + 100 * MIN, 10))).toBe(1);
    expect(await both((store) => privacy(store).purgeInactiveSessions("ten_1", "ses_02", T0 + 300 * MIN, 10))).toBe(1);
    expect(await both((store) => store.chatSessions.listSessions("ten_1", null, null, 10))).toEqual([]);
    expect(await both((store) => store.chatSessions.listSessions("ten_2", null, null, 10))).toHaveLength(1);
    await both(async (store) => {
      for (const id of ["ses_09A", "ses_09B", "ses_09C"]) await store.chatSessions.insertSession(session(id, "ten_1"));
    });
    expect(await both((store) => privacy(store).purgeInactiveSessions("ten_1", "ses_10", T0, 2))).toBe(2);
    expect(await both((store) => privacy(store).purgeInactiveSessions("ten_1", "ses_10", T0, 2))).toBe(1);
    expect(await both((store) => privacy(store).purgeInactiveSessions("ten_1", "ses_10", T0, 2))).toBe(0);

    expect(await both((store) => store.maintenance.checkpoint())).toBeUndefined();
  });
  test("a turn's end in one operation (finishTurn): its messages and the session's turn", async () => {
    await both((store) => store.chatSessions.insertSession(session("ses_01T", "ten_1")));
    const turn = (messages: ChatMessageRow[], update: Partial<SessionTurnUpdate>) => ({
      messages,
      sessionId: "ses_01T",
      update: { status: null, state: "{}", messageCount: 0, handoffReason: null, updatedAt: T0, ...update },
    });
    const hello = message("msg_T1", "ses_01T", "Hello");
    const hi = message("msg_T2", "ses_01T", "Hi! Book or prices?", {
      role: "bot",
      quickReplies: ["Book", "Prices"],
      confidence: 0.75,
      createdAt: T0 + 2,
    });
    const person = message("msg_T3", "ses_01T", "A person, please", { quickReplies: [], createdAt: T0 + 3 });
    await both((store) =>
      store.chatSessions.finishTurn(turn([hello, hi], { state: '{"turns":1}', messageCount: 1, updatedAt: T0 + 2 })),
    );
    await both((store) =>
      store.chatSessions.finishTurn(
        turn([person], {
          status: "handoff",
          state: '{"turns":2}',
          messageCount: 2,
          handoffReason: "asked",
          updatedAt: T0 + 3,
        }),
      ),
    );
    expect(await both((store) => store.chatSessions.listMessagesAfter("ses_01T", ""))).toEqual([hello, hi, person]);
    expect(await both((store) => store.chatSessions.findSession("ten_1", "ses_01T"))).toEqual(
      session("ses_01T", "ten_1", {
        status: "handoff",
        state: '{"turns":2}',
        messageCount: 2,
        handoffReason: "asked",
        updatedAt: T0 + 3,
      }),
    );
    // A turn that fails (here a message id taken already) leaves nothing behind in either store.
    for (const store of [lite, pg]) {
      await expect(
        store.transaction((tx) =>
          tx.chatSessions.finishTurn(
            turn([message("msg_T9", "ses_01T", "new"), message("msg_T1", "ses_01T", "again")], { messageCount: 3 }),
          ),
        ),
      ).rejects.toThrow();
      expect(await store.chatSessions.findSession("ten_1", "ses_01T")).toMatchObject({
        messageCount: 2,
        status: "handoff",
      });
      expect((await store.chatSessions.listMessagesAfter("ses_01T", "")).map((row) => row.id)).toEqual([
        "msg_T1",
        "msg_T2",
        "msg_T3",
      ]);
    }
  });
});
