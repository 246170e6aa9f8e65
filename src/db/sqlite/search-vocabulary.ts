import type { Database } from "bun:sqlite";
import { indexedTerms, TOP } from "../search-terms.ts";

// FTS5 merges every doclist of a prefix query before its first match, but walks an OR of exact
// terms lazily; so a prefix becomes the OR of its words (behind the tenant's key). The table may
// hold more words than the index for a while, never fewer: a missing word would lose matches.

/** Past this many words the prefix query stays. */
export const EXPANSION_BOUND = 64;
/** Terms unicode61 keeps as they are; others go through FTS5's own tokenizer (it folds Latin diacritics only). */
const PLAIN = /^[a-z0-9]+$/;
const PREFIX = /"([^"]*)"\*/g;

export const WORDS_WITH_PREFIX =
  "SELECT term FROM search_vocabulary WHERE term >= ?1 AND term < ?2 ORDER BY term LIMIT ?3";

export type ErasedTable = "leads" | "chatSessions";

export interface SearchVocabulary {
  remember(terms: Iterable<string>): void;
  /** Each plain prefix as the OR of its words, within the bound. */
  expand(match: string): string;
  /** Runs erase, then takes out the words of the erased texts that no indexed row still has. */
  erasing<T>(table: ErasedTable, ids: readonly string[], erase: () => T): T;
  /** The same for leads' replaced texts (kept by migration 0020's trigger). */
  forgetReplaced(): void;
}

export function sqliteSearchVocabulary(sqlite: Database): SearchVocabulary {
  // A scratch index per connection, to learn how FTS5 tokenizes a non-ASCII term.
  sqlite.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_scratch USING fts5(terms, tokenize='unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_scratch_words USING fts5vocab(temp, search_scratch, row)`);
  const scratchPut = sqlite.prepare<unknown, [string]>("INSERT INTO temp.search_scratch (terms) VALUES (?1)");
  const scratchWords = sqlite.prepare<{ term: string }, []>("SELECT term FROM temp.search_scratch_words");
  const scratchClear = sqlite.prepare("DELETE FROM temp.search_scratch");
  const add = sqlite.prepare<unknown, [string]>("INSERT OR IGNORE INTO search_vocabulary (term) VALUES (?1)");
  const remove = sqlite.prepare<unknown, [string]>("DELETE FROM search_vocabulary WHERE term = ?1");
  const withPrefix = sqlite.prepare<{ term: string }, [string, string, number]>(WORDS_WITH_PREFIX);
  const stillIndexed = ["chat_messages_fts", "leads_fts"].map((fts) =>
    sqlite.prepare<{ one: number }, [string]>(`SELECT 1 AS one FROM ${fts} WHERE ${fts} MATCH ?1 LIMIT 1`),
  );
  const erasedTexts: Record<
    ErasedTable,
    ReturnType<typeof sqlite.prepare<{ tenantId: string; text: string }, [string]>>
  > = {
    leads: sqlite.prepare(
      `SELECT tenant_id AS tenantId, name || ' ' || email || ' ' || phone AS text FROM leads
         WHERE id IN (SELECT value FROM json_each(?1))`,
    ),
    chatSessions: sqlite.prepare(
      `SELECT tenant_id AS tenantId, text FROM chat_messages
         WHERE session_id IN (SELECT value FROM json_each(?1)) AND role <> 'bot'`,
    ),
  };

  const replaced = sqlite.prepare<{ tenantId: string; text: string }, []>(
    "SELECT tenant_id AS tenantId, text FROM search_vocabulary_stale",
  );
  const replacedDone = sqlite.prepare("DELETE FROM search_vocabulary_stale");

  const tokens = (terms: Iterable<string>): Set<string> => {
    const words = new Set<string>();
    const other: string[] = [];
    for (const term of terms) {
      if (PLAIN.test(term)) words.add(term);
      else if (term.length > 0) other.push(term);
    }
    if (other.length > 0) {
      scratchPut.run(other.join(" "));
      for (const { term } of scratchWords.all()) words.add(term);
      scratchClear.run();
    }
    return words;
  };

  const forgetUnused = (texts: Array<{ tenantId: string; text: string }>) => {
    const terms = texts.flatMap((row) => indexedTerms(row.tenantId, row.text).split(" "));
    for (const word of tokens(terms))
      if (!stillIndexed.some((statement) => statement.get(`"${word}"`) !== null)) remove.run(word);
  };

  return {
    remember: (terms) => {
      for (const word of tokens(terms)) add.run(word);
    },
    expand: (match) =>
      match.replace(PREFIX, (whole, prefix: string) => {
        if (!PLAIN.test(prefix)) return whole;
        const words = withPrefix.all(prefix, prefix + TOP, EXPANSION_BOUND + 1).map((row) => row.term);
        if (words.length > EXPANSION_BOUND) return whole;
        if (words.length === 0) return `"${prefix}"`;
        return `(${words.map((word) => `"${word}"`).join(" OR ")})`;
      }),
    erasing: (table, ids, erase) => {
      const texts = ids.length === 0 ? [] : erasedTexts[table].all(JSON.stringify(ids));
      const result = erase();
      forgetUnused([...texts, ...replaced.all()]);
      replacedDone.run();
      return result;
    },
    forgetReplaced: () => {
      forgetUnused(replaced.all());
      replacedDone.run();
    },
  };
}
