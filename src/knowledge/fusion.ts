import type { IndexEntry } from "./tenant-index.ts";

/**
 * How the keyword and vector lists become one ranking. Every candidate has already passed the
 * relevance gate (relevance.ts); a fusion only orders them. `lexical` is the chunk's keyword
 * strength in [0, 1] (half its IDF coverage, half its BM25 score over the best BM25 score of
 * the question); `similarity` is its cosine, clamped to [0, 1].
 *
 * - rrf: reciprocal rank fusion, Σ 1 / (60 + rank) — blind to scores, so a chunk ranked 4th in
 *   both lists beats one ranked 1st in one list only.
 * - rrf-capped: the same with each list cut at its first 10.
 * - max: the stronger of the two strengths, plus a tenth of the weaker — a strong hit from
 *   either list reaches the top; agreement only breaks ties.
 * - convex: the mean of the two strengths.
 *
 * Without vectors every chunk's vector strength is 0 and `max` orders by keyword strength.
 *
 * bench/retrieval.ts measures all four on the same questions; DEFAULT_FUSION is the best there
 * (docs/design-notes.md).
 */

export interface Candidate {
  entry: IndexEntry;
  bm25?: number;
  bm25Rank?: number;
  coverage?: number;
  similarity?: number;
  vectorRank?: number;
}

export const FUSION_NAMES = ["rrf", "rrf-capped", "max", "convex"] as const;
export type FusionName = (typeof FUSION_NAMES)[number];
export const DEFAULT_FUSION: FusionName = "max";

const RRF_K = 60;
const CAPPED_DEPTH = 10;

const reciprocal = (rank: number | undefined, depth = Number.POSITIVE_INFINITY): number =>
  rank !== undefined && rank <= depth ? 1 / (RRF_K + rank) : 0;

export function fuse(
  candidates: readonly Candidate[],
  fusion: FusionName,
): Array<{ candidate: Candidate; score: number }> {
  const bestBm25 = Math.max(0, ...candidates.map((candidate) => candidate.bm25 ?? 0));
  const lexical = (c: Candidate): number =>
    c.bm25 === undefined || bestBm25 === 0 ? 0 : 0.5 * (c.coverage ?? 0) + (0.5 * c.bm25) / bestBm25;
  const vector = (c: Candidate): number => Math.min(1, Math.max(0, c.similarity ?? 0));
  const scoreOf: Record<FusionName, (c: Candidate) => number> = {
    rrf: (c) => reciprocal(c.bm25Rank) + reciprocal(c.vectorRank),
    "rrf-capped": (c) => reciprocal(c.bm25Rank, CAPPED_DEPTH) + reciprocal(c.vectorRank, CAPPED_DEPTH),
    max: (c) => Math.max(lexical(c), vector(c)) + 0.1 * Math.min(lexical(c), vector(c)),
    convex: (c) => 0.5 * lexical(c) + 0.5 * vector(c),
  };
  return candidates
    .map((candidate) => ({ candidate, score: scoreOf[fusion](candidate) }))
    .sort((a, b) => b.score - a.score);
}
