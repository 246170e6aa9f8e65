import type { KnowledgeChunkRow, KnowledgeDocumentRow } from "./rows.ts";

/** A chunk with what the search index shows of its document. */
export type IndexedChunk = Pick<
  KnowledgeChunkRow,
  "id" | "documentId" | "position" | "heading" | "text" | "embedding" | "embeddingModel"
> &
  Pick<KnowledgeDocumentRow, "title" | "sourceUrl">;

/** The knowledge base (src/knowledge/): documents, their chunks and vectors. */
export interface KnowledgeQueries {
  insertDocument(row: KnowledgeDocumentRow): Promise<void>;
  insertChunks(rows: ReadonlyArray<Omit<KnowledgeChunkRow, "id">>): Promise<void>;
  /** Newest first, content left out (''). */
  listDocuments(tenantId: string, beforeId: string | null, limit: number): Promise<KnowledgeDocumentRow[]>;
  findDocument(tenantId: string, documentId: string): Promise<KnowledgeDocumentRow | null>;
  listDocumentChunks(
    documentId: string,
  ): Promise<Array<Pick<KnowledgeChunkRow, "position" | "heading" | "text" | "embeddingModel">>>;
  /** Its chunks go by cascade. */
  deleteDocument(tenantId: string, documentId: string): Promise<boolean>;
  /** One read; null when there is no such tenant. */
  findKnowledgeUsage(tenantId: string): Promise<{ plan: string; documents: number; bytes: number } | null>;
  /** Changes on every insert and delete: ids are never reused. */
  findChunkSignature(tenantId: string): Promise<{ count: number; maxId: number }>;
  listIndexedChunks(tenantId: string): Promise<IndexedChunk[]>;
  storeChunkVectors(rows: ReadonlyArray<{ id: number; embedding: Buffer; model: string }>): Promise<void>;
}
