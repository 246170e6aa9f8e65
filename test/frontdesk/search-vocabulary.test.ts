// @sqlite-only: the search vocabulary is SQLite's (PostgreSQL's walk reads its GIN indexes' terms)
import { afterEach, expect, test } from "bun:test";
import { buildDeps, closeDeps, seedTenant, type TestDeps } from "../helpers.ts";
import { newId } from "../../src/lib/ids.ts";
import { tenantKey } from "../../src/db/search-terms.ts";
import { EMBEDDED_MIGRATIONS } from "../../src/db/embedded-migrations.ts";
import { EXPANSION_BOUND, sqliteSearchVocabulary, WORDS_WITH_PREFIX } from "../../src/db/sqlite/search-vocabulary.ts";
import { eraseLead } from "../../src/chat/erase-person.ts";
import { purgeInactiveSessions } from "../../src/chat/purge-chat-data.ts";
import { catchUpSearchIndex } from "../../src/frontdesk/search-index.ts";
import { fullTextQuery, searchChats } from "../../src/frontdesk/search-chats.ts";

// SQLite's search vocabulary: a prefix becomes the OR of the tenant's words, which FTS5 walks
// lazily; the catch-up fills it, the migration backfills it, erasure empties it of a person's words.

let deps: TestDeps | undefined;
afterEach(() => deps && closeDeps(deps));

/** A tenant with one chat per text (a visitor's message each), indexed; answers the tenant and its chats. */
async function tenantSaying(given: TestDeps, name: string, texts: string[], base = 1_800_000_000_000) {
  const { tenant } = await seedTenant(given, name);
  const chatbotId = given.sqlite
    .query<{ id: string }, [string]>("SELECT id FROM chatbots WHERE tenant_id = ?")
    .get(tenant.id)?.id as string;
  const sessions: string[] = [];
  for (const [n, text] of texts.entries()) {
    const at = base + n * 1_000;
    const sessionId = newId("ses", at);
    sessions.push(sessionId);
    given.sqlite
      .query(
        "INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, message_count, created_at, updated_at) VALUES (?, ?, ?, 'widget', 'closed', '{}', 1, ?, ?)",
      )
      .run(sessionId, tenant.id, chatbotId, at, at);
    given.sqlite
      .query(
        "INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at) VALUES (?, ?, ?, 'visitor', ?, ?)",
      )
      .run(newId("msg", at), sessionId, tenant.id, text, at);
  }
  await catchUpSearchIndex(given);
  return { tenantId: tenant.id, key: tenantKey(tenant.id), sessions, chatbotId };
}

const vocabularyOf = (given: TestDeps, key: string): string[] =>
  given.sqlite
    .query<{ term: string }, [string]>("SELECT term FROM search_vocabulary WHERE substr(term, 1, length(?1)) = ?1")
    .all(key)
    .map((row) => row.term.slice(key.length));

const found = async (given: TestDeps, tenantId: string, query: string) =>
  (await searchChats(given, tenantId, null, query, { limit: 50 })).data.map((chat) => chat.session_id).sort();

test("a common word's prefix is searched as the OR of the tenant's words, and the search asks the vocabulary", async () => {
  deps = buildDeps();
  const texts = ["opening hours", "hourly rate", "hours again", "a façade and a ёлка"];
  const mine = await tenantSaying(deps, "Mine", texts);
  await tenantSaying(deps, "Theirs", ["hourglass"]);
  const [opening, hourly, again, facade] = mine.sessions as [string, string, string, string];
  const vocabulary = sqliteSearchVocabulary(deps.sqlite);
  const query = (word: string) => fullTextQuery("sqlite", mine.tenantId, [word]);
  expect(vocabulary.expand(query("hour"))).toBe(`("${mine.key}hourly" OR "${mine.key}hours")`);
  expect(vocabulary.expand(query("zzz"))).toBe(`"${mine.key}zzz"`);
  // Words as FTS5 holds them: Latin diacritics folded (unicode61), Cyrillic as written.
  expect(vocabularyOf(deps, mine.key)).toEqual(
    ["a", "again", "and", "facade", "hourly", "hours", "opening", "rate", "ёлка"].sort(),
  );
  expect(await found(deps, mine.tenantId, "fac")).toEqual([facade]);
  // A word with letters unicode61 may fold keeps the prefix query.
  expect(vocabulary.expand(query("ёл"))).toBe(query("ёл"));
  expect(await found(deps, mine.tenantId, "ёл")).toEqual([facade]);
  expect(await found(deps, mine.tenantId, "façade")).toEqual([facade]);

  // Taken out of the vocabulary, a word is no longer found by its prefix: the search went through it.
  expect(await found(deps, mine.tenantId, "hour")).toEqual([opening, hourly, again].sort());
  deps.sqlite.query("DELETE FROM search_vocabulary WHERE term = ?").run(`${mine.key}hourly`);
  expect(await found(deps, mine.tenantId, "hour")).toEqual([opening, again].sort());
});

test("a prefix's words are a range of the vocabulary's primary key", () => {
  deps = buildDeps();
  const plan = deps.sqlite
    .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${WORDS_WITH_PREFIX}`)
    .all()
    .map((row) => row.detail);
  expect(plan).toEqual(["SEARCH search_vocabulary USING PRIMARY KEY (term>? AND term<?)"]);
});

test("past the bound a query word keeps its prefix query", async () => {
  deps = buildDeps();
  const words = Array.from({ length: EXPANSION_BOUND + 2 }, (_, n) => `code${n}`);
  const mine = await tenantSaying(deps, "Mine", words);
  const vocabulary = sqliteSearchVocabulary(deps.sqlite);
  const within = fullTextQuery("sqlite", mine.tenantId, ["code1"]);
  expect(vocabulary.expand(within)).toMatch(/^\("[a-z0-9]+code1" OR .* OR "[a-z0-9]+code19"\)$/);
  const past = fullTextQuery("sqlite", mine.tenantId, ["code"]);
  expect(vocabulary.expand(past)).toBe(past);
  // Still past the bound without one of its words, the prefix query finds that word's chat too.
  deps.sqlite.query("DELETE FROM search_vocabulary WHERE term = ?").run(`${mine.key}code0`);
  const page = await searchChats(deps, mine.tenantId, null, "code", { limit: words.length });
  expect(page.data.map((chat) => chat.session_id).sort()).toEqual([...mine.sessions].sort());
});

test("the migration fills the vocabulary from what the FTS5 tables already hold", async () => {
  deps = buildDeps();
  const mine = await tenantSaying(deps, "Mine", ["opening hours", "Ana López"]);
  const before = vocabularyOf(deps, mine.key);
  expect(before).toContain("lopez");
  const migration = EMBEDDED_MIGRATIONS.find((m) => m.tag.endsWith("_search_vocabulary"))?.sql as string;
  deps.sqlite.exec("DROP TABLE search_vocabulary; DROP TABLE search_vocabulary_stale");
  for (const statement of migration.split("--> statement-breakpoint")) deps.sqlite.exec(statement);
  expect(vocabularyOf(deps, mine.key)).toEqual(before);
});

test("erasing a person takes their words out of the vocabulary, leaving words still used and other tenants' words", async () => {
  deps = buildDeps();
  const mine = await tenantSaying(deps, "Mine", ["I am Zebedee, what are your hours", "your hours please"]);
  const theirs = await tenantSaying(deps, "Theirs", ["Zebedee here"]);
  const leadId = newId("lead", 1_800_000_000_000);
  deps.sqlite
    .query(
      "INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at) VALUES (?, ?, ?, ?, 'Zebedee Quillfeather', '+447700900999', 'zeb@example.com', '', 'widget', 1, 1)",
    )
    .run(leadId, mine.tenantId, mine.chatbotId, mine.sessions[0] as string);
  await catchUpSearchIndex(deps);
  expect(vocabularyOf(deps, mine.key)).toEqual(expect.arrayContaining(["zebedee", "quillfeather", "zeb", "hours"]));

  const result = await eraseLead(deps, mine.tenantId, leadId);
  expect(result.sessions).toBe(1);
  const left = vocabularyOf(deps, mine.key);
  for (const word of ["zebedee", "quillfeather", "zeb", "447700900999", "am"]) expect(left).not.toContain(word);
  expect(left).toEqual(expect.arrayContaining(["your", "hours", "please"]));
  expect(vocabularyOf(deps, theirs.key)).toContain("zebedee");
  expect(await found(deps, mine.tenantId, "zeb")).toEqual([]);
  expect(await found(deps, theirs.tenantId, "zeb")).toEqual(theirs.sessions);
});

test("the retention purge takes the words of the chats it deletes out of the vocabulary", async () => {
  deps = buildDeps();
  // Later than every id made so far: ids of one process never go back in time.
  const base = 1_900_000_000_000;
  const mine = await tenantSaying(deps, "Mine", ["Zebedee asked about hours", "hours again"], base);
  // The first chat is a second older than the second: a cutoff between them purges it alone.
  expect(await purgeInactiveSessions(deps, mine.tenantId, base + 500, 100)).toBe(1);
  const left = vocabularyOf(deps, mine.key);
  for (const word of ["zebedee", "asked", "about"]) expect(left).not.toContain(word);
  expect(left).toEqual(["again", "hours"]);
  expect(await found(deps, mine.tenantId, "hours")).toEqual([mine.sessions[1] as string]);
});

test("a lead's replaced name leaves the vocabulary at the next catch-up, or at once when the lead is erased", async () => {
  deps = buildDeps();
  const base = 1_950_000_000_000;
  const mine = await tenantSaying(deps, "Mine", ["hello", "hi"], base);
  const addLead = (sessionId: string, name: string) => {
    const leadId = newId("lead", base);
    deps?.sqlite
      .query(
        "INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at) VALUES (?, ?, ?, ?, ?, '', '', '', 'widget', 1, 1)",
      )
      .run(leadId, mine.tenantId, mine.chatbotId, sessionId, name);
    return leadId;
  };
  const rename = (leadId: string, name: string) =>
    deps?.sqlite.query("UPDATE leads SET name = ? WHERE id = ?").run(name, leadId);
  const renamed = addLead(mine.sessions[0] as string, "Zebedee Quillfeather");
  const erased = addLead(mine.sessions[1] as string, "Ottoline Brackwater");
  await catchUpSearchIndex(deps);
  expect(vocabularyOf(deps, mine.key)).toEqual(
    expect.arrayContaining(["zebedee", "quillfeather", "ottoline", "brackwater"]),
  );

  rename(renamed, "Zed Quillfeather");
  await catchUpSearchIndex(deps);
  expect(vocabularyOf(deps, mine.key)).not.toContain("zebedee");
  expect(vocabularyOf(deps, mine.key)).toEqual(expect.arrayContaining(["zed", "quillfeather"]));

  // Renamed, then erased before any catch-up: neither name stays, nor the replaced text.
  rename(erased, "Otto Brackwater");
  await eraseLead(deps, mine.tenantId, erased);
  const left = vocabularyOf(deps, mine.key);
  for (const word of ["ottoline", "otto", "brackwater"]) expect(left).not.toContain(word);
  expect(deps.sqlite.query("SELECT count(*) AS n FROM search_vocabulary_stale").get()).toEqual({ n: 0 });
});
