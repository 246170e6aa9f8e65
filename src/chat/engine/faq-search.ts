import MiniSearch, { type SearchResult } from "minisearch";
import type { FaqEntry } from "./bot-config.ts";
import { containsPhrase, normalizeForMatching } from "./intents.ts";
import {
  ACTION_TERMS,
  GENERIC_TOPIC_WORDS,
  allowsPrefix,
  fuzzyFraction,
  meaningfulWords,
  phraseWords,
  termForms,
  termMatch,
  tokenize,
} from "./faq-terms.ts";

export { normalizeTerm } from "./faq-terms.ts";

/**
 * Fuzzy FAQ lookup on MiniSearch. Raw MiniSearch scores (BM25+, boosted, fuzzy-discounted)
 * are unbounded and shift with the size of the FAQ, so they only rank; the confidence is
 * computed separately as a weighted coverage of the visitor's words:
 *
 *   confidence = Σ quality(word) / Σ weight(word)
 *
 * quality: 1 when the word is in the entry's question or keywords, 0.5 when it is one word of
 * a multi-word keyword the message does not contain whole ("first" of "first-time buyer"),
 * 0.3 when only in the answer; × 0.95 when only its stem matched ("cancelling" for
 * "cancellation"), × 0.85 when matched by prefix or typo tolerance; 0 when the entry lacks it.
 * weight: 1 for a word the FAQ knows (any entry has it) or that the engine acts on (booking
 * and buying words); 0.25 for a word no entry has ("near", "clinic"), once the entry matched
 * a topic word for sure (exactly or by stem, in its question or keywords, not "where"): an
 * unknown word cannot point at another entry, so it only dilutes a little. Without such an
 * anchor (a typo match, "where" alone) unknown words weigh 1, and a message of unknown words
 * scores 0.
 * Generic words ("accept", "cars", "teeth": GENERIC_TOPIC_WORDS) count for nothing, matched or
 * not, when the message has any other word: the topic must match, not the verb around it.
 * A keyword made only of stop words ("how much") found in the message counts as one more
 * matched word for its entry.
 */

export interface FaqMatch {
  entry: FaqEntry;
  confidence: number;
  /** Meaningful words of the message that no FAQ entry contains (names, places, gibberish). */
  unknownWords: number;
  /** Those words (first form each), for the topic check of an answer's opening "yes". */
  unknownTerms: readonly string[];
  /** Words of the message this entry matched (generic ones not counted). */
  matchedWords: number;
}

interface IndexedFaq {
  position: number;
  question: string;
  keywords: string;
  phrases: string;
  answer: string;
}

interface EntryPhrases {
  /** Multi-word keywords with meaningful words, as phraseWords. */
  phrases: string[][];
  /** Keywords made only of stop words ("how much"), as written. */
  stopPhrases: string[];
}

interface FaqIndex {
  search: MiniSearch<IndexedFaq>;
  phrases: EntryPhrases[];
  /**
   * Recent results by message. Quick replies send the same texts over and over, and a fuzzy
   * search costs tens of microseconds; positions (not entries) are kept because an index is
   * shared by equal FAQ arrays.
   */
  recent: Map<string, RankedPosition[]>;
}

interface RankedPosition {
  position: number;
  confidence: number;
  unknownWords: number;
  unknownTerms: readonly string[];
  matchedWords: number;
}

const FIELD_BOOSTS = { question: 3, keywords: 2, phrases: 2, answer: 0.5 } as const;
// An answer-only hit stays below the default 0.35 threshold on its own: answers use many words.
const FIELD_QUALITY: Record<string, number> = { question: 1, keywords: 1, phrases: 0.5, answer: 0.3 };
const INEXACT_FACTOR = 0.85;
/** Same word family, not the same word: "cancelling" for "cancellation". */
const STEM_FACTOR = 0.95;
const UNKNOWN_WORD_WEIGHT = 0.25;
/** Keywords that ask rather than name a topic: "where" alone does not make "the nearest hospital" ours. */
const QUESTION_WORDS: ReadonlySet<string> = new Set(["where", "why"]);
/** Indexes kept by content for callers that rebuild the FAQ array on every request. */
const MAX_CONTENT_CACHE_ENTRIES = 256;
const MAX_RECENT_RESULTS = 512;
/** Candidates ranked per search; enough for any `limit` the engine asks for. */
const RANKED_CANDIDATES = 6;

const INDEX_BY_ARRAY = new WeakMap<readonly FaqEntry[], FaqIndex>();
const INDEX_BY_CONTENT = new Map<string, FaqIndex>();

const SEARCH_OPTIONS = { boost: FIELD_BOOSTS, combineWith: "OR", fuzzy: fuzzyFraction, prefix: allowsPrefix } as const;

function buildIndex(faq: readonly FaqEntry[]): FaqIndex {
  const search = new MiniSearch<IndexedFaq>({
    idField: "position",
    fields: ["question", "keywords", "phrases", "answer"],
    processTerm: termForms,
    searchOptions: SEARCH_OPTIONS,
  });
  const phrases = faq.map((entry): EntryPhrases => {
    const multiWord = (entry.keywords ?? []).filter((keyword) => phraseWords(keyword).length > 1);
    const isStopOnly = (keyword: string): boolean => tokenize(keyword).every((token) => termForms(token).length === 0);
    return {
      phrases: multiWord.filter((keyword) => !isStopOnly(keyword)).map(phraseWords),
      stopPhrases: multiWord.filter(isStopOnly),
    };
  });
  search.addAll(
    faq.map((entry, position) => {
      const keywords = entry.keywords ?? [];
      const single = keywords.filter((keyword) => phraseWords(keyword).length <= 1);
      const multi = keywords.filter((keyword) => phraseWords(keyword).length > 1);
      return {
        position,
        question: entry.question,
        keywords: single.join(" "),
        phrases: multi.join(" "),
        answer: entry.answer,
      };
    }),
  );
  return { search, phrases, recent: new Map() };
}

/**
 * The index for this FAQ array: by identity first (free), then by content (one
 * JSON.stringify, far cheaper than indexing), so a config re-read from the database on every
 * message still reuses its index. The content cache is bounded and evicts the oldest entry.
 */
function indexFor(faq: readonly FaqEntry[]): FaqIndex {
  const byArray = INDEX_BY_ARRAY.get(faq);
  if (byArray) return byArray;
  const key = JSON.stringify(faq);
  let index = INDEX_BY_CONTENT.get(key);
  if (index) {
    INDEX_BY_CONTENT.delete(key);
  } else {
    index = buildIndex(faq);
    if (INDEX_BY_CONTENT.size >= MAX_CONTENT_CACHE_ENTRIES) {
      const oldest = INDEX_BY_CONTENT.keys().next().value;
      if (oldest !== undefined) INDEX_BY_CONTENT.delete(oldest);
    }
  }
  INDEX_BY_CONTENT.set(key, index);
  INDEX_BY_ARRAY.set(faq, index);
  return index;
}

/** The message read once: its words, whether the FAQ knows each, and what phrase tests need. */
interface Query {
  words: string[][];
  known: boolean[];
  /** Per word: it names no topic of its own (GENERIC_TOPIC_WORDS) while another word does, so it is not counted. */
  ignored: boolean[];
  tokens: ReadonlySet<string>;
  normalized: string;
}

function matchesAnyForm(forms: readonly string[], docTerm: string): boolean {
  return forms.some((form) => termMatch(form, docTerm) !== null);
}

/** Document terms covered by the entry's multi-word keywords that the message contains whole. */
function wholePhraseTerms(phrases: EntryPhrases, query: Query): Set<string> {
  const covered = new Set<string>();
  for (const phrase of phrases.phrases) {
    const present = phrase.every((word) => {
      const forms = termForms(word);
      if (forms.length === 0) return query.tokens.has(word);
      return query.words.some((queryForms) => forms.some((form) => matchesAnyForm(queryForms, form)));
    });
    if (present) for (const word of phrase) for (const form of termForms(word)) covered.add(form);
  }
  return covered;
}

function scoreEntry(
  result: SearchResult,
  phrases: EntryPhrases,
  query: Query,
): { confidence: number; matchedWords: number } {
  const whole = wholePhraseTerms(phrases, query);
  let total = 0;
  let matchedWords = 0;
  let anchored = false;
  query.words.forEach((forms, position) => {
    if (query.ignored[position]) return;
    let best = 0;
    for (const [docTerm, fields] of Object.entries(result.match)) {
      const factor =
        forms[0] === docTerm
          ? 1
          : forms.includes(docTerm)
            ? STEM_FACTOR
            : matchesAnyForm(forms, docTerm)
              ? INEXACT_FACTOR
              : 0;
      if (factor === 0) continue;
      const quality = Math.max(
        0,
        ...fields.map((field) => (field === "phrases" && whole.has(docTerm) ? 1 : (FIELD_QUALITY[field] ?? 0))),
      );
      best = Math.max(best, quality * factor);
    }
    total += best;
    if (best > 0) matchedWords += 1;
    anchored ||= best >= STEM_FACTOR && !QUESTION_WORDS.has(forms[0] ?? "");
  });
  // Unknown words only dilute a little once a topic word matched for sure: "where is the
  // nearest hospital" (only "where") or "who won last night" ("night" ~ "light") stay weak.
  let weight = query.known.reduce(
    (sum, isKnown, position) => sum + (query.ignored[position] ? 0 : isKnown || !anchored ? 1 : UNKNOWN_WORD_WEIGHT),
    0,
  );
  for (const stopPhrase of phrases.stopPhrases) {
    if (!containsPhrase(query.normalized, stopPhrase)) continue;
    total += 1;
    weight += 1;
  }
  const confidence = weight === 0 ? 0 : Math.round(Math.min(1, total / weight) * 1000) / 1000;
  return { confidence, matchedWords };
}

function rankPositions(index: FaqIndex, message: string): RankedPosition[] {
  const cached = index.recent.get(message);
  if (cached) return cached;
  const words = meaningfulWords(message);
  const results = words.length === 0 ? [] : index.search.search(words.flat().join(" "));
  const docTerms = [...new Set(results.flatMap((result) => Object.keys(result.match)))];
  const known = words.map(
    (forms) =>
      forms.some((form) => ACTION_TERMS.has(form)) || docTerms.some((docTerm) => matchesAnyForm(forms, docTerm)),
  );
  const generic = words.map((forms) => forms.some((form) => GENERIC_TOPIC_WORDS.has(form)));
  const query: Query = {
    words,
    known,
    ignored: generic.includes(false) ? generic : generic.map(() => false),
    tokens: new Set(phraseWords(message)),
    normalized: normalizeForMatching(message),
  };
  const unknownTerms = words.flatMap((forms, position) => (known[position] ? [] : [forms[0] ?? ""]));
  const unknownWords = unknownTerms.length;
  const positions = results
    .slice(0, RANKED_CANDIDATES)
    .map((result, rank) => {
      const position = Number(result.id);
      const phrases = index.phrases[position] ?? { phrases: [], stopPhrases: [] };
      return { position, ...scoreEntry(result, phrases, query), unknownWords, unknownTerms, rank };
    })
    // Confidence decides; the raw score's rank breaks ties (more field hits, rarer words).
    .sort((a, b) => b.confidence - a.confidence || a.rank - b.rank)
    .map(({ rank: _rank, ...ranked }) => ranked);
  if (index.recent.size >= MAX_RECENT_RESULTS) index.recent.clear();
  index.recent.set(message, positions);
  return positions;
}

/** Up to `limit` entries for `message`, most confident first; empty when nothing matched. */
export function searchFaq(faq: readonly FaqEntry[], message: string, limit = 3): FaqMatch[] {
  if (faq.length === 0) return [];
  return rankPositions(indexFor(faq), message)
    .slice(0, limit)
    .flatMap(({ position, ...scores }) => {
      const entry = faq[position];
      return entry ? [{ entry, ...scores }] : [];
    });
}

/** The single best entry, or null when the FAQ has nothing for this message. */
export function findBestFaq(faq: readonly FaqEntry[], message: string): FaqMatch | null {
  return searchFaq(faq, message, 1)[0] ?? null;
}
