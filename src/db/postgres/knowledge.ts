import type { KnowledgeChunkRow, KnowledgeDocumentRow } from "../rows.ts";
import type { IndexedChunk, KnowledgeQueries } from "../store-knowledge.ts";
import { pgColumns } from "./columns.ts";
import type { PgExec } from "./exec.ts";
import { knowledgeDocuments } from "./schema.ts";

// The knowledge base on PostgreSQL: the statements of src/db/sqlite/knowledge.ts with `$n`
// parameters. Chunk ids are a bigint identity (selected ::float8); embeddings are bytea ↔ Buffer.

/** Rows per multi-row statement: 7 parameters each, far below PostgreSQL's 65535. */
const BATCH = 1000;

type RawChunk = Omit<IndexedChunk, "embedding"> & { embedding: Uint8Array | null };

function batches<T>(rows: ReadonlyArray<T>): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += BATCH) result.push(rows.slice(start, start + BATCH));
  return result;
}

/** `($1, $2, …), ($8, …)`: `width` parameters a row, each with its cast. */
function valuesList(rowCount: number, casts: readonly string[]): string {
  return Array.from({ length: rowCount }, (_, row) => `(${casts.map((cast, column) => `$${row * casts.length + column + 1}${cast}`).join(", ")})`).join(", ");
}

export function pgKnowledge(db: PgExec): KnowledgeQueries {
  const documentColumns = pgColumns(knowledgeDocuments);
  const columnsWithoutContent = documentColumns.replace(`content AS "content"`, `'' AS "content"`);

  /** Statements in order, in one transaction when there are several (a savepoint inside one). */
  const runAll = async (statements: Array<{ text: string; params: unknown[] }>): Promise<void> => {
    if (statements.length === 1) {
      const [only] = statements;
      if (only) await db.run(only.text, only.params);
      return;
    }
    if (statements.length === 0) return;
    await db.transaction(async (exec) => {
      for (const statement of statements) await exec.run(statement.text, statement.params);
    });
  };

  return {
    insertDocument: async (row) => {
      await db.run(
        "INSERT INTO knowledge_documents (id, tenant_id, title, format, source_url, content, bytes, chunk_count, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        [row.id, row.tenantId, row.title, row.format, row.sourceUrl, row.content, row.bytes, row.chunkCount, row.createdAt],
      );
    },
    // One multi-row INSERT per 1000 chunks: the identity is drawn in the order of the rows, so
    // ids follow the given order, as SQLite's one INSERT per chunk does.
    insertChunks: (rows) =>
      runAll(
        batches(rows).map((batch) => ({
          text: `INSERT INTO knowledge_chunks (tenant_id, document_id, position, heading, text, embedding, embedding_model) VALUES ${valuesList(batch.length, ["", "", "::int", "", "", "::bytea", ""])}`,
          params: batch.flatMap((row) => [row.tenantId, row.documentId, row.position, row.heading, row.text, row.embedding, row.embeddingModel]),
        })),
      ),
    listDocuments: (tenantId, beforeId, limit) =>
      beforeId === null
        ? db.all<KnowledgeDocumentRow>(`SELECT ${columnsWithoutContent} FROM knowledge_documents WHERE tenant_id = $1 ORDER BY id DESC LIMIT $2`, [tenantId, limit])
        : db.all<KnowledgeDocumentRow>(`SELECT ${columnsWithoutContent} FROM knowledge_documents WHERE tenant_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, [tenantId, beforeId, limit]),
    findDocument: (tenantId, documentId) =>
      db.get<KnowledgeDocumentRow>(`SELECT ${documentColumns} FROM knowledge_documents WHERE id = $1 AND tenant_id = $2`, [documentId, tenantId]),
    listDocumentChunks: (documentId) =>
      db.all<Pick<KnowledgeChunkRow, "position" | "heading" | "text" | "embeddingModel">>(
        `SELECT position, heading, text, embedding_model AS "embeddingModel" FROM knowledge_chunks WHERE document_id = $1 ORDER BY position`,
        [documentId],
      ),
    deleteDocument: async (tenantId, documentId) => (await db.run("DELETE FROM knowledge_documents WHERE id = $1 AND tenant_id = $2", [documentId, tenantId])) > 0,
    findKnowledgeUsage: (tenantId) =>
      db.get<{ plan: string; documents: number; bytes: number }>(
        `SELECT t.plan,
                (SELECT count(*) FROM knowledge_documents d WHERE d.tenant_id = t.id)::int AS documents,
                (SELECT coalesce(sum(d.bytes), 0) FROM knowledge_documents d WHERE d.tenant_id = t.id)::float8 AS bytes
           FROM tenants t WHERE t.id = $1`,
        [tenantId],
      ),
    // One index-only query per search (knowledge_chunks_tenant_idx).
    findChunkSignature: async (tenantId) =>
      (await db.get<{ count: number; maxId: number }>(`SELECT count(*)::int AS count, coalesce(max(id), 0)::float8 AS "maxId" FROM knowledge_chunks WHERE tenant_id = $1`, [tenantId])) ?? {
        count: 0,
        maxId: 0,
      },
    listIndexedChunks: async (tenantId) =>
      (
        await db.all<RawChunk>(
          `SELECT c.id::float8 AS id, c.document_id AS "documentId", c.position, c.heading, c.text, c.embedding, c.embedding_model AS "embeddingModel", d.title, d.source_url AS "sourceUrl"
             FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id
            WHERE c.tenant_id = $1 ORDER BY c.id`,
          [tenantId],
        )
      ).map((row) => ({ ...row, embedding: row.embedding ? Buffer.from(row.embedding) : null })),
    // One UPDATE … FROM (VALUES …) per 1000 vectors.
    storeChunkVectors: (rows) =>
      runAll(
        batches(rows).map((batch) => ({
          text: `UPDATE knowledge_chunks AS c SET embedding = v.embedding, embedding_model = v.model
                   FROM (VALUES ${valuesList(batch.length, ["::bigint", "::bytea", "::text"])}) AS v (id, embedding, model)
                  WHERE c.id = v.id`,
          params: batch.flatMap((row) => [row.id, row.embedding, row.model]),
        })),
      ),
  };
}
