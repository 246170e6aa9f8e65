import type { Deps } from "../deps.ts";
import type { KnowledgeFormat } from "../db/schema-knowledge.ts";
import type { KnowledgeDocumentRow } from "../db/store.ts";
import { notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { toPage, type Page } from "../lib/page.ts";
import { invalidField } from "../lib/validate.ts";
import { chunkText, type TextChunk } from "./chunk-text.ts";
import { encodeVector, type Embedder } from "./embedder.ts";
import { htmlToText } from "./html-to-text.ts";
import { assertKnowledgeRoom, inKnowledgeRoom } from "./limits.ts";

export interface NewDocument {
  title: string;
  content: string;
  format: KnowledgeFormat;
  sourceUrl?: string | null;
  /** The source it came from, with the page's validators as fetched (src/knowledge/sources.ts). */
  sourceId?: string;
  fetched?: PageValidators;
}

/** What the next conditional request of a page sends, and what tells an unchanged body. */
export interface PageValidators {
  etag: string | null;
  lastModified: string | null;
  contentHash: string | null;
}

export interface DocumentView {
  document_id: string;
  title: string;
  format: KnowledgeFormat;
  source_url: string | null;
  source_id: string | null;
  bytes: number;
  chunk_count: number;
  created_at: string;
}

export interface ChunkView {
  chunk_id: string;
  position: number;
  heading: string;
  text: string;
  embedding_model: string | null;
}

const toView = (row: KnowledgeDocumentRow): DocumentView => ({
  document_id: row.id,
  title: row.title,
  format: row.format,
  source_url: row.sourceUrl,
  source_id: row.sourceId,
  bytes: row.bytes,
  chunk_count: row.chunkCount,
  created_at: toIso(row.createdAt),
});

/** The text a document is chunked from: HTML through the parser, text, Markdown and a PDF's extracted text as they are. */
export function documentText(content: string, format: KnowledgeFormat): string {
  return format === "html" ? htmlToText(content).text : content.replace(/\r\n?/g, "\n").trim();
}

/** Texts per embeddings request: providers cap a request's inputs (OpenAI at 2,048) and tokens. */
export const EMBED_BATCH = 64;

/**
 * Vectors for the new chunks, computed before the write transaction (a provider call never
 * holds the database lock), EMBED_BATCH texts per request. A failing request is logged and
 * its chunks are stored without vectors; searchKnowledge embeds them lazily later, so a
 * provider outage never loses a document.
 */
export async function embedChunks(
  deps: Deps,
  chunks: TextChunk[],
  embedder: Embedder | null,
): Promise<Array<number[] | null>> {
  const vectors: Array<number[] | null> = chunks.map(() => null);
  if (!embedder) return vectors;
  for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
    const batch = chunks.slice(start, start + EMBED_BATCH);
    try {
      const answer = await embedder.embed(
        batch.map((chunk) => (chunk.heading === "" ? chunk.text : `${chunk.heading}\n${chunk.text}`)),
      );
      if (answer.length !== batch.length) {
        deps.log.error({
          msg: "knowledge embedder returned the wrong number of vectors",
          model: embedder.model,
          expected: batch.length,
          got: answer.length,
        });
        continue;
      }
      answer.forEach((vector, offset) => (vectors[start + offset] = vector));
    } catch (error) {
      deps.log.error({
        msg: "knowledge embedding failed; chunks stored without vectors",
        model: embedder.model,
        error: String(error),
      });
    }
  }
  return vectors;
}

/** A document as it would be stored: its title, text and chunks, or a 422 naming the field; then the plan's room checked (402). */
export async function prepareDocument(
  deps: Pick<Deps, "store">,
  tenantId: string,
  input: NewDocument,
  replacing?: { bytes: number },
): Promise<{ title: string; text: string; chunks: TextChunk[]; bytes: number }> {
  const title = input.title.trim();
  if (title === "") throw invalidField("title", "must not be empty");
  const text = documentText(input.content, input.format);
  const chunks = chunkText(text, { markdown: input.format !== "text" });
  if (chunks.length === 0) throw invalidField("content", "has no text to answer from");
  const bytes = Buffer.byteLength(text, "utf8");
  await assertKnowledgeRoom(deps.store, tenantId, bytes, replacing);
  return { title, text, chunks, bytes };
}

/**
 * Adds a document: converts it to text, chunks it, embeds the chunks when an embedder is
 * given, and stores document and chunks in one transaction that also re-checks the plan
 * limits (two concurrent uploads cannot both squeeze past them).
 */
export async function addDocument(
  deps: Deps,
  tenantId: string,
  input: NewDocument,
  embedder: Embedder | null,
): Promise<DocumentView> {
  // The plan's room is checked before the embedding call too, so a refused document costs no provider call.
  const { title, text, chunks, bytes } = await prepareDocument(deps, tenantId, input);
  const vectors = await embedChunks(deps, chunks, embedder);
  const now = deps.clock.now();
  const id = newId("doc", now);
  await inKnowledgeRoom(deps.store, tenantId, async (tx) => {
    await assertKnowledgeRoom(tx, tenantId, bytes);
    await tx.knowledge.insertDocument({
      id,
      tenantId,
      title,
      format: input.format,
      sourceUrl: input.sourceUrl ?? null,
      content: text,
      bytes,
      chunkCount: chunks.length,
      createdAt: now,
      sourceId: input.sourceId ?? null,
      etag: input.fetched?.etag ?? null,
      lastModified: input.fetched?.lastModified ?? null,
      contentHash: input.fetched?.contentHash ?? null,
    });
    await tx.knowledge.insertChunks(chunkRows(tenantId, id, chunks, vectors, embedder));
  });
  const view = {
    document_id: id,
    title,
    format: input.format,
    source_url: input.sourceUrl ?? null,
    source_id: input.sourceId ?? null,
  };
  return { ...view, bytes, chunk_count: chunks.length, created_at: toIso(now) };
}

/** A document's chunks as stored, each with its vector when it has one. */
export function chunkRows(
  tenantId: string,
  documentId: string,
  chunks: TextChunk[],
  vectors: Array<number[] | null>,
  embedder: Embedder | null,
) {
  return chunks.map((chunk, position) => {
    const vector = vectors[position];
    return {
      tenantId,
      documentId,
      position,
      heading: chunk.heading,
      text: chunk.text,
      embedding: vector ? encodeVector(vector) : null,
      embeddingModel: vector && embedder ? embedder.model : null,
    };
  });
}

/** The tenant's documents, newest first, without their text. */
export async function listDocuments(
  deps: Pick<Deps, "store">,
  tenantId: string,
  page: { limit: number; cursor?: string },
): Promise<Page<DocumentView>> {
  const rows = await deps.store.knowledge.listDocuments(tenantId, page.cursor ?? null, page.limit + 1);
  return toPage(rows, page.limit, (row) => row.id, toView);
}

/** One document with its text and chunks; another tenant's id is a 404 like a missing one. */
export async function getDocument(
  deps: Pick<Deps, "store">,
  tenantId: string,
  documentId: string,
): Promise<DocumentView & { content: string; chunks: ChunkView[] }> {
  const row = await deps.store.knowledge.findDocument(tenantId, documentId);
  if (!row) throw notFound("document");
  const chunks = (await deps.store.knowledge.listDocumentChunks(documentId)).map((chunk) => ({
    chunk_id: `${documentId}:${chunk.position}`,
    position: chunk.position,
    heading: chunk.heading,
    text: chunk.text,
    embedding_model: chunk.embeddingModel,
  }));
  return { ...toView(row), content: row.content, chunks };
}

/** Deletes a document and (by cascade) its chunks; the search index notices at its next use. */
export async function deleteDocument(deps: Pick<Deps, "store">, tenantId: string, documentId: string): Promise<void> {
  if (!(await deps.store.knowledge.deleteDocument(tenantId, documentId))) throw notFound("document");
}
