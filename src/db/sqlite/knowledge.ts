import type { Database } from "bun:sqlite";
import type { KnowledgeDocumentRow } from "../rows.ts";
import { knowledgeDocuments } from "../schema.ts";
import type { IndexedChunk, KnowledgeQueries } from "../store-knowledge.ts";
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";
import { prepareVariants } from "./list-variants.ts";

/** The documents page, with and without a cursor (list-variants.ts): a range of knowledge_documents_tenant_idx; content is left out. */
export function documentListSql(given: { before: boolean }): string {
  const columnsWithoutContent = selectColumns(knowledgeDocuments).replace(`content AS "content"`, `'' AS "content"`);
  return `SELECT ${columnsWithoutContent} FROM knowledge_documents WHERE tenant_id = ?1${given.before ? " AND id < ?2" : ""} ORDER BY id DESC LIMIT ?3`;
}

type RawChunk = Omit<IndexedChunk, "embedding"> & { embedding: Uint8Array | null };

export function sqliteKnowledge(sqlite: Database): SyncOf<KnowledgeQueries> {
  const insertDocument = sqlite.prepare(
    "INSERT INTO knowledge_documents (id, tenant_id, title, format, source_url, content, bytes, chunk_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertChunk = sqlite.prepare(
    "INSERT INTO knowledge_chunks (tenant_id, document_id, position, heading, text, embedding, embedding_model) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const page = prepareVariants<"before", KnowledgeDocumentRow, [string, string | null, number]>(sqlite, ["before"], documentListSql);
  const one = sqlite.prepare<KnowledgeDocumentRow, [string, string]>(`SELECT ${selectColumns(knowledgeDocuments)} FROM knowledge_documents WHERE id = ? AND tenant_id = ?`);
  const chunks = sqlite.prepare<{ position: number; heading: string; text: string; embeddingModel: string | null }, [string]>(
    `SELECT position, heading, text, embedding_model AS "embeddingModel" FROM knowledge_chunks WHERE document_id = ? ORDER BY position`,
  );
  const remove = sqlite.prepare("DELETE FROM knowledge_documents WHERE id = ? AND tenant_id = ?");
  const usage = sqlite.prepare<{ plan: string; documents: number; bytes: number }, [string]>(
    `SELECT t.plan,
            (SELECT count(*) FROM knowledge_documents d WHERE d.tenant_id = t.id) AS documents,
            (SELECT coalesce(sum(d.bytes), 0) FROM knowledge_documents d WHERE d.tenant_id = t.id) AS bytes
       FROM tenants t WHERE t.id = ?`,
  );
  // One covering-index query per search (knowledge_chunks_tenant_idx).
  const signature = sqlite.prepare<{ count: number; maxId: number }, [string]>(
    `SELECT count(*) AS count, coalesce(max(id), 0) AS "maxId" FROM knowledge_chunks WHERE tenant_id = ?`,
  );
  const indexed = sqlite.prepare<RawChunk, [string]>(
    `SELECT c.id, c.document_id AS "documentId", c.position, c.heading, c.text, c.embedding, c.embedding_model AS "embeddingModel", d.title, d.source_url AS "sourceUrl"
       FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id
      WHERE c.tenant_id = ? ORDER BY c.id`,
  );
  const storeVector = sqlite.prepare("UPDATE knowledge_chunks SET embedding = ?, embedding_model = ? WHERE id = ?");
  return {
    insertDocument: (row) => {
      insertDocument.run(row.id, row.tenantId, row.title, row.format, row.sourceUrl, row.content, row.bytes, row.chunkCount, row.createdAt);
    },
    insertChunks: (rows) => {
      for (const row of rows) insertChunk.run(row.tenantId, row.documentId, row.position, row.heading, row.text, row.embedding, row.embeddingModel);
    },
    listDocuments: (tenantId, beforeId, limit) => page({ before: beforeId !== null }).all(tenantId, beforeId, limit),
    findDocument: (tenantId, documentId) => one.get(documentId, tenantId),
    listDocumentChunks: (documentId) => chunks.all(documentId),
    deleteDocument: (tenantId, documentId) => remove.run(documentId, tenantId).changes > 0,
    findKnowledgeUsage: (tenantId) => usage.get(tenantId),
    findChunkSignature: (tenantId) => signature.get(tenantId) ?? { count: 0, maxId: 0 },
    listIndexedChunks: (tenantId) => indexed.all(tenantId).map((row) => ({ ...row, embedding: row.embedding ? Buffer.from(row.embedding) : null })),
    storeChunkVectors: (rows) => {
      for (const row of rows) storeVector.run(row.embedding, row.model, row.id);
    },
  };
}
