import type { Deps } from "../deps.ts";
import { dotProduct, encodeVector, normalizeVector, type Embedder } from "./embedder.ts";
import { embeddingText, loadTenantIndex, type FaqVectors, type IndexEntry, type TenantIndex } from "./tenant-index.ts";

/**
 * Ranked retrieval over a tenant's knowledge: BM25 alone without an embedder, and with one,
 * BM25 and cosine similarity fused by reciprocal rank fusion (RRF, k = 60):
 *
 *   score(chunk) = Σ over the rankings it appears in of 1 / (60 + rank)
 *
 * RRF needs no score calibration between the two rankings, which is why it is used: a BM25
 * score is unbounded and a cosine lies in [-1, 1]. Without an embedder `score` is the BM25 score.
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
}

export interface SearchOptions {
  limit?: number;
  embedder?: Embedder | null;
}

export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 20;
/** How deep each ranking is read before fusion. */
const CANDIDATES = 50;
const RRF_K = 60;
/**
 * Chunks without a vector of the embedder's model (added without an embedder, or under an
 * earlier model) are embedded lazily, at most this many per search, in the same request as
 * the query. A tenant that changes model converges over its next searches.
 */
export const LAZY_EMBED_BATCH = 32;

function bm25Ranking(index: TenantIndex, query: string): Array<{ entry: IndexEntry; score: number }> {
  return index.bm25
    .search(query)
    .slice(0, CANDIDATES)
    .map((result) => ({ entry: index.entries[result.id as number] as IndexEntry, score: result.score }));
}

function vectorRanking(index: TenantIndex, model: string, query: Float32Array): IndexEntry[] {
  return index.entries
    .filter((entry) => entry.vector !== null && entry.vectorModel === model)
    .map((entry) => ({ entry, similarity: dotProduct(query, entry.vector as Float32Array) }))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, CANDIDATES)
    .map((ranked) => ranked.entry);
}

/**
 * Embeds the query and up to LAZY_EMBED_BATCH stale entries in one call, stores the chunk
 * vectors (one short write transaction, after the provider answered) and keeps FAQ vectors in
 * memory. Returns the query's unit vector, or null when the embedder failed: the search then
 * falls back to BM25, never to an error.
 */
async function embedQuery(deps: Deps, index: TenantIndex, faqVectors: FaqVectors, embedder: Embedder, query: string): Promise<Float32Array | null> {
  const stale = index.entries.filter((entry) => entry.vectorModel !== embedder.model).slice(0, LAZY_EMBED_BATCH);
  let vectors: number[][];
  try {
    vectors = await embedder.embed([query, ...stale.map(embeddingText)]);
  } catch (error) {
    deps.log.error({ msg: "knowledge embedding failed; ranking by BM25 only", model: embedder.model, error: String(error) });
    return null;
  }
  if (vectors.length !== stale.length + 1) {
    deps.log.error({ msg: "knowledge embedder returned the wrong number of vectors", model: embedder.model, expected: stale.length + 1, got: vectors.length });
    return null;
  }
  const rows: Array<{ id: number; vector: number[] }> = [];
  stale.forEach((entry, position) => {
    const vector = vectors[position + 1] as number[];
    entry.vector = normalizeVector(vector);
    entry.vectorModel = embedder.model;
    if (entry.rowId === null) faqVectors.set(embeddingText(entry), { model: embedder.model, vector: entry.vector });
    else rows.push({ id: entry.rowId, vector });
  });
  if (rows.length > 0) {
    const vectors = rows.map((row) => ({ id: row.id, embedding: encodeVector(row.vector), model: embedder.model }));
    await deps.store.transaction((tx) => tx.knowledge.storeChunkVectors(vectors));
  }
  return normalizeVector(vectors[0] as number[]);
}

const toHit = (entry: IndexEntry, score: number): KnowledgeHit => ({
  chunk_id: entry.chunkId,
  document_id: entry.documentId,
  title: entry.title,
  url: entry.url,
  text: embeddingText(entry),
  score,
});

/** The tenant's most relevant chunks for `query`, best first (the tenant's FAQ included). */
export async function searchKnowledge(deps: Deps, tenantId: string, query: string, options: SearchOptions = {}): Promise<KnowledgeHit[]> {
  const limit = Math.min(Math.max(1, Math.floor(options.limit ?? DEFAULT_SEARCH_LIMIT)), MAX_SEARCH_LIMIT);
  const { index, faqVectors } = await loadTenantIndex(deps, tenantId);
  if (index.entries.length === 0 || query.trim() === "") return [];
  const lexical = bm25Ranking(index, query);
  const embedder = options.embedder ?? null;
  const queryVector = embedder ? await embedQuery(deps, index, faqVectors, embedder, query) : null;
  if (!embedder || !queryVector) {
    return lexical.slice(0, limit).map((ranked, position) => ({ ...toHit(ranked.entry, ranked.score), bm25_rank: position + 1 }));
  }
  const fused = new Map<IndexEntry, { score: number; bm25_rank?: number; vector_rank?: number }>();
  lexical.forEach((ranked, position) => fused.set(ranked.entry, { score: 1 / (RRF_K + position + 1), bm25_rank: position + 1 }));
  vectorRanking(index, embedder.model, queryVector).forEach((entry, position) => {
    const current = fused.get(entry) ?? { score: 0 };
    fused.set(entry, { ...current, score: current.score + 1 / (RRF_K + position + 1), vector_rank: position + 1 });
  });
  return [...fused]
    .sort((a, b) => b[1].score - a[1].score)
    .slice(0, limit)
    .map(([entry, ranks]) => ({ ...toHit(entry, ranks.score), ...(ranks.bm25_rank ? { bm25_rank: ranks.bm25_rank } : {}), ...(ranks.vector_rank ? { vector_rank: ranks.vector_rank } : {}) }));
}
