import { afterAll, describe, expect, test } from "bun:test";
import { openDatabase } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { searchSql } from "../../src/db/sql/inbox.ts";
import { SQLITE, sqliteText } from "../../src/db/sqlite/statements.ts";
import { catchUpSearchIndex, INDEX_BATCH } from "../../src/frontdesk/search-index.ts";
import { fullTextQuery } from "../../src/frontdesk/search-chats.ts";
import { SEARCH_WALK_SOURCES } from "../../src/db/sqlite/search-walk.ts";

// The search's plans on SQLite (PostgreSQL's: search-plans-pg.test.ts): the full-text indexes
// find the matches; no statement scans a tenant's messages, leads or sessions (the list budget
// must hold at 1M messages), and the newest-first walk reads by index and stops early.

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

  test("the newest-first walk reads FTS5 in rowid order (no sort), and checks newer sessions' rows by index", () => {
    for (const source of SEARCH_WALK_SOURCES) {
      const walk = planOf(source.walk);
      expect(walk.filter((line) => /VIRTUAL TABLE INDEX/.test(line))).toHaveLength(1);
      expect(walk.filter((line) => /TEMP B-TREE|^SCAN (t|chat_sessions)\b/.test(line))).toEqual([]);
      const older = planOf(source.older);
      expect(older.some((line) => /^SEARCH s USING (COVERING )?INDEX chat_sessions_tenant_id_idx/.test(line))).toBe(
        true,
      );
      expect(
        older.some((line) => /^SEARCH t USING (COVERING )?INDEX (chat_messages|leads)_session_idx/.test(line)),
      ).toBe(true);
      expect(older.filter((line) => /^SCAN /.test(line))).toEqual([]);
    }
  });

  test("a message is queued when written and indexed by the catch-up; changed or deleted rows leave the index consistent", async () => {
    const db = handle.sqlite;
    const deps = { store: handle.store };
    db.exec(`INSERT INTO tenants (id, name, created_at, updated_at) VALUES ('ten_a', 'A', 1, 1);
      INSERT INTO chatbots (id, tenant_id, name, created_at, updated_at) VALUES ('bot_a', 'ten_a', 'Bot', 1, 1);
      INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, created_at, updated_at) VALUES ('ses_a', 'ten_a', 'bot_a', 'widget', 'handoff', '{}', 1, 1);
      INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, created_at, updated_at) VALUES ('ses_b', 'ten_a', 'bot_a', 'widget', 'handoff', '{}', 1, 1);
      INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at) VALUES ('msg_1', 'ses_a', 'ten_a', 'visitor', 'zebra crossing', 1), ('msg_2', 'ses_a', 'ten_a', 'bot', 'giraffe reply', 1);
      INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at) VALUES ('lead_1', 'ten_a', 'bot_a', 'ses_a', 'Anabel', '+441', 'x@x.test', '', 'widget', 1, 1);`);
    const search = (word: string) =>
      handle.store.inbox.searchSessionIds("ten_a", fullTextQuery("sqlite", "ten_a", [word]), null, 10);
    const consistent = () =>
      db.exec(
        "INSERT INTO chat_messages_fts (chat_messages_fts) VALUES ('integrity-check'); INSERT INTO leads_fts (leads_fts) VALUES ('integrity-check')",
      );
    expect(await search("zebra")).toEqual([]); // queued, not indexed yet
    expect(await search("anabel")).toEqual([]);
    expect(await catchUpSearchIndex(deps)).toBe(2); // the visitor's message and the lead; bot messages are never queued
    expect(await search("zebra")).toEqual(["ses_a"]);
    expect(await search("giraffe")).toEqual([]);
    expect(await search("anabel")).toEqual(["ses_a"]);
    db.exec("UPDATE leads SET name = 'Beatriz' WHERE id = 'lead_1'");
    expect(await search("anabel")).toEqual([]); // a changed lead leaves the index at once, and is queued again
    expect(await catchUpSearchIndex(deps)).toBe(1);
    expect(await search("beatriz")).toEqual(["ses_a"]);
    // A message deleted before the catch-up leaves nothing to index; one deleted after leaves the index.
    db.exec(
      "INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at) VALUES ('msg_3', 'ses_b', 'ten_a', 'visitor', 'okapi', 1)",
    );
    db.exec("DELETE FROM chat_sessions WHERE id = 'ses_b'");
    expect(await catchUpSearchIndex(deps)).toBe(0);
    db.exec("DELETE FROM chat_sessions WHERE id = 'ses_a'");
    expect(await search("zebra")).toEqual([]);
    expect(db.prepare("SELECT count(*) AS n FROM chat_messages_fts").get()).toEqual({ n: 0 });
    db.exec("DELETE FROM leads WHERE id = 'lead_1'");
    expect(await search("beatriz")).toEqual([]);
    expect(db.prepare("SELECT count(*) AS n FROM leads_fts").get()).toEqual({ n: 0 });
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
    const search = (word: string) => handle.store.inbox.searchSessionIds("ten_c", `"c${word}"`, null, 10);
    expect(await handle.store.inbox.indexPending(10)).toBe(10);
    expect(await search("word9")).toEqual(["ses_c"]);
    expect(await search(`word${INDEX_BATCH}`)).toEqual([]);
    expect(await catchUpSearchIndex({ store: handle.store })).toBe(INDEX_BATCH);
    expect(await search(`word${INDEX_BATCH}`)).toEqual(["ses_c"]);
    db.exec("INSERT INTO chat_messages_fts (chat_messages_fts) VALUES ('integrity-check')");
  });

  test("a tenant's search reads only its own terms: another tenant's common word is not in its way", async () => {
    const db = handle.sqlite;
    const big = "ten_01aaaaaaaaaaaaaaaaaaaaaaaa";
    const small = "ten_01bbbbbbbbbbbbbbbbbbbbbbbb";
    for (const [tenant, messages] of [
      [big, 3000],
      [small, 3],
    ] as const) {
      db.exec(`INSERT INTO tenants (id, name, created_at, updated_at) VALUES ('${tenant}', 'T', 1, 1);
        INSERT INTO chatbots (id, tenant_id, name, created_at, updated_at) VALUES ('bot_${tenant}', '${tenant}', 'Bot', 1, 1);`);
      const session = db.prepare(
        `INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, created_at, updated_at) VALUES (?, '${tenant}', 'bot_${tenant}', 'widget', 'closed', '{}', 1, 1)`,
      );
      const message = db.prepare(
        `INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at) VALUES (?, ?, '${tenant}', 'visitor', 'What are your opening hours?', 1)`,
      );
      for (let i = 0; i < messages; i++) {
        const id = `${tenant.slice(4, 8)}${String(i).padStart(5, "0")}`;
        session.run(`ses_${id}`);
        message.run(`msg_${id}`, `ses_${id}`);
      }
    }
    await catchUpSearchIndex({ store: handle.store });
    const found = await handle.store.inbox.searchSessionIds(small, fullTextQuery("sqlite", small, ["hour"]), null, 10);
    expect(found).toEqual(["ses_01bb00002", "ses_01bb00001", "ses_01bb00000"]);
    // The index's terms: every tenant's word is its own term, so the small tenant's prefix query
    // "…bbbhour"* reads the documents of its 3 messages, not the 3,000 of the other tenant.
    db.exec("CREATE VIRTUAL TABLE temp.message_terms USING fts5vocab(main, chat_messages_fts, 'row')");
    const documents = (prefix: string) =>
      db
        .prepare<{ term: string; doc: number }, [string, string]>(
          "SELECT term, doc FROM temp.message_terms WHERE term >= ?1 AND term < ?2",
        )
        .all(prefix, `${prefix}\u{10ffff}`);
    expect(documents("01bbbbbbbbbbbbbbbbbbbbbbbbhour")).toEqual([{ term: "01bbbbbbbbbbbbbbbbbbbbbbbbhours", doc: 3 }]);
    expect(documents("01aaaaaaaaaaaaaaaaaaaaaaaahour")).toEqual([
      { term: "01aaaaaaaaaaaaaaaaaaaaaaaahours", doc: 3000 },
    ]);
    expect(documents("hour")).toEqual([]); // no word is indexed without its tenant
  });
});
