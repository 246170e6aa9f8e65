import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import type { TestContext } from "../helpers.ts";
import { newDeskApp } from "./desk-helpers.ts";
import { pgMigrationStatements, searchableDesk, searchAsBefore } from "./search-helpers.ts";
import { SQL } from "bun";
import { buildDeps, closeDeps } from "../helpers.ts";
import { openTestPgStore, testPostgresUrl } from "../pg/test-store.ts";
import { searchTerms } from "../../src/db/sql/inbox.ts";
import { searchChats } from "../../src/frontdesk/search-chats.ts";
import { tenantKey } from "../../src/db/search-terms.ts";

// Search folds Latin diacritics on both stores: SQLite's FTS5 (unicode61 remove_diacritics 2)
// and PostgreSQL's terms (parley_fold_accents, migration postgres 0013, then parley_fold_letters,
// 0016, which folds case too), on the text and on the query.

let context: TestContext;
afterEach(() => context?.close());

describe("accents in search", () => {
  test("a word finds its text with or without accents, in any case, whichever side has them", async () => {
    context = newDeskApp();
    const { desk, chat, found } = await searchableDesk(context);
    const saoPaulo = await chat("Vocês atendem em São Paulo amanhã?");
    const plainCafe = await chat("Is there a cafe near the clinic?");
    const accentedCafe = await chat("Un café, s'il vous plaît");
    const shouting = await chat("ÉCOLE MÜLLER À GENÈVE");
    const decomposed = await chat("Une cre\u0300me bru\u0302le\u0301e");
    const lead = await chat("Hello");
    await context.deps.store.captures.insertLead({
      id: "lead_01jz4k8m2q9wz7xr3t5v6b8c0d",
      tenantId: desk.tenant.id,
      chatbotId: "bot_x",
      sessionId: lead,
      name: "José Núñez",
      phone: "+34600000000",
      email: "jose@example.com",
      interest: "",
      source: "widget",
      confidence: 0.9,
      capturedAt: context.clock.now(),
    });

    for (const query of ["sao paulo", "são paulo", "SÃO PAULO", "Sao", "amanha", "amanhã", "voces"])
      expect({ query, found: await found(query) }).toEqual({ query, found: [saoPaulo] });
    for (const query of ["cafe", "café", "CAFÉ", "caf"])
      expect({ query, found: await found(query) }).toEqual({ query, found: [accentedCafe, plainCafe] });
    for (const query of ["ecole muller", "école müller", "geneve", "plait"])
      expect({ query, found: (await found(query)).length }).toEqual({ query, found: 1 });
    expect(await found("ecole muller")).toEqual([shouting]);
    for (const query of ["creme brulee", "crème brûlée"])
      expect({ query, found: await found(query) }).toEqual({ query, found: [decomposed] });
    for (const query of ["jose nunez", "José Núñez", "nunez"])
      expect({ query, found: await found(query) }).toEqual({ query, found: [lead] });
    // Folding takes accents off; it does not make other letters equal.
    expect(await found("sap paulo")).toEqual([]);
  });
});

/** What SQLite's FTS5 tables hold for `word` (unicode61 remove_diacritics 2, as migration 0018 makes them). */
function sqliteFolds(words: readonly string[]): Map<string, string> {
  const db = new Database(":memory:");
  try {
    db.run("CREATE VIRTUAL TABLE f USING fts5(t, tokenize='unicode61 remove_diacritics 2')");
    db.run("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance')");
    db.run("BEGIN");
    words.forEach((word, i) => db.run("INSERT INTO f (rowid, t) VALUES (?, ?)", [i + 1, word]));
    db.run("COMMIT");
    const rows = db.query("SELECT doc, term FROM v").all() as Array<{ doc: number; term: string }>;
    return new Map(rows.map((row) => [words[row.doc - 1] as string, row.term]));
  } finally {
    db.close();
  }
}

const pgUrl = testPostgresUrl();

describe.skipIf(!pgUrl)("accents in PostgreSQL's search terms (PARLEY_TEST_DB)", () => {
  test("every character FTS5 keeps in a word becomes the term FTS5 makes of it: case and accents, every script", async () => {
    const opened = await openTestPgStore(pgUrl as string);
    try {
      const tenantId = "ten_01jz4k8m2q9wz7xr3t5v6b8c0d";
      const key = tenantKey(tenantId);
      // The Basic Multilingual Plane and Deseret, the one script past it that unicode61 case-folds.
      const words: string[] = [];
      for (let code = 0x80; code <= 0xffff; code++)
        if (code < 0xd800 || code > 0xdfff) words.push(`q${String.fromCodePoint(code)}z`);
      for (let code = 0x10400; code <= 0x1044f; code++) words.push(`q${String.fromCodePoint(code)}z`);
      const expected = sqliteFolds(words);
      const rows = await opened.sql.unsafe<Array<{ word: string; terms: string[] }>>(
        "SELECT word, tsvector_to_array(parley_search_terms($1, word)) AS terms FROM unnest($2::text[]) AS word",
        [tenantId, words],
      );
      // Only letters SQLite keeps in one word with q and z are compared: punctuation splits words
      // on both stores, though not into the same pieces (PostgreSQL's parser has its own classes).
      const compared = rows.filter((row) => /^q\p{L}*z$/u.test(expected.get(row.word) ?? ""));
      expect(compared.length).toBeGreaterThan(45_000);
      // Among them, the letters FTS5 changes: capitals of Latin, Greek, Cyrillic, Armenian, Georgian…
      const folded = compared.filter((row) => expected.get(row.word) !== row.word);
      expect(folded.length).toBeGreaterThan(1_200);
      for (const capital of ["Д", "Ω", "Ա", "Ⴀ", "Ｑ", "\u{10400}", "Ǆ", "Ẁ"])
        expect(folded.map((row) => row.word)).toContain(`q${capital}z`);
      const differing = compared
        .map((row) => ({
          word: row.word,
          sqlite: expected.get(row.word),
          postgres: row.terms.map((t) => t.slice(key.length)),
        }))
        .filter((row) => row.postgres.length !== 1 || row.postgres[0] !== row.sqlite);
      expect(differing).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  test("the migration folds the terms made before it, and the leads' index is rebuilt", async () => {
    const deps = buildDeps();
    try {
      // The old shape: the function of migration 0008, which folds nothing, and terms made by it.
      const { sql, tenant, session, key, messageTerms } = await searchAsBefore(deps, {
        before: "_front_desk_inbox",
        dropped: "parley_fold_accents",
        message: "Vamos a São Paulo",
        leadName: "José Núñez",
      });
      expect(await messageTerms()).toEqual(["a", "paulo", "são", "vamos"]);

      for (const statement of pgMigrationStatements("_desk_handoff_and_accents").filter(
        (text) => !/handoff/.test(text),
      ))
        await sql.run(statement);
      expect(await messageTerms()).toEqual(["a", "paulo", "sao", "vamos"]);
      expect(await searchChats(deps, tenant.id, null, "sao paulo", { limit: 5 })).toMatchObject({
        data: [{ session_id: session.id }],
      });
      // The leads' index answers the folded query itself (no scan on this connection, no tenant index).
      const schema = (await sql.get<{ schema: string }>("SELECT current_schema() AS schema"))?.schema as string;
      const one = new SQL({ url: pgUrl as string, max: 1, connection: { search_path: schema } });
      try {
        await one.unsafe("SET enable_seqscan = off");
        const query = `SELECT count(*)::int AS n FROM leads AS l WHERE l.tenant_id || '' = $1 AND ${searchTerms.lead} @@ ${searchTerms.query}`;
        const plan = (
          await one.unsafe<Array<{ "QUERY PLAN": string }>>(`EXPLAIN ${query}`, [tenant.id, `'${key}jose':*`])
        )
          .map((row) => row["QUERY PLAN"])
          .join("\n");
        expect(plan).toContain("leads_search_idx");
        expect((await one.unsafe<Array<{ n: number }>>(query, [tenant.id, `'${key}nunez':*`]))[0]?.n).toBe(1);
      } finally {
        await one.close();
      }
    } finally {
      closeDeps(deps);
    }
  });
});
