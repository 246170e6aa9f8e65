import { knowledgeTermForms, tokenizeKnowledge } from "./terms.ts";

/**
 * When a chunk counts as relevant to a question. BM25 scores are unbounded and grow with the
 * question's length, so no fixed BM25 threshold means the same thing for "parking?" and for a
 * long question. Instead the lexical test is **IDF coverage**: the share of the question's
 * information (the IDF of its meaningful words) that the chunk matches,
 *
 *   coverage(chunk) = Σ idf(w)·weight(w) over the words w the chunk matches / Σ idf(w)·weight(w) over all words,
 *
 * with idf(w) = ln(1 + (N − df + 0.5) / (df + 0.5)), BM25's own IDF (N counts BACKGROUND_ENTRIES
 * too). A word found nowhere in the tenant's knowledge (df = 0: "weather", "medicaid") carries
 * the highest IDF, so a question about something the business never wrote about cannot pass
 * on its other words. A chunk passes at MIN_COVERAGE (bench/retrieval.ts, docs/design-notes.md);
 * with vectors, a cosine of DEFAULT_MIN_SIMILARITY also passes (search.ts).
 */

export const MIN_COVERAGE = 0.3;
/** Cosine between unit vectors at which a chunk counts as relevant by meaning alone. */
export const DEFAULT_MIN_SIMILARITY = 0.5;
/** Weight of the previous question's words carried into a follow-up searched without a rewrite. */
export const CONTEXT_WEIGHT = 0.3;

export interface QueryWord {
  forms: string[];
  weight: number;
}

function wordsOf(text: string): string[][] {
  const seen = new Set<string>();
  const words: string[][] = [];
  for (const token of tokenizeKnowledge(text)) {
    const forms = knowledgeTermForms(token);
    const key = forms[0];
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    words.push(forms);
  }
  return words;
}

/**
 * The question's meaningful words at weight 1, then the context's other words. The context as a
 * whole weighs at most CONTEXT_WEIGHT of the question's own words, however long it is.
 */
export function queryWords(text: string, context = ""): QueryWord[] {
  const own = wordsOf(text).map((forms) => ({ forms, weight: 1 }));
  const ownForms = new Set(own.flatMap((word) => word.forms));
  const others = wordsOf(context).filter((forms) => !forms.some((form) => ownForms.has(form)));
  const weight = CONTEXT_WEIGHT * Math.min(1, Math.max(1, own.length) / Math.max(1, others.length));
  return [...own, ...others.map((forms) => ({ forms, weight }))];
}

/**
 * IDF is computed as if the tenant's entries sat among this many general entries that contain
 * none of the question's words. Without it a small knowledge base (an FAQ of a few entries)
 * gives its own main topic an IDF near zero — "porcelain crown" in every entry of a crown
 * clinic's FAQ — and no question about that topic could pass the gate. With hundreds of
 * entries its effect fades.
 */
export const BACKGROUND_ENTRIES = 50;

/** BM25's IDF of a word over `entries` chunks; its most frequent form decides (a stem shared by many words is common). */
export function wordIdf(word: QueryWord, documentFrequency: ReadonlyMap<string, number>, entries: number): number {
  const df = Math.max(0, ...word.forms.map((form) => documentFrequency.get(form) ?? 0));
  const n = entries + BACKGROUND_ENTRIES;
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * The share of the words' IDF weight a chunk matches. `chunkTerms` are the chunk's terms that
 * matched the question and `matchedForms` the question's forms that found them (MiniSearch's
 * `terms` and `queryTerms`). A word whose form is itself among the chunk's terms counts
 * fully; one that matched only by prefix or as a typo ("charge" for "change", "tempo" for
 * "temporary") counts INEXACT_CREDIT, so a near-miss cannot pass alone.
 */
export function idfCoverage(
  words: readonly QueryWord[],
  chunkTerms: ReadonlySet<string>,
  matchedForms: ReadonlySet<string>,
  idfs: readonly number[],
): number {
  let total = 0;
  let covered = 0;
  words.forEach((word, position) => {
    const mass = (idfs[position] ?? 0) * word.weight;
    total += mass;
    if (word.forms.some((form) => chunkTerms.has(form))) covered += mass;
    else if (word.forms.some((form) => matchedForms.has(form))) covered += mass * INEXACT_CREDIT;
  });
  return total > 0 ? covered / total : 0;
}

const INEXACT_CREDIT = 0.5;
