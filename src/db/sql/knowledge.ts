import { knowledgeDocuments } from "../schema.ts";
import { asNumber, type Dialect, filtered, insertRow, many, one, type Ops, write } from "../statements.ts";
import type { KnowledgeChunkRow } from "../rows.ts";
import type { IndexedChunk, KnowledgeQueries } from "../store-knowledge.ts";

// The knowledge base, but for the two batch writes, which each store writes its own way.

/** The documents page, with and without a cursor: a range of knowledge_documents_tenant_idx; content is left out. */
export function documentListSql(d: Dialect, given: { before: boolean }): string {
  const columnsWithoutContent = d.columns(knowledgeDocuments).replace(`content AS "content"`, `'' AS "content"`);
  return `SELECT ${columnsWithoutContent} FROM knowledge_documents WHERE tenant_id = $1${given.before ? " AND id < $2" : ""} ORDER BY id DESC LIMIT $3`;
}

/** A chunk's columns in the order both stores' batch inserts write them. */
export const CHUNK_COLUMNS = "tenant_id, document_id, position, heading, text, embedding, embedding_model";
export const chunkValues = (row: Omit<KnowledgeChunkRow, "id">): unknown[] => [
  row.tenantId,
  row.documentId,
  row.position,
  row.heading,
  row.text,
  row.embedding,
  row.embeddingModel,
];

type RawChunk = Omit<IndexedChunk, "id" | "embedding"> & { id: unknown; embedding: Uint8Array | null };

export const KNOWLEDGE_OPS: Ops<Omit<KnowledgeQueries, "insertChunks" | "storeChunkVectors">> = {
  insertDocument: insertRow(knowledgeDocuments),
  listDocuments: filtered(
    ["before"],
    (_tenantId, beforeId, _limit) => ({ before: beforeId !== null }),
    documentListSql,
    (tenantId, beforeId, limit) => [tenantId, beforeId, limit],
  ),
  findDocument: one(
    (d) => `SELECT ${d.columns(knowledgeDocuments)} FROM knowledge_documents WHERE id = $1 AND tenant_id = $2`,
    (tenantId, documentId) => [documentId, tenantId],
  ),
  listDocumentChunks: many(
    `SELECT position, heading, text, embedding_model AS "embeddingModel" FROM knowledge_chunks WHERE document_id = $1 ORDER BY position`,
    (documentId) => [documentId],
  ),
  deleteDocument: write(
    "DELETE FROM knowledge_documents WHERE id = $1 AND tenant_id = $2",
    (tenantId, documentId) => [documentId, tenantId],
    (changes) => changes > 0,
  ),
  findKnowledgeUsage: one(
    `SELECT t.plan,
            (SELECT count(*) FROM knowledge_documents d WHERE d.tenant_id = t.id) AS documents,
            (SELECT coalesce(sum(d.bytes), 0) FROM knowledge_documents d WHERE d.tenant_id = t.id) AS bytes
       FROM tenants t WHERE t.id = $1`,
    (tenantId) => [tenantId],
    (row: { plan: string; documents: unknown; bytes: unknown } | null) =>
      row && { plan: row.plan, documents: asNumber(row.documents), bytes: asNumber(row.bytes) },
  ),
  // One covering-index query per search (knowledge_chunks_tenant_idx).
  findChunkSignature: one(
    `SELECT count(*) AS count, coalesce(max(id), 0) AS "maxId" FROM knowledge_chunks WHERE tenant_id = $1`,
    (tenantId) => [tenantId],
    (row: { count: unknown; maxId: unknown } | null) => ({ count: asNumber(row?.count), maxId: asNumber(row?.maxId) }),
  ),
  listIndexedChunks: many(
    `SELECT c.id, c.document_id AS "documentId", c.position, c.heading, c.text, c.embedding, c.embedding_model AS "embeddingModel",
            d.title, d.source_url AS "sourceUrl"
       FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id
      WHERE c.tenant_id = $1 ORDER BY c.id`,
    (tenantId) => [tenantId],
    (rows: RawChunk[]) =>
      rows.map((row) => ({
        ...row,
        id: asNumber(row.id),
        embedding: row.embedding ? Buffer.from(row.embedding) : null,
      })),
  ),
};
