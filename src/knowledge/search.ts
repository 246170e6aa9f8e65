import type { Deps } from "../deps.ts";
import { dotProduct, encodeVector, normalizeVector, type Embedder } from "./embedder.ts";
import { DEFAULT_FUSION, fuse, type Candidate, type FusionName } from "./fusion.ts";
import { DEFAULT_MIN_SIMILARITY, idfCoverage, MIN_COVERAGE, queryWords, wordIdf } from "./relevance.ts";
import {
  embeddingText,
  loadProposedIndex,
  loadTenantIndex,
  type FaqVectors,
  type IndexEntry,
  type KnowledgeProposal,
  type TenantIndex,
} from "./tenant-index.ts";

/**
 * Ranked retrieval over a tenant's knowledge, in three steps:
 *
 * 1. Match: BM25 over the question (and each of its variants: a standalone rewrite, a
 *    translation), and with an embedder the cosine of each chunk's vector to the question's.
 * 2. Gate: a chunk is kept only when it is relevant — its IDF coverage of the question reaches
 *    MIN_COVERAGE, or its cosine reaches the similarity threshold (relevance.ts). A question the
 *    knowledge does not answer ("what's the weather?") keeps nothing.
 * 3. Order: BM25 alone without an embedder; with one, the fusion of fusion.ts.
 */

export interface KnowledgeHit {
  chunk_id: string;
  document_id: string;
  title: string;
  url: string | null;
  /** The heading path (for an FAQ entry, its question), then the chunk's text. */
  text: string;
  score: number;
  bm25_rank?: number;
  vector_rank?: number;
  /** Share of the question's IDF weight the chunk matches (relevance.ts). */
  coverage?: number;
  /** Cosine of the chunk's vector to the question's. */
  similarity?: number;
}

/**
 * A question as search sees it: `variants` are phrasings of the same question (the visitor's
 * words, a standalone rewrite, an English translation), each matched on its own and the best
 * counting; `context` holds earlier words carried at CONTEXT_WEIGHT (a follow-up's previous question).
 */
export interface KnowledgeQuery {
  variants: string[];
  context?: string;
}

export interface SearchOptions {
  limit?: number;
  embedder?: Embedder | null;
  /** The cosine at which a chunk counts as relevant by meaning; else the embedder's, else the default. */
  minSimilarity?: number;
  fusion?: FusionName;
  /** Search the knowledge as this change would leave it (a dry run), not as it is. */
  proposal?: KnowledgeProposal;
}

export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 20;
/**
 * Chunks without a vector of the embedder's model (added without an embedder, or under an
 * earlier model) are embedded lazily, at most this many per search, in the same request as
 * the query. A tenant that changes model converges over its next searches.
 */
export const LAZY_EMBED_BATCH = 32;
/** How deep each list (per question variant) is read: the gate and the fusion look no further. */
const CANDIDATES = 50;

interface LexicalMatch {
  score: number;
  coverage: number;
}

function lexicalMatches(
  index: TenantIndex,
  variants: readonly string[],
  context: string,
): Map<IndexEntry, LexicalMatch> {
  const matches = new Map<IndexEntry, LexicalMatch>();
  for (const variant of variants) {
    const words = queryWords(variant, context);
    if (words.length === 0) continue;
    const idfs = words.map((word) => wordIdf(word, index.documentFrequency, index.entries.length));
    const ownWords = words.filter((word) => word.weight === 1);
    const weights = new Map(words.flatMap((word) => word.forms.map((form) => [form, word.weight] as const)));
    const results = index.bm25.search(context ? `${variant}\n${context}` : variant, {
      boostTerm: (term: string) => weights.get(term) ?? 1,
    });
    for (const result of results.slice(0, CANDIDATES)) {
      const entry = index.entries[result.id as number] as IndexEntry;
      // The message's own words decide alone when they match; the carried context helps a follow-up
      // whose own words say little ("how much is it?"), never hurts one that is clear on its own.
      const chunkTerms = new Set(result.terms);
      const matchedForms = new Set(result.queryTerms);
      const coverage = Math.max(
        idfCoverage(ownWords, chunkTerms, matchedForms, idfs),
        idfCoverage(words, chunkTerms, matchedForms, idfs),
      );
      const best = matches.get(entry);
      matches.set(entry, {
        score: Math.max(best?.score ?? 0, result.score),
        coverage: Math.max(best?.coverage ?? 0, coverage),
      });
    }
  }
  return matches;
}

/**
 * Embeds the queries and up to LAZY_EMBED_BATCH stale entries in one call, stores the chunk
 * vectors (one short write transaction, after the provider answered) and keeps FAQ vectors in
 * memory. Returns the queries' unit vectors, or null when the embedder failed: the search then
 * falls back to BM25, never to an error.
 */
async function embedQueries(
  deps: Deps,
  index: TenantIndex,
  faqVectors: FaqVectors,
  embedder: Embedder,
  queries: string[],
): Promise<Float32Array[] | null> {
  const stale = index.entries.filter((entry) => entry.vectorModel !== embedder.model).slice(0, LAZY_EMBED_BATCH);
  let vectors: number[][];
  try {
    vectors = await embedder.embed([...queries, ...stale.map(embeddingText)]);
  } catch (error) {
    deps.log.error({
      msg: "knowledge embedding failed; ranking by BM25 only",
      model: embedder.model,
      error: String(error),
    });
    return null;
  }
  if (vectors.length !== stale.length + queries.length) {
    deps.log.error({
      msg: "knowledge embedder returned the wrong number of vectors",
      model: embedder.model,
      expected: stale.length + queries.length,
      got: vectors.length,
    });
    return null;
  }
  const rows: Array<{ id: number; vector: number[] }> = [];
  stale.forEach((entry, position) => {
    const vector = vectors[position + queries.length] as number[];
    entry.vector = normalizeVector(vector);
    entry.vectorModel = embedder.model;
    if (entry.rowId === null) faqVectors.set(embeddingText(entry), { model: embedder.model, vector: entry.vector });
    else rows.push({ id: entry.rowId, vector });
  });
  if (rows.length > 0) {
    const encoded = rows.map((row) => ({ id: row.id, embedding: encodeVector(row.vector), model: embedder.model }));
    await deps.store.transaction((tx) => tx.knowledge.storeChunkVectors(encoded));
  }
  return vectors.slice(0, queries.length).map((vector) => normalizeVector(vector));
}

/** The CANDIDATES entries most similar to any of the query vectors, with their best cosine. */
function similarities(index: TenantIndex, model: string, queries: readonly Float32Array[]): Map<IndexEntry, number> {
  const scored: Array<[IndexEntry, number]> = [];
  for (const entry of index.entries) {
    if (entry.vector === null || entry.vectorModel !== model) continue;
    let best = -1;
    for (const query of queries) best = Math.max(best, dotProduct(query, entry.vector));
    scored.push([entry, best]);
  }
  return new Map(scored.sort((a, b) => b[1] - a[1]).slice(0, CANDIDATES));
}

/** 1-based ranks of the entries by descending value. */
function ranksOf(values: Map<IndexEntry, number>): Map<IndexEntry, number> {
  return new Map([...values].sort((a, b) => b[1] - a[1]).map(([entry], position) => [entry, position + 1]));
}

function toHit(candidate: Candidate, score: number): KnowledgeHit {
  const { entry } = candidate;
  return {
    chunk_id: entry.chunkId,
    document_id: entry.documentId,
    title: entry.title,
    url: entry.url,
    text: embeddingText(entry),
    score,
    ...(candidate.bm25Rank === undefined ? {} : { bm25_rank: candidate.bm25Rank }),
    ...(candidate.vectorRank === undefined ? {} : { vector_rank: candidate.vectorRank }),
    ...(candidate.coverage === undefined ? {} : { coverage: candidate.coverage }),
    ...(candidate.similarity === undefined ? {} : { similarity: candidate.similarity }),
  };
}

/** The tenant's relevant chunks for `query`, best first (the tenant's FAQ included); none when nothing is relevant. */
export async function searchKnowledge(
  deps: Deps,
  tenantId: string,
  query: string | KnowledgeQuery,
  options: SearchOptions = {},
): Promise<KnowledgeHit[]> {
  const limit = Math.min(Math.max(1, Math.floor(options.limit ?? DEFAULT_SEARCH_LIMIT)), MAX_SEARCH_LIMIT);
  const { variants: raw, context = "" } = typeof query === "string" ? { variants: [query] } : query;
  const variants = raw.map((variant) => variant.trim()).filter((variant) => variant !== "");
  const { index, faqVectors } = options.proposal
    ? await loadProposedIndex(deps, tenantId, options.proposal)
    : await loadTenantIndex(deps, tenantId);
  if (index.entries.length === 0 || variants.length === 0) return [];
  const lexical = lexicalMatches(index, variants, context);
  const bm25Ranks = ranksOf(new Map([...lexical].map(([entry, match]) => [entry, match.score])));
  const embedder = options.embedder ?? null;
  const queryVectors = embedder ? await embedQueries(deps, index, faqVectors, embedder, variants) : null;
  const cosines =
    embedder && queryVectors ? similarities(index, embedder.model, queryVectors) : new Map<IndexEntry, number>();
  const vectorRanks = ranksOf(cosines);
  const minSimilarity = options.minSimilarity ?? embedder?.minSimilarity ?? DEFAULT_MIN_SIMILARITY;

  const candidates: Candidate[] = [];
  for (const entry of new Set([...lexical.keys(), ...cosines.keys()])) {
    const match = lexical.get(entry);
    const similarity = cosines.get(entry);
    if ((match?.coverage ?? 0) < MIN_COVERAGE && (similarity ?? -1) < minSimilarity) continue;
    candidates.push({
      entry,
      bm25: match?.score,
      bm25Rank: bm25Ranks.get(entry),
      coverage: match?.coverage,
      similarity,
      vectorRank: vectorRanks.get(entry),
    });
  }
  // Keyword-only, "max" orders by keyword strength alone: how much of the question a chunk
  // covers counts as much as its BM25 score, so a chunk answering the new part of a rewritten
  // follow-up is not outranked by one matching only the repeated old topic.
  return fuse(candidates, queryVectors ? (options.fusion ?? DEFAULT_FUSION) : "max")
    .slice(0, limit)
    .map(({ candidate, score }) => toHit(candidate, score));
}
