import { knowledgeSources } from "../schema.ts";
import { asNullableNumber, asNumber, filtered, insertRow, many, one, type Ops, write } from "../statements.ts";
import type { KnowledgeSourceQueries, KnowledgeSourceWithCount } from "../store-knowledge-sources.ts";

const DOCUMENT_COUNT = `(SELECT count(*) FROM knowledge_documents d WHERE d.source_id = s.id) AS "documentCount"`;
const withCount = (row: KnowledgeSourceWithCount): KnowledgeSourceWithCount => ({
  ...row,
  documentCount: asNumber(row.documentCount),
});

export const KNOWLEDGE_SOURCE_OPS: Ops<KnowledgeSourceQueries> = {
  insertSource: insertRow(knowledgeSources),
  listSources: filtered(
    ["before"],
    (_tenantId, beforeId, _limit) => ({ before: beforeId !== null }),
    (d, given) =>
      `SELECT ${d.columns(knowledgeSources, "s")}, ${DOCUMENT_COUNT} FROM knowledge_sources s
        WHERE s.tenant_id = $1${given.before ? " AND s.id < $2" : ""} ORDER BY s.id DESC LIMIT $3`,
    (tenantId, beforeId, limit) => [tenantId, beforeId, limit],
    (rows: KnowledgeSourceWithCount[]) => rows.map(withCount),
  ),
  findSource: one(
    (d) =>
      `SELECT ${d.columns(knowledgeSources, "s")}, ${DOCUMENT_COUNT} FROM knowledge_sources s WHERE s.id = $1 AND s.tenant_id = $2`,
    (tenantId, sourceId) => [sourceId, tenantId],
    (row: KnowledgeSourceWithCount | null) => row && withCount(row),
  ),
  countSources: one(
    "SELECT count(*) AS n FROM knowledge_sources WHERE tenant_id = $1",
    (tenantId) => [tenantId],
    (row: { n: unknown } | null) => asNumber(row?.n),
  ),
  deleteSource: write(
    "DELETE FROM knowledge_sources WHERE id = $1 AND tenant_id = $2",
    (tenantId, sourceId) => [sourceId, tenantId],
    (changes) => changes > 0,
  ),
  recordSourceSync: write(
    `UPDATE knowledge_sources SET status = $2, last_error = $3, etag = $4, last_modified = $5, content_hash = $6,
            last_fetched_at = $7, last_changed_at = $8, next_sync_at = $9, report = $10
      WHERE id = $1`,
    (state) => [
      state.id,
      state.status,
      state.lastError,
      state.etag,
      state.lastModified,
      state.contentHash,
      state.lastFetchedAt,
      state.lastChangedAt,
      state.nextSyncAt,
      state.report,
    ],
  ),
  extendImportLease: write(
    "UPDATE knowledge_sources SET next_sync_at = $2 WHERE id = $1 AND status = 'pending'",
    (sourceId, until) => [sourceId, until],
  ),
  // A range of knowledge_sources_due_idx.
  listDueSources: many(
    (d) =>
      `SELECT ${d.columns(knowledgeSources)} FROM knowledge_sources WHERE next_sync_at <= $1 ORDER BY next_sync_at LIMIT $2`,
    (now, limit) => [now, limit],
  ),
  listSourceDocuments: many(
    `SELECT id, title, source_url AS "sourceUrl", etag, last_modified AS "lastModified", content_hash AS "contentHash", bytes
       FROM knowledge_documents WHERE source_id = $1 ORDER BY id`,
    (sourceId) => [sourceId],
  ),
  updateDocumentValidators: write(
    "UPDATE knowledge_documents SET etag = $2, last_modified = $3, content_hash = $4 WHERE id = $1",
    (row) => [row.id, row.etag, row.lastModified, row.contentHash],
  ),
  replaceDocumentContent: write(
    `UPDATE knowledge_documents SET title = $2, format = $3, content = $4, bytes = $5, chunk_count = $6,
            etag = $7, last_modified = $8, content_hash = $9
      WHERE id = $1`,
    (row) => [
      row.id,
      row.title,
      row.format,
      row.content,
      row.bytes,
      row.chunkCount,
      row.etag,
      row.lastModified,
      row.contentHash,
    ],
  ),
  deleteDocumentChunks: write("DELETE FROM knowledge_chunks WHERE document_id = $1", (documentId) => [documentId]),
  deleteDocumentById: write("DELETE FROM knowledge_documents WHERE id = $1", (documentId) => [documentId]),
  findSyncInterval: one(
    `SELECT sync_interval_ms AS "syncIntervalMs" FROM knowledge_settings WHERE tenant_id = $1`,
    (tenantId) => [tenantId],
    (row: { syncIntervalMs: unknown } | null) => (row ? asNullableNumber(row.syncIntervalMs) : undefined),
  ),
  upsertSyncInterval: write(
    `INSERT INTO knowledge_settings (tenant_id, sync_interval_ms, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id) DO UPDATE SET sync_interval_ms = excluded.sync_interval_ms, updated_at = excluded.updated_at`,
    (tenantId, intervalMs, now) => [tenantId, intervalMs, now],
  ),
  rescheduleSources: write(
    `UPDATE knowledge_sources SET next_sync_at = coalesce(last_fetched_at, created_at) + $2 WHERE tenant_id = $1 AND kind <> 'upload'`,
    (tenantId, intervalMs) => [tenantId, intervalMs],
  ),
  unscheduleSources: write("UPDATE knowledge_sources SET next_sync_at = NULL WHERE tenant_id = $1", (tenantId) => [
    tenantId,
  ]),
};
