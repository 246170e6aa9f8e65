import { afterAll, describe, expect, test } from "bun:test";
import { openDatabase } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { searchSql } from "../../src/db/sql/desk.ts";
import { SQLITE, sqliteText } from "../../src/db/sqlite/statements.ts";
import { POSTGRES } from "../../src/db/postgres/statements.ts";
import { buildDeps, closeDeps, seedTenant, testSql } from "../helpers.ts";
import { testPostgresUrl } from "../pg/test-store.ts";
import { startSession } from "../../src/chat/sessions.ts";

// The search's plans on both stores: the full-text indexes find the matches; no statement walks
// a tenant's messages, leads or sessions (the list budget must hold at 1M messages).

describe("search query plans on SQLite", () => {
  const handle = openDatabase(":memory:");
  applyMigrations(handle.sqlite, 1);
  afterAll(() => handle.close());
  const planOf = (sql: string) => handle.sqlite.prepare<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql}`).all().map((row) => row.detail);

  for (const before of [false, true]) {
    test(`the search${before ? " after a cursor" : ""} reads the FTS5 indexes, then each match by rowid`, () => {
      const plan = planOf(sqliteText(searchSql(SQLITE, { before })));
      expect(plan.filter((line) => /VIRTUAL TABLE INDEX/.test(line)).map((line) => line.split(" ")[1])).toEqual(["f", "lf"]);
      expect(plan.filter((line) => /^SEARCH (m|l) USING INTEGER PRIMARY KEY \(rowid=\?\)$/.test(line))).toHaveLength(2);
      expect(plan.filter((line) => /^SCAN (m|l|chat_messages|leads|chat_sessions)\b/.test(line))).toEqual([]);
    });
  }

  test("a message or a lead written, changed or deleted is found, found by its new words, or gone", async () => {
    const db = handle.sqlite;
    db.exec(`INSERT INTO tenants (id, name, created_at, updated_at) VALUES ('ten_a', 'A', 1, 1);
      INSERT INTO chatbots (id, tenant_id, name, created_at, updated_at) VALUES ('bot_a', 'ten_a', 'Bot', 1, 1);
      INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, created_at, updated_at) VALUES ('ses_a', 'ten_a', 'bot_a', 'widget', 'handoff', '{}', 1, 1);
      INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at) VALUES ('msg_1', 'ses_a', 'ten_a', 'visitor', 'zebra crossing', 1), ('msg_2', 'ses_a', 'ten_a', 'bot', 'giraffe reply', 1);
      INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at) VALUES ('lead_1', 'ten_a', 'bot_a', 'ses_a', 'Anabel', '+441', 'x@x.test', '', 'widget', 1, 1);`);
    const search = (match: string) => handle.store.desk.searchSessionIds("ten_a", match, null, 10);
    expect(await search('"zebra"*')).toHaveLength(1);
    expect(await search('"giraffe"*')).toHaveLength(0); // bot messages are not indexed
    expect(await search('"anabel"*')).toHaveLength(1);
    expect(await search('"beatriz"*')).toHaveLength(0);
    db.exec("UPDATE leads SET name = 'Beatriz' WHERE id = 'lead_1'");
    expect(await search('"anabel"*')).toHaveLength(0);
    expect(await search('"beatriz"*')).toHaveLength(1);
    db.exec("DELETE FROM chat_sessions WHERE id = 'ses_a'");
    expect(await search('"zebra"*')).toHaveLength(0);
    expect(db.prepare("SELECT count(*) AS n FROM chat_messages_fts").get()).toEqual({ n: 0 });
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
      const plan = (await sql.all<{ "QUERY PLAN": string }>(`EXPLAIN ${searchSql(POSTGRES, { before: true })}`, tenant.id, "'zebra':*", "ses_zzz", 20)).map((row) => row["QUERY PLAN"]).join("\n");
      expect(plan).toContain("chat_messages_search_idx");
      expect(plan).toContain("leads_search_idx");
      expect(plan).not.toMatch(/Seq Scan on (chat_messages|leads)/);
    } finally {
      closeDeps(deps);
    }
  });
});
