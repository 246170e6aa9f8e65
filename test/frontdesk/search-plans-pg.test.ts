import { describe, expect, test } from "bun:test";
import type { ChatMessageRow } from "../../src/db/rows.ts";
import { searchSql } from "../../src/db/sql/inbox.ts";
import { POSTGRES } from "../../src/db/postgres/statements.ts";
import { queueForSearch, SEARCH_WALK } from "../../src/db/postgres/inbox.ts";
import { buildDeps, closeDeps, seedTenant, testSql } from "../helpers.ts";
import { testPostgresUrl } from "../pg/test-store.ts";
import { startSession } from "../../src/chat/sessions.ts";
import { catchUpSearchIndex } from "../../src/frontdesk/search-index.ts";
import { fullTextQuery } from "../../src/frontdesk/search-chats.ts";

// The search's plans and index on PostgreSQL (PARLEY_TEST_DB): the GIN indexes serve the sort of
// every match, the newest-first walk reads by index and stops early, and messages reach the index
// through the queue (filled by the statements that write them) and the catch-up.

describe.skipIf(!testPostgresUrl())("search query plans on PostgreSQL (PARLEY_TEST_DB)", () => {
  test("EXPLAIN shows the GIN indexes on the messages' terms and on leads serving the search", async () => {
    const deps = buildDeps();
    try {
      const sql = await testSql(deps);
      const { tenant } = await seedTenant(deps, "Plans");
      const session = await startSession(deps, deps.store, { tenantId: tenant.id, channel: "widget" });
      await sql.run(
        `INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at)
         SELECT 'msg_' || lpad(n::text, 26, '0'), $1, $2, 'visitor', 'filler words number ' || n, n FROM generate_series(1, 100000) AS n`,
        session.id,
        tenant.id,
      );
      await sql.run(
        `INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at)
         SELECT 'lead_' || lpad(n::text, 26, '0'), $1, 'bot_x', $2, 'Person ' || n, '+44' || n, 'p' || n || '@x.test', '', 'widget', 1, n FROM generate_series(1, 5000) AS n`,
        tenant.id,
        session.id,
      );
      await sql.run(queueForSearch("chat_messages")); // as the store's own writes queue theirs
      expect(await catchUpSearchIndex(deps)).toBe(100_000); // below ~100k rows a scan of the narrow terms table is the cheaper plan
      await sql.run("ANALYZE chat_message_terms");
      await sql.run("ANALYZE leads");
      const plan = (
        await sql.all<{ "QUERY PLAN": string }>(
          `EXPLAIN ${searchSql(POSTGRES, { before: true })}`,
          tenant.id,
          fullTextQuery("postgres", tenant.id, ["zebra"]),
          "ses_zzz",
          20,
        )
      )
        .map((row) => row["QUERY PLAN"])
        .join("\n");
      expect(plan).toContain("chat_message_terms_idx");
      expect(plan).toContain("leads_search_idx");
      expect(plan).not.toMatch(/Seq Scan on (chat_message_terms|chat_messages|leads)/);
    } finally {
      closeDeps(deps);
    }
  }, 120_000);

  test("EXPLAIN of the newest-first walk: the tenant's sessions by index, each one's messages and lead by session, no hash of all matches", async () => {
    const deps = buildDeps();
    try {
      const sql = await testSql(deps);
      const { tenant } = await seedTenant(deps, "Walk");
      const chatbotId = (await sql.get<{ id: string }>("SELECT id FROM chatbots WHERE tenant_id = ?", tenant.id))?.id;
      await sql.run(
        `INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, message_count, created_at, updated_at)
         SELECT 'ses_' || lpad(n::text, 26, '0'), $1, $2, 'widget', 'closed', '{}', 4, n, n FROM generate_series(1, 5000) AS n`,
        tenant.id,
        chatbotId ?? "",
      );
      await sql.run(
        `INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at)
         SELECT 'msg_' || lpad(n::text, 26, '0') || k, 'ses_' || lpad(n::text, 26, '0'), $1, 'visitor', 'opening hours ' || n, n
         FROM generate_series(1, 5000) AS n, generate_series(1, 4) AS k`,
        tenant.id,
      );
      await sql.run(
        `INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at)
         SELECT 'lead_' || lpad(n::text, 26, '0'), $1, $2, 'ses_' || lpad(n::text, 26, '0'), 'Person ' || n, '+44' || n, 'p' || n || '@x.test', '', 'widget', 1, n
         FROM generate_series(1, 5000, 5) AS n`,
        tenant.id,
        chatbotId ?? "",
      );
      await sql.run("ANALYZE");
      const plan = (
        await sql.all<{ "QUERY PLAN": string }>(
          `EXPLAIN ${SEARCH_WALK}`,
          tenant.id,
          fullTextQuery("postgres", tenant.id, ["hours"]),
          "\u{10FFFF}",
          21,
        )
      )
        .map((row) => row["QUERY PLAN"])
        .join("\n");
      expect(plan).toMatch(/Index (Only )?Scan Backward using chat_sessions_(tenant_id_idx|pkey)/);
      expect(plan).toContain("chat_messages_session_idx");
      expect(plan).toContain("leads_session_idx");
      expect(plan).not.toMatch(/Seq Scan|hashed SubPlan|Hash Join|chat_messages_search_idx/);
    } finally {
      closeDeps(deps);
    }
  });

  test("a message is queued by the statement that writes it (a turn's, an operator's) and its terms written by the catch-up; a bot's never; a deleted message takes its terms", async () => {
    const deps = buildDeps();
    try {
      const sql = await testSql(deps);
      const { tenant } = await seedTenant(deps, "Queue");
      const session = await startSession(deps, deps.store, { tenantId: tenant.id, channel: "widget" });
      const message = (id: string, role: ChatMessageRow["role"], text: string): ChatMessageRow => ({
        id,
        sessionId: session.id,
        tenantId: tenant.id,
        role,
        text,
        quickReplies: null,
        confidence: null,
        authorId: null,
        authorName: null,
        createdAt: 1,
      });
      await deps.store.chatSessions.finishTurn({
        messages: [message("msg_q1", "visitor", "a zebra crossing"), message("msg_q2", "bot", "a giraffe reply")],
        sessionId: session.id,
        update: { status: null, state: "{}", messageCount: 2, handoffReason: null, updatedAt: 1 },
      });
      await deps.store.chatSessions.insertMessage(message("msg_q3", "bot", "an okapi reply"));
      const count = async (table: string) =>
        (await sql.get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS n FROM ${table}`))?.n;
      // The sort over the index (the walk reads the text itself): it sees only what the catch-up wrote.
      const sorted = async (word: string) =>
        (
          await sql.all<{ sessionId: string }>(
            searchSql(POSTGRES, { before: true }),
            tenant.id,
            fullTextQuery("postgres", tenant.id, [word]),
            "ses_~",
            10,
          )
        ).map((row) => row.sessionId);
      expect([await count("chat_messages_search_pending"), await count("chat_message_terms")]).toEqual([1, 0]);
      expect(await sorted("zebra")).toEqual([]);
      expect(await catchUpSearchIndex(deps)).toBe(1);
      expect([await count("chat_messages_search_pending"), await count("chat_message_terms")]).toEqual([0, 1]);
      expect(await sorted("zebra")).toEqual([session.id]);
      expect(await sorted("giraffe")).toEqual([]);
      expect(await sorted("okapi")).toEqual([]);
      await deps.store.chatSessions.insertMessage({
        ...message("msg_q4", "operator", "a walrus answer"),
        authorId: "usr_1",
      });
      expect(await catchUpSearchIndex(deps)).toBe(1);
      expect(await sorted("walrus")).toEqual([session.id]);
      await sql.run("DELETE FROM chat_messages WHERE id IN ('msg_q1', 'msg_q4')");
      expect(await count("chat_message_terms")).toBe(0);
    } finally {
      closeDeps(deps);
    }
  });

  test("the indexes hold each tenant's terms behind its key: a search finds only its tenant's matches", async () => {
    const deps = buildDeps();
    try {
      const sql = await testSql(deps);
      const terms = await sql.all<{ terms: string }>(
        "SELECT parley_search_terms('ten_01ab_c', 'Ana López, +44 7700!')::text AS terms",
      );
      // Accents folded as SQLite's FTS5 folds them (search-accents.test.ts).
      expect(terms).toEqual([{ terms: "'01abc44' '01abc7700' '01abcana' '01abclopez'" }]);
      const big = await seedTenant(deps, "Big");
      const small = await seedTenant(deps, "Small");
      let smallSession = "";
      for (const { tenant } of [big, small]) {
        const session = await startSession(deps, deps.store, { tenantId: tenant.id, channel: "widget" });
        if (tenant === small.tenant) smallSession = session.id;
        await sql.run(
          `INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at)
           SELECT 'msg_' || $3 || lpad(n::text, 20, '0'), $1, $2, 'visitor', 'your opening hours ' || n, n FROM generate_series(1, $4::int) AS n`,
          session.id,
          tenant.id,
          tenant.id.slice(-5),
          tenant === big.tenant ? 2000 : 2,
        );
      }
      await sql.run(queueForSearch("chat_messages"));
      await catchUpSearchIndex(deps);
      const found = await deps.store.inbox.searchSessionIds(
        small.tenant.id,
        fullTextQuery("postgres", small.tenant.id, ["hour"]),
        null,
        10,
      );
      expect(found).toEqual([smallSession]);
    } finally {
      closeDeps(deps);
    }
  });
});
