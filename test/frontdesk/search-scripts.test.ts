import { afterEach, describe, expect, test } from "bun:test";
import type { TestContext } from "../helpers.ts";
import { newDeskApp } from "./desk-helpers.ts";
import { pgMigrationStatements, searchableDesk, searchAsBefore } from "./search-helpers.ts";
import { buildDeps, closeDeps } from "../helpers.ts";
import { testPostgresUrl } from "../pg/test-store.ts";
import { searchChats } from "../../src/frontdesk/search-chats.ts";

// Search folds case in every script on both stores, as SQLite's FTS5 (unicode61) does: a database
// in the C locale lowercases only ASCII letters itself (parley_fold_letters, migration postgres 0016).

let context: TestContext;
afterEach(() => context?.close());

describe("case in search, beyond ASCII", () => {
  test("a word finds its text in any case in Cyrillic, Greek, Armenian and extended Latin", async () => {
    context = newDeskApp();
    const { chat, found } = await searchableDesk(context);
    const moscow = await chat("Вы работаете в Москве? МОСКВА далеко");
    const athensShouting = await chat("ΓΡΑΦΕΙΟ ΣΤΗΝ ΑΘΗΝΑ");
    const athens = await chat("Γραφείο στην Αθήνα");
    const yerevan = await chat("ԳՐԱՍԵՆՅԱԿ ԵՐԵՎԱՆՈՒՄ");
    const lodz = await chat("BIURO W ŁODZI, ŻÓŁTE DRZWI");
    const cases: Array<[string, string[]]> = [
      ["москва", [moscow]],
      ["МОСКВ", [moscow]],
      ["Москве", [moscow]],
      ["вы работаете", [moscow]],
      ["αθηνα", [athensShouting]],
      ["ΑΘΉΝΑ", [athens]],
      ["αθήνα", [athens]],
      ["γραφειο", [athensShouting]],
      ["στην", [athens, athensShouting]],
      ["երեվանում", [yerevan]],
      ["գրասենյակ", [yerevan]],
      ["łodzi", [lodz]],
      ["żółte", [lodz]],
      ["zołte", [lodz]],
    ];
    for (const [query, sessions] of cases)
      expect({ query, found: await found(query) }).toEqual({ query, found: sessions });
    // Folding follows FTS5: the tonos and the Polish ł stay letters of their own.
    expect(await found("γραφείο στην αθηνα")).toEqual([]);
    expect(await found("lodzi")).toEqual([]);
    expect(await found("zolte")).toEqual([]);
  });
});

const pgUrl = testPostgresUrl();

describe.skipIf(!pgUrl)("the case-folding migration (PARLEY_TEST_DB)", () => {
  test("folds the terms made before it, and the leads' index is rebuilt", async () => {
    const deps = buildDeps();
    try {
      // The old shape: the function of migration 0013, which folds accents only, and terms made by it.
      const { sql, tenant, session, messageTerms } = await searchAsBefore(deps, {
        before: "_desk_handoff_and_accents",
        dropped: "parley_fold_letters",
        message: "Офис в МОСКВЕ, São Paulo",
        leadName: "ΝΙΚΟΣ Παπαδόπουλος",
      });
      expect(await messageTerms()).toEqual(["paulo", "sao", "в", "МОСКВЕ", "Офис"].sort());

      for (const statement of pgMigrationStatements("_search_folds_case")) await sql.run(statement);
      expect(await messageTerms()).toEqual(["paulo", "sao", "в", "москве", "офис"].sort());
      for (const query of ["москве", "ОФИС", "νικος", "παπαδόπουλος"])
        expect({ query, found: await searchChats(deps, tenant.id, null, query, { limit: 5 }) }).toMatchObject({
          query,
          found: { data: [{ session_id: session.id }] },
        });
    } finally {
      closeDeps(deps);
    }
  });
});
