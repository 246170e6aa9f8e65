// @sqlite-only: SQLite's messages table rebuilt without its id index (PostgreSQL keeps its key)
import { afterEach, expect, test } from "bun:test";
import { buildDeps, closeDeps, seedTenant, type TestDeps } from "../helpers.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { handleMessage } from "../../src/chat/handle-message.ts";
import { listMessages } from "../../src/chat/sessions.ts";
import { catchUpSearchIndex } from "../../src/frontdesk/search-index.ts";
import { searchChats } from "../../src/frontdesk/search-chats.ts";

const MIGRATION = "0022_message_index_by_session";

/** chat_messages as migrations 0002 to 0021 left it: keyed by id, with the search queue's triggers. */
const TABLE_BEFORE = `
  DROP TABLE chat_messages;
  CREATE TABLE chat_messages (
    id text PRIMARY KEY NOT NULL, session_id text NOT NULL, tenant_id text NOT NULL, role text NOT NULL,
    text text NOT NULL, quick_replies text, confidence real, author_id text, created_at integer NOT NULL, author_name text,
    FOREIGN KEY (session_id) REFERENCES chat_sessions(id) ON UPDATE no action ON DELETE cascade);
  CREATE INDEX chat_messages_session_idx ON chat_messages (session_id, id);
  CREATE TRIGGER chat_messages_fts_queue AFTER INSERT ON chat_messages WHEN new.role != 'bot' BEGIN
    INSERT INTO chat_messages_fts_pending (message_rowid) VALUES (new.rowid);
  END;
  CREATE TRIGGER chat_messages_fts_delete AFTER DELETE ON chat_messages WHEN old.role != 'bot' BEGIN
    DELETE FROM chat_messages_fts WHERE rowid = old.rowid;
    DELETE FROM chat_messages_fts_pending WHERE message_rowid = old.rowid;
  END;
  DELETE FROM parley_migrations WHERE tag = '${MIGRATION}';`;

let deps: TestDeps | undefined;
afterEach(() => deps && closeDeps(deps));

const found = async (given: TestDeps, tenantId: string, query: string) =>
  (await searchChats(given, tenantId, null, query, { limit: 50 })).data.map((chat) => chat.session_id).sort();

const pendingRowids = (given: TestDeps) =>
  given.sqlite.query("SELECT message_rowid FROM chat_messages_fts_pending ORDER BY message_rowid").all();

const rowsByRowid = (given: TestDeps) =>
  given.sqlite.query("SELECT rowid, id, session_id, role FROM chat_messages ORDER BY rowid").all();

test("the migration keeps every message, its rowid, its search terms and its place in the search queue", async () => {
  deps = buildDeps();
  deps.sqlite.exec(TABLE_BEFORE);
  const { tenant } = await seedTenant(deps, "Old Data");
  const say = async (text: string, sessionId?: string) =>
    (await handleMessage(deps as TestDeps, { tenant, sessionId, text, channel: "api" })).session_id;
  const first = await say("What are your opening hours?");
  await say("Is a zebrafish welcome?", first);
  const gone = await say("goodbye");
  const second = await say("hello there");
  deps.sqlite.query("DELETE FROM chat_sessions WHERE id = ?").run(gone); // a gap in the rowids
  await catchUpSearchIndex(deps);
  await say("A quokka question", second); // queued, not indexed yet
  const transcripts = [await listMessages(deps, tenant.id, first), await listMessages(deps, tenant.id, second)];
  const rows = rowsByRowid(deps);
  expect(rows.length).toBe(8);
  const queued = pendingRowids(deps);
  expect(queued.length).toBe(1);

  expect(applyMigrations(deps.sqlite, deps.clock.now()).applied).toEqual([MIGRATION]);

  expect(rowsByRowid(deps)).toEqual(rows);
  expect(pendingRowids(deps)).toEqual(queued);
  expect([await listMessages(deps, tenant.id, first), await listMessages(deps, tenant.id, second)]).toEqual(
    transcripts,
  );
  expect(
    deps.sqlite
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE tbl_name = 'chat_messages' ORDER BY name")
      .all()
      .map((row) => row.name),
  ).toEqual(["chat_messages", "chat_messages_fts_delete", "chat_messages_fts_queue", "chat_messages_session_idx"]);
  const previews = await deps.store.chatSessions.listNewestMessages(tenant.id, [first, second], 100);
  expect(previews.map((row) => [row.sessionId, row.role]).sort()).toEqual([
    [first, "bot"],
    [second, "bot"],
  ]);

  // Terms written before it still point at their rows; the row queued before it is indexed by the search's catch-up.
  expect(await found(deps, tenant.id, "zebrafish")).toEqual([first]);
  expect(await found(deps, tenant.id, "quokka")).toEqual([second]);
  expect(pendingRowids(deps)).toEqual([]);
  // The triggers came back with the table: a new message is queued, a deleted one takes its terms.
  await say("A platypus question", first);
  expect(pendingRowids(deps).length).toBe(1);
  expect(await found(deps, tenant.id, "platypus")).toEqual([first]);
  deps.sqlite.query("DELETE FROM chat_sessions WHERE id = ?").run(first);
  expect(await found(deps, tenant.id, "platypus")).toEqual([]);
  expect(await found(deps, tenant.id, "zebrafish")).toEqual([]);
  expect(await found(deps, tenant.id, "quokka")).toEqual([second]);
});
