import type { Deps } from "../deps.ts";
import { writeTransaction } from "../db/client.ts";
import { preparedFor } from "../db/prepared.ts";
import type { KnowledgeFormat } from "../db/schema-knowledge.ts";
import { notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { toPage, type Page } from "../lib/page.ts";
import { invalidField } from "../lib/validate.ts";
import { chunkText, type TextChunk } from "./chunk-text.ts";
import { encodeVector, type Embedder } from "./embedder.ts";
import { htmlToText } from "./html-to-text.ts";
import { assertKnowledgeRoom } from "./limits.ts";

export interface NewDocument {
  title: string;
  content: string;
  format: KnowledgeFormat;
  sourceUrl?: string | null;
}

export interface DocumentView {
  document_id: string;
  title: string;
  format: KnowledgeFormat;
  source_url: string | null;
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

interface DocumentRow {
  id: string;
  title: string;
  format: KnowledgeFormat;
  source_url: string | null;
  content: string;
  bytes: number;
  chunk_count: number;
  created_at: number;
}

const statements = preparedFor((sqlite) => ({
  insertDocument: sqlite.prepare<unknown, [string, string, string, string, string | null, string, number, number, number]>(
    "INSERT INTO knowledge_documents (id, tenant_id, title, format, source_url, content, bytes, chunk_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  ),
  insertChunk: sqlite.prepare<unknown, [string, string, number, string, string, Buffer | null, string | null]>(
    "INSERT INTO knowledge_chunks (tenant_id, document_id, position, heading, text, embedding, embedding_model) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ),
  page: sqlite.prepare<DocumentRow, [string, string | null, number]>(
    `SELECT id, title, format, source_url, '' AS content, bytes, chunk_count, created_at FROM knowledge_documents
      WHERE tenant_id = ?1 AND (?2 IS NULL OR id < ?2) ORDER BY id DESC LIMIT ?3`,
  ),
  one: sqlite.prepare<DocumentRow, [string, string]>("SELECT * FROM knowledge_documents WHERE id = ? AND tenant_id = ?"),
  chunks: sqlite.prepare<{ position: number; heading: string; text: string; embedding_model: string | null }, [string]>(
    "SELECT position, heading, text, embedding_model FROM knowledge_chunks WHERE document_id = ? ORDER BY position",
  ),
  delete: sqlite.prepare<unknown, [string, string]>("DELETE FROM knowledge_documents WHERE id = ? AND tenant_id = ?"),
}));

const toView = (row: DocumentRow): DocumentView => ({
  document_id: row.id,
  title: row.title,
  format: row.format,
  source_url: row.source_url,
  bytes: row.bytes,
  chunk_count: row.chunk_count,
  created_at: toIso(row.created_at),
});

/** The text a document is chunked from: HTML through the parser, text and Markdown as they are. */
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
async function embedChunks(deps: Deps, chunks: TextChunk[], embedder: Embedder | null): Promise<Array<number[] | null>> {
  const vectors: Array<number[] | null> = chunks.map(() => null);
  if (!embedder) return vectors;
  for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
    const batch = chunks.slice(start, start + EMBED_BATCH);
    try {
      const answer = await embedder.embed(batch.map((chunk) => (chunk.heading === "" ? chunk.text : `${chunk.heading}\n${chunk.text}`)));
      if (answer.length !== batch.length) {
        deps.log.error({ msg: "knowledge embedder returned the wrong number of vectors", model: embedder.model, expected: batch.length, got: answer.length });
        continue;
      }
      answer.forEach((vector, offset) => (vectors[start + offset] = vector));
    } catch (error) {
      deps.log.error({ msg: "knowledge embedding failed; chunks stored without vectors", model: embedder.model, error: String(error) });
    }
  }
  return vectors;
}

/**
 * Adds a document: converts it to text, chunks it, embeds the chunks when an embedder is
 * given, and stores document and chunks in one transaction that also re-checks the plan
 * limits (two concurrent uploads cannot both squeeze past them).
 */
export async function addDocument(deps: Deps, tenantId: string, input: NewDocument, embedder: Embedder | null): Promise<DocumentView> {
  const title = input.title.trim();
  if (title === "") throw invalidField("title", "must not be empty");
  const text = documentText(input.content, input.format);
  const chunks = chunkText(text, { markdown: input.format !== "text" });
  if (chunks.length === 0) throw invalidField("content", "has no text to answer from");
  const bytes = Buffer.byteLength(text, "utf8");
  // Checked before the embedding call too, so a refused document costs no provider call.
  assertKnowledgeRoom(deps, tenantId, bytes);
  const vectors = await embedChunks(deps, chunks, embedder);
  const now = deps.clock.now();
  const id = newId("doc", now);
  const sql = statements(deps.sqlite);
  writeTransaction(deps.sqlite, () => {
    assertKnowledgeRoom(deps, tenantId, bytes);
    sql.insertDocument.run(id, tenantId, title, input.format, input.sourceUrl ?? null, text, bytes, chunks.length, now);
    chunks.forEach((chunk, position) => {
      const vector = vectors[position];
      sql.insertChunk.run(tenantId, id, position, chunk.heading, chunk.text, vector ? encodeVector(vector) : null, vector && embedder ? embedder.model : null);
    });
  });
  return { document_id: id, title, format: input.format, source_url: input.sourceUrl ?? null, bytes, chunk_count: chunks.length, created_at: toIso(now) };
}

/** The tenant's documents, newest first, without their text. */
export function listDocuments(deps: Deps, tenantId: string, page: { limit: number; cursor?: string }): Page<DocumentView> {
  const rows = statements(deps.sqlite).page.all(tenantId, page.cursor ?? null, page.limit + 1);
  return toPage(rows, page.limit, (row) => row.id, toView);
}

/** One document with its text and chunks; another tenant's id is a 404 like a missing one. */
export function getDocument(deps: Deps, tenantId: string, documentId: string): DocumentView & { content: string; chunks: ChunkView[] } {
  const sql = statements(deps.sqlite);
  const row = sql.one.get(documentId, tenantId);
  if (!row) throw notFound("document");
  const chunks = sql.chunks.all(documentId).map((chunk) => ({ chunk_id: `${documentId}:${chunk.position}`, ...chunk }));
  return { ...toView(row), content: row.content, chunks };
}

/** Deletes a document and (by cascade) its chunks; the search index notices at its next use. */
export function deleteDocument(deps: Deps, tenantId: string, documentId: string): void {
  const result = statements(deps.sqlite).delete.run(documentId, tenantId);
  if (result.changes === 0) throw notFound("document");
}
