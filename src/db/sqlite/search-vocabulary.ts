import type { Database } from "bun:sqlite";
import { indexedTerms } from "../search-terms.ts";

// The words of SQLite's search index (search_vocabulary, migration 0020), as FTS5 holds them:
// already behind their tenant's key, so a range of the table is one tenant's words with a prefix.
// FTS5 answers a prefix query only after merging the doclists of every term with that prefix (all
// of a common word's matches), while an OR of exact terms it walks lazily in rowid order; so a
// search's prefix becomes the OR of the words it stands for. The table may hold more words than
// the index for a while (a lead's old name until the next catch-up), never fewer: a word too
// many costs an empty term, a word missing would lose matches.

/** Words one query word may stand for; past it the prefix query stays (its cost grows with the words). */
export const EXPANSION_BOUND = 64;
/** Above every term: the upper end of a prefix's range (text compares by bytes). */
const TOP = "\u{10FFFF}";
/** Terms unicode61 keeps as they are; others go through FTS5's own tokenizer (it folds Latin diacritics only). */
const PLAIN = /^[a-z0-9]+$/;
/** A quoted prefix of the query (src/frontdesk/search-chats.ts): letters and digits only. */
const PREFIX = /"([^"]*)"\*/g;

/** The words in a range (a tenant's words with a prefix): a range of the primary key. */
export const WORDS_WITH_PREFIX =
  "SELECT term FROM search_vocabulary WHERE term >= ?1 AND term < ?2 ORDER BY term LIMIT ?3";

/** Who is erased: the texts whose words may leave the vocabulary. */
export type ErasedTable = "leads" | "chatSessions";

export interface SearchVocabulary {
  /** Adds the words of terms (src/db/search-terms.ts indexedTerms, space-separated) just indexed. */
  remember(terms: Iterable<string>): void;
  /** The query with each prefix of plain letters and digits written as the OR of its words, within the bound. */
  expand(match: string): string;
  /** Runs erase (which deletes the rows), then takes out the words of their texts that no row of the index still has. */
  erasing<T>(table: ErasedTable, ids: readonly string[], erase: () => T): T;
  /** Takes out the words of leads' replaced texts (migration 0020's trigger keeps them) that no row of the index still has. */
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

  /** The words FTS5 makes of the terms. */
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

  /** Takes out the words of the texts that no row of either index still holds (an exact-term query each). */
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
        // No word: nothing has the prefix, and the exact term says so as cheaply.
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
