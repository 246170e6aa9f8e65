import MiniSearch from "minisearch";
import type { Deps } from "../deps.ts";
import type { IndexedChunk, Store } from "../db/store.ts";
import { getBotConfig } from "../chat/bot-settings.ts";
import type { FaqEntry } from "../chat/engine/bot-config.ts";
import { allowsPrefix, fuzzyFraction } from "../chat/engine/faq-terms.ts";
import { knowledgeTermForms, tokenizeKnowledge } from "./terms.ts";
import { decodeVector, normalizeVector } from "./embedder.ts";

/**
 * The per-tenant, in-process search index: every chunk of the tenant's documents plus one
 * entry per FAQ question, in a MiniSearch index scored with plain Okapi BM25 (k1 = 1.2,
 * b = 0.75, MiniSearch's BM25+ δ set to 0), and each entry's unit vector when it has one.
 *
 * It is built on the first search and reused until it is stale. Staleness is probed on every
 * search with one covering-index query — (count, max id) of the tenant's chunks, which changes
 * on every insert and delete because chunk ids are AUTOINCREMENT and never reused — plus the
 * FAQ array of the bot config. So a tenant with thousands of chunks pays the build once per
 * change, not per question, and a change made by any code path is seen at the next search.
 */

export interface IndexEntry {
  /** `doc_…:<position>` for a document chunk, `faq:<id>` for an FAQ entry. */
  chunkId: string;
  /** knowledge_chunks.id, null for FAQ entries (their vectors live only in memory). */
  rowId: number | null;
  documentId: string;
  title: string;
  url: string | null;
  heading: string;
  text: string;
  vector: Float32Array | null;
  vectorModel: string | null;
}

export interface TenantIndex {
  entries: IndexEntry[];
  bm25: MiniSearch<{ position: number; title: string; heading: string; text: string }>;
  /** In how many entries each indexed term occurs: the IDF of the relevance gate (relevance.ts). */
  documentFrequency: Map<string, number>;
}

export type FaqVectors = Map<string, { model: string; vector: Float32Array }>;

interface CacheSlot {
  signature: string;
  faq: readonly FaqEntry[];
  index: TenantIndex;
  /** FAQ vectors by the text embedded, kept across rebuilds: FAQ entries have no row to store them in. */
  faqVectors: FaqVectors;
}

export const BM25_SEARCH_OPTIONS = {
  boost: { title: 2, heading: 2 },
  prefix: allowsPrefix,
  fuzzy: fuzzyFraction,
  combineWith: "OR",
  bm25: { k: 1.2, b: 0.75, d: 0 },
} as const;

/** Indexes kept per database, least recently used evicted first: memory stays bounded with many tenants. */
export const MAX_CACHED_TENANTS = 200;

const caches = new WeakMap<Store, Map<string, CacheSlot>>();

function slotsFor(deps: Pick<Deps, "store">): Map<string, CacheSlot> {
  let slots = caches.get(deps.store);
  if (!slots) {
    slots = new Map();
    caches.set(deps.store, slots);
  }
  return slots;
}

function buildIndex(rows: IndexedChunk[], faq: readonly FaqEntry[], faqVectors: FaqVectors): TenantIndex {
  const entries: IndexEntry[] = rows.map((row) => ({
    chunkId: `${row.documentId}:${row.position}`,
    rowId: row.id,
    documentId: row.documentId,
    title: row.title,
    url: row.sourceUrl,
    heading: row.heading,
    text: row.text,
    vector: row.embedding ? normalizeVector(decodeVector(row.embedding)) : null,
    vectorModel: row.embedding ? row.embeddingModel : null,
  }));
  for (const item of faq) {
    const entry: IndexEntry = {
      chunkId: `faq:${item.id}`,
      rowId: null,
      documentId: `faq:${item.id}`,
      title: item.question,
      url: null,
      heading: item.question,
      text: item.answer,
      vector: null,
      vectorModel: null,
    };
    const known = faqVectors.get(embeddingText(entry));
    if (known) {
      entry.vector = known.vector;
      entry.vectorModel = known.model;
    }
    entries.push(entry);
  }
  const bm25 = new MiniSearch<{ position: number; title: string; heading: string; text: string }>({
    idField: "position",
    fields: ["title", "heading", "text"],
    tokenize: tokenizeKnowledge,
    processTerm: knowledgeTermForms,
    searchOptions: BM25_SEARCH_OPTIONS,
  });
  // FAQ keywords are searchable too: they are how the owner said visitors ask.
  const documents = entries.map((entry, position) => {
    const keywords =
      entry.rowId === null ? (faq.find((item) => `faq:${item.id}` === entry.chunkId)?.keywords ?? []) : [];
    return { position, title: entry.title, heading: entry.heading, text: [entry.text, ...keywords].join("\n") };
  });
  bm25.addAll(documents);
  const documentFrequency = new Map<string, number>();
  for (const document of documents) {
    const terms = new Set(
      tokenizeKnowledge(`${document.title}\n${document.heading}\n${document.text}`).flatMap(knowledgeTermForms),
    );
    for (const term of terms) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  return { entries, bm25, documentFrequency };
}

/**
 * The knowledge as a proposed change would leave it (a dry run): another FAQ, documents added
 * (their chunks, not stored) or deleted. Nothing of the store changes.
 */
export interface KnowledgeProposal {
  faq?: readonly FaqEntry[];
  addedChunks?: readonly IndexedChunk[];
  removedDocumentIds?: readonly string[];
}

/**
 * The tenant's index under a proposal, built for one search and never cached. Every entry is
 * marked as having no row, so vectors a search computes for it stay in memory: a dry run
 * writes nothing, not even the vectors a real search would store.
 */
export async function loadProposedIndex(
  deps: Deps,
  tenantId: string,
  proposal: KnowledgeProposal,
): Promise<{ index: TenantIndex; faqVectors: FaqVectors }> {
  const faq = proposal.faq ?? (await getBotConfig(deps, tenantId)).faq;
  const removed = new Set(proposal.removedDocumentIds ?? []);
  const rows = (await deps.store.knowledge.listIndexedChunks(tenantId)).filter((row) => !removed.has(row.documentId));
  const faqVectors: FaqVectors = new Map(slotsFor(deps).get(tenantId)?.faqVectors ?? []);
  const index = buildIndex([...rows, ...(proposal.addedChunks ?? [])], faq, faqVectors);
  for (const entry of index.entries) entry.rowId = null;
  return { index, faqVectors };
}

/** What an entry's vector is computed from: its heading path and its text. */
export const embeddingText = (entry: Pick<IndexEntry, "heading" | "text">): string =>
  entry.heading === "" ? entry.text : `${entry.heading}\n${entry.text}`;

/** The tenant's index, rebuilt only when its chunks or FAQ changed since the last call. */
export async function loadTenantIndex(
  deps: Deps,
  tenantId: string,
): Promise<{ index: TenantIndex; faqVectors: FaqVectors }> {
  const faq = (await getBotConfig(deps, tenantId)).faq;
  const probe = await deps.store.knowledge.findChunkSignature(tenantId);
  const signature = `${probe.count}:${probe.maxId}`;
  const slots = slotsFor(deps);
  const slot = slots.get(tenantId);
  if (slot && slot.signature === signature && (slot.faq === faq || JSON.stringify(slot.faq) === JSON.stringify(faq))) {
    slot.faq = faq;
    // Map order is insertion order: re-inserting marks the slot as the most recently used.
    slots.delete(tenantId);
    slots.set(tenantId, slot);
    return slot;
  }
  const faqVectors: FaqVectors = slot?.faqVectors ?? new Map();
  // Two searches may rebuild the same tenant's index at once: both results are correct, the one
  // that finishes last stays in the cache.
  const rows = await deps.store.knowledge.listIndexedChunks(tenantId);
  const index = buildIndex(rows, faq, faqVectors);
  // Vectors of FAQ texts that no longer exist are dropped, so edits do not grow the map.
  const liveTexts = new Set(index.entries.filter((entry) => entry.rowId === null).map(embeddingText));
  for (const text of faqVectors.keys()) if (!liveTexts.has(text)) faqVectors.delete(text);
  const next: CacheSlot = { signature, faq, index, faqVectors };
  slots.delete(tenantId);
  slots.set(tenantId, next);
  if (slots.size > MAX_CACHED_TENANTS) slots.delete(slots.keys().next().value as string);
  return next;
}
