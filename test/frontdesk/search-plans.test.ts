import { afterAll, describe, expect, test } from "bun:test";
import { openDatabase } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { searchSql } from "../../src/db/sql/inbox.ts";
import { SQLITE, sqliteText } from "../../src/db/sqlite/statements.ts";
import { POSTGRES } from "../../src/db/postgres/statements.ts";
import { buildDeps, closeDeps, seedTenant, testSql } from "../helpers.ts";
import { testPostgresUrl } from "../pg/test-store.ts";
import { startSession } from "../../src/chat/sessions.ts";
import { catchUpSearchIndex, INDEX_BATCH } from "../../src/frontdesk/search-index.ts";

// The search's plans on both stores: the full-text indexes find the matches; no statement walks
// a tenant's messages, leads or sessions (the list budget must hold at 1M messages).

describe("search query plans on SQLite", () => {
  const handle = openDatabase(":memory:");
  applyMigrations(handle.sqlite, 1);
  afterAll(() => handle.close());
  const planOf = (sql: string) =>
    handle.sqlite
      .prepare<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql}`)
      .all()
      .map((row) => row.detail);

  for (const before of [false, true]) {
    test(`the search${before ? " after a cursor" : ""} reads the FTS5 indexes, then each match by rowid`, () => {
      const plan = planOf(sqliteText(searchSql(SQLITE, { before })));
      expect(plan.filter((line) => /VIRTUAL TABLE INDEX/.test(line)).map((line) => line.split(" ")[1])).toEqual([
        "f",
        "lf",
      ]);
      expect(plan.filter((line) => /^SEARCH (m|l) USING INTEGER PRIMARY KEY \(rowid=\?\)$/.test(line))).toHaveLength(2);
      expect(plan.filter((line) => /^SCAN (m|l|chat_messages|leads|chat_sessions)\b/.test(line))).toEqual([]);
    });
  }

  test("a message is queued when written and indexed by the catch-up; changed or deleted rows leave the index consistent", async () => {
    const db = handle.sqlite;
    const deps = { store: handle.store };
    db.exec(`INSERT INTO tenants (id, name, created_at, updated_at) VALUES ('ten_a', 'A', 1, 1);
      INSERT INTO chatbots (id, tenant_id, name, created_at, updated_at) VALUES ('bot_a', 'ten_a', 'Bot', 1, 1);
      INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, created_at, updated_at) VALUES ('ses_a', 'ten_a', 'bot_a', 'widget', 'handoff', '{}', 1, 1);
      INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, created_at, updated_at) VALUES ('ses_b', 'ten_a', 'bot_a', 'widget', 'handoff', '{}', 1, 1);
      INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at) VALUES ('msg_1', 'ses_a', 'ten_a', 'visitor', 'zebra crossing', 1), ('msg_2', 'ses_a', 'ten_a', 'bot', 'giraffe reply', 1);
      INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at) VALUES ('lead_1', 'ten_a', 'bot_a', 'ses_a', 'Anabel', '+441', 'x@x.test', '', 'widget', 1, 1);`);
    const search = (match: string) => handle.store.inbox.searchSessionIds("ten_a", match, null, 10);
    const consistent = () =>
      db.exec(
        "INSERT INTO chat_messages_fts (chat_messages_fts) VALUES ('integrity-check'); INSERT INTO leads_fts (leads_fts) VALUES ('integrity-check')",
      );
    expect(await search('"zebra"*')).toEqual([]); // queued, not indexed yet
    expect(await catchUpSearchIndex(deps)).toBe(1); // the visitor's message; bot messages are never queued
    expect(await search('"zebra"*')).toEqual(["ses_a"]);
    expect(await search('"giraffe"*')).toEqual([]);
    expect(await search('"anabel"*')).toEqual(["ses_a"]); // leads are indexed as they are written
    db.exec("UPDATE leads SET name = 'Beatriz' WHERE id = 'lead_1'");
    expect(await search('"anabel"*')).toEqual([]);
    expect(await search('"beatriz"*')).toEqual(["ses_a"]);
    // A message deleted before the catch-up leaves nothing to index; one deleted after leaves the index.
    db.exec(
      "INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at) VALUES ('msg_3', 'ses_b', 'ten_a', 'visitor', 'okapi', 1)",
    );
    db.exec("DELETE FROM chat_sessions WHERE id = 'ses_b'");
    expect(await catchUpSearchIndex(deps)).toBe(0);
    db.exec("DELETE FROM chat_sessions WHERE id = 'ses_a'");
    expect(await search('"zebra"*')).toEqual([]);
    expect(db.prepare("SELECT count(*) AS n FROM chat_messages_fts").get()).toEqual({ n: 0 });
    consistent();
  });

  test("the catch-up goes in batches, oldest first, and the index stays consistent", async () => {
    const db = handle.sqlite;
    db.exec(`INSERT INTO tenants (id, name, created_at, updated_at) VALUES ('ten_c', 'C', 1, 1);
      INSERT INTO chatbots (id, tenant_id, name, created_at, updated_at) VALUES ('bot_c', 'ten_c', 'Bot', 1, 1);
      INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, created_at, updated_at) VALUES ('ses_c', 'ten_c', 'bot_c', 'widget', 'handoff', '{}', 1, 1);`);
    const insert = db.prepare(
      "INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at) VALUES (?, 'ses_c', 'ten_c', 'visitor', ?, 1)",
    );
    for (let i = 0; i < INDEX_BATCH + 10; i++) insert.run(`msg_c${String(i).padStart(6, "0")}`, `word${i}`);
    expect(await handle.store.inbox.indexPendingMessages(10)).toBe(10);
    expect(await handle.store.inbox.searchSessionIds("ten_c", '"word9"', null, 10)).toEqual(["ses_c"]);
    expect(await handle.store.inbox.searchSessionIds("ten_c", `"word${INDEX_BATCH}"`, null, 10)).toEqual([]);
    expect(await catchUpSearchIndex({ store: handle.store })).toBe(INDEX_BATCH);
    expect(await handle.store.inbox.searchSessionIds("ten_c", `"word${INDEX_BATCH}"`, null, 10)).toEqual(["ses_c"]);
    db.exec("INSERT INTO chat_messages_fts (chat_messages_fts) VALUES ('integrity-check')");
  });
});

describe.skipIf(!testPostgresUrl())("search query plans on PostgreSQL (PARLEY_TEST_DB)", () => {
  test("EXPLAIN shows the GIN indexes on messages and leads serving the search", async () => {
    const deps = buildDeps();
    try {
      const sql = await testSql(deps);
      const { tenant } = await seedTenant(deps, "Plans");
      const session = await startSession(deps, deps.store, { tenantId: tenant.id, channel: "widget" });
      await sql.run(
        `INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at)
         SELECT 'msg_' || lpad(n::text, 26, '0'), $1, $2, 'visitor', 'filler words number ' || n, n FROM generate_series(1, 5000) AS n`,
        session.id,
        tenant.id,
      );
      await sql.run(
        `INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at)
         SELECT 'lead_' || lpad(n::text, 26, '0'), $1, 'bot_x', $2, 'Person ' || n, '+44' || n, 'p' || n || '@x.test', '', 'widget', 1, n FROM generate_series(1, 5000) AS n`,
        tenant.id,
        session.id,
      );
      await sql.run("ANALYZE chat_messages");
      await sql.run("ANALYZE leads");
      const plan = (
        await sql.all<{ "QUERY PLAN": string }>(
          `EXPLAIN ${searchSql(POSTGRES, { before: true })}`,
          tenant.id,
          "'zebra':*",
          "ses_zzz",
          20,
        )
      )
        .map((row) => row["QUERY PLAN"])
        .join("\n");
      expect(plan).toContain("chat_messages_search_idx");
      expect(plan).toContain("leads_search_idx");
      expect(plan).not.toMatch(/Seq Scan on (chat_messages|leads)/);
    } finally {
      closeDeps(deps);
    }
  });
});
