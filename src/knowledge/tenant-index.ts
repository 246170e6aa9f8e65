import MiniSearch from "minisearch";
import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
import { getBotConfig } from "../chat/bot-settings.ts";
import type { FaqEntry } from "../chat/bot-config.ts";
import { allowsPrefix, fuzzyFraction } from "../chat/faq-terms.ts";
import { knowledgeTermForms } from "./terms.ts";
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
}

export type FaqVectors = Map<string, { model: string; vector: Float32Array }>;

interface CacheSlot {
  signature: string;
  faq: readonly FaqEntry[];
  index: TenantIndex;
  /** FAQ vectors by the text embedded, kept across rebuilds: FAQ entries have no row to store them in. */
  faqVectors: FaqVectors;
}

interface ChunkRow {
  id: number;
  document_id: string;
  position: number;
  heading: string;
  text: string;
  embedding: Uint8Array | null;
  embedding_model: string | null;
  title: string;
  source_url: string | null;
}

const statements = preparedFor((sqlite) => ({
  signature: sqlite.prepare<{ n: number; m: number }, [string]>(
    "SELECT count(*) AS n, coalesce(max(id), 0) AS m FROM knowledge_chunks WHERE tenant_id = ?",
  ),
  chunks: sqlite.prepare<ChunkRow, [string]>(
    `SELECT c.id, c.document_id, c.position, c.heading, c.text, c.embedding, c.embedding_model, d.title, d.source_url
       FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id
      WHERE c.tenant_id = ? ORDER BY c.id`,
  ),
}));

export const BM25_SEARCH_OPTIONS = {
  boost: { title: 2, heading: 2 },
  prefix: allowsPrefix,
  fuzzy: fuzzyFraction,
  combineWith: "OR",
  bm25: { k: 1.2, b: 0.75, d: 0 },
} as const;

/** Indexes kept per database, least recently used evicted first: memory stays bounded with many tenants. */
export const MAX_CACHED_TENANTS = 200;

const caches = new WeakMap<Deps["sqlite"], Map<string, CacheSlot>>();

function slotsFor(deps: Deps): Map<string, CacheSlot> {
  let slots = caches.get(deps.sqlite);
  if (!slots) {
    slots = new Map();
    caches.set(deps.sqlite, slots);
  }
  return slots;
}

function buildIndex(rows: ChunkRow[], faq: readonly FaqEntry[], faqVectors: FaqVectors): TenantIndex {
  const entries: IndexEntry[] = rows.map((row) => ({
    chunkId: `${row.document_id}:${row.position}`,
    rowId: row.id,
    documentId: row.document_id,
    title: row.title,
    url: row.source_url,
    heading: row.heading,
    text: row.text,
    vector: row.embedding ? normalizeVector(decodeVector(row.embedding)) : null,
    vectorModel: row.embedding ? row.embedding_model : null,
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
    processTerm: knowledgeTermForms,
    searchOptions: BM25_SEARCH_OPTIONS,
  });
  // FAQ keywords are searchable too: they are how the owner said visitors ask.
  bm25.addAll(
    entries.map((entry, position) => {
      const keywords = entry.rowId === null ? (faq.find((item) => `faq:${item.id}` === entry.chunkId)?.keywords ?? []) : [];
      return { position, title: entry.title, heading: entry.heading, text: [entry.text, ...keywords].join("\n") };
    }),
  );
  return { entries, bm25 };
}

/** What an entry's vector is computed from: its heading path and its text. */
export const embeddingText = (entry: Pick<IndexEntry, "heading" | "text">): string =>
  entry.heading === "" ? entry.text : `${entry.heading}\n${entry.text}`;

/** The tenant's index, rebuilt only when its chunks or FAQ changed since the last call. */
export async function loadTenantIndex(deps: Deps, tenantId: string): Promise<{ index: TenantIndex; faqVectors: FaqVectors }> {
  // The one await comes first: from the probe on, the cache is read and replaced without a pause.
  const faq = (await getBotConfig(deps, tenantId)).faq;
  const probe = statements(deps.sqlite).signature.get(tenantId);
  const signature = `${probe?.n ?? 0}:${probe?.m ?? 0}`;
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
  const index = buildIndex(statements(deps.sqlite).chunks.all(tenantId), faq, faqVectors);
  // Vectors of FAQ texts that no longer exist are dropped, so edits do not grow the map.
  const liveTexts = new Set(index.entries.filter((entry) => entry.rowId === null).map(embeddingText));
  for (const text of faqVectors.keys()) if (!liveTexts.has(text)) faqVectors.delete(text);
  const next: CacheSlot = { signature, faq, index, faqVectors };
  slots.delete(tenantId);
  slots.set(tenantId, next);
  if (slots.size > MAX_CACHED_TENANTS) slots.delete(slots.keys().next().value as string);
  return next;
}
