import MiniSearch, { type SearchResult } from "minisearch";
import type { FaqEntry } from "./bot-config.ts";

/**
 * Fuzzy FAQ lookup on MiniSearch. Raw MiniSearch scores (BM25+, boosted, fuzzy-discounted)
 * are unbounded and shift with the size of the FAQ, so they only rank; the confidence is
 * computed separately as a weighted coverage of the visitor's words:
 *
 *   confidence = Σ quality(term) / number of meaningful terms in the message
 *
 * where a term's quality is 1 when it appears in the entry's question or keywords, 0.3 when
 * it appears only in the answer, times 0.85 when it matched by typo tolerance or prefix rather
 * than exactly, and 0 when the entry lacks it. So "cancellation policy" against "What is your
 * cancellation policy?" is 1, "do you take insurence" against the insurance entry 0.85, and a
 * long message matching one incidental word of an answer stays far below the 0.35 threshold.
 */

export interface FaqMatch {
  entry: FaqEntry;
  confidence: number;
}

interface IndexedFaq {
  position: number;
  question: string;
  keywords: string;
  answer: string;
}

interface FaqIndex {
  search: MiniSearch<IndexedFaq>;
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
}

/**
 * Words that carry no topic, including the generic verbs of a question ("do you take …",
 * "can I get …"). Dropping them keeps "what are your …" from matching every question and
 * keeps them from diluting the coverage of the words that do matter.
 */
const STOP_WORDS = new Set(
  (
    "a an and are as at be been can could did do does for from get got have has how i i'd i'm if in is it it's me " +
    "my of on or our please should so tell that the there this to us we what what's when which who will with " +
    "would you your yours about any just know like need want much many hi hello hey thanks thank also really some " +
    "was were whether wondering question ask info information take see make give go offer provide yes no ok okay sure"
  ).split(" "),
);
const FIELD_BOOSTS = { question: 3, keywords: 2, answer: 0.5 } as const;
// An answer-only hit stays below the default 0.35 threshold on its own: answers use many words.
const FIELD_QUALITY: Record<string, number> = { question: 1, keywords: 1, answer: 0.3 };
const INEXACT_FACTOR = 0.85;
const FUZZY_FRACTION = 0.2;
/** Indexes kept by content for callers that rebuild the FAQ array on every request. */
const MAX_CONTENT_CACHE_ENTRIES = 256;
const MAX_RECENT_RESULTS = 512;
/** Candidates ranked per search; enough for any `limit` the engine asks for. */
const RANKED_CANDIDATES = 6;

const INDEX_BY_ARRAY = new WeakMap<readonly FaqEntry[], FaqIndex>();
const INDEX_BY_CONTENT = new Map<string, FaqIndex>();

/** Lower-case, drop stop words and a plural "s", so "Prices?" finds "price". */
export function normalizeTerm(term: string): string | null {
  const lower = term.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
  if (lower.length < 2 || STOP_WORDS.has(lower)) return null;
  if (lower.length > 3 && lower.endsWith("s") && !lower.endsWith("ss")) return lower.slice(0, -1);
  return lower;
}

const SEARCH_OPTIONS = {
  boost: FIELD_BOOSTS,
  combineWith: "OR",
  // Typos get one edit per five letters; short words must match exactly or as a prefix.
  fuzzy: (term: string) => (term.length > 4 ? FUZZY_FRACTION : false),
  prefix: (term: string) => term.length > 3,
} as const;

function buildIndex(faq: readonly FaqEntry[]): FaqIndex {
  const search = new MiniSearch<IndexedFaq>({
    idField: "position",
    fields: ["question", "keywords", "answer"],
    processTerm: normalizeTerm,
    searchOptions: SEARCH_OPTIONS,
  });
  search.addAll(
    faq.map((entry, position) => ({ position, question: entry.question, keywords: (entry.keywords ?? []).join(" "), answer: entry.answer })),
  );
  return { search, recent: new Map() };
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

/** Whether document term `docTerm` is what query term `queryTerm` matched, exactly or not. */
function termMatches(queryTerm: string, docTerm: string): boolean {
  if (docTerm === queryTerm) return true;
  if (SEARCH_OPTIONS.prefix(queryTerm) && docTerm.startsWith(queryTerm)) return true;
  if (queryTerm.length <= 4) return false;
  return editDistanceAtMost(queryTerm, docTerm, Math.round(queryTerm.length * FUZZY_FRACTION));
}

function confidenceFor(result: SearchResult, queryTerms: readonly string[]): number {
  let total = 0;
  for (const queryTerm of queryTerms) {
    let best = 0;
    for (const [docTerm, fields] of Object.entries(result.match)) {
      if (!termMatches(queryTerm, docTerm)) continue;
      const fieldQuality = Math.max(0, ...fields.map((field) => FIELD_QUALITY[field] ?? 0));
      best = Math.max(best, fieldQuality * (docTerm === queryTerm ? 1 : INEXACT_FACTOR));
    }
    total += best;
  }
  return queryTerms.length === 0 ? 0 : Math.round((total / queryTerms.length) * 1000) / 1000;
}

/** Levenshtein distance ≤ max, with an early exit once every path exceeds it. */
function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return false;
    previous = current;
  }
  return (previous[b.length] ?? max + 1) <= max;
}

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

function meaningfulTerms(message: string): string[] {
  return [...new Set(tokenize(message).map(normalizeTerm).filter((term) => term !== null))];
}

function rankPositions(index: FaqIndex, message: string): RankedPosition[] {
  const cached = index.recent.get(message);
  if (cached) return cached;
  const queryTerms = meaningfulTerms(message);
  const ranked = queryTerms.length === 0 ? [] : index.search.search(message).slice(0, RANKED_CANDIDATES);
  const positions = ranked
    .map((result, rank) => ({ position: Number(result.id), confidence: confidenceFor(result, queryTerms), rank }))
    // Confidence decides; the raw score's rank breaks ties (more field hits, rarer words).
    .sort((a, b) => b.confidence - a.confidence || a.rank - b.rank)
    .map(({ position, confidence }) => ({ position, confidence }));
  if (index.recent.size >= MAX_RECENT_RESULTS) index.recent.clear();
  index.recent.set(message, positions);
  return positions;
}

/** Up to `limit` entries for `message`, most confident first; empty when nothing matched. */
export function searchFaq(faq: readonly FaqEntry[], message: string, limit = 3): FaqMatch[] {
  if (faq.length === 0) return [];
  return rankPositions(indexFor(faq), message)
    .slice(0, limit)
    .flatMap(({ position, confidence }) => {
      const entry = faq[position];
      return entry ? [{ entry, confidence }] : [];
    });
}

/** The single best entry, or null when the FAQ has nothing for this message. */
export function findBestFaq(faq: readonly FaqEntry[], message: string): FaqMatch | null {
  return searchFaq(faq, message, 1)[0] ?? null;
}
