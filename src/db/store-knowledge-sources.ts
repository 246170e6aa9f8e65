import type { KnowledgeDocumentRow, KnowledgeSourceRow } from "./rows.ts";

/** A source with how many documents it produced. */
export type KnowledgeSourceWithCount = KnowledgeSourceRow & { documentCount: number };

/** What a sync writes back onto its source. */
export type SourceSyncState = Pick<
  KnowledgeSourceRow,
  | "id"
  | "status"
  | "lastError"
  | "etag"
  | "lastModified"
  | "contentHash"
  | "lastFetchedAt"
  | "lastChangedAt"
  | "nextSyncAt"
  | "report"
>;

/** A source's document as a sync compares it: its page and the validators it was fetched with. */
export type SourceDocument = Pick<
  KnowledgeDocumentRow,
  "id" | "title" | "sourceUrl" | "etag" | "lastModified" | "contentHash" | "bytes"
>;

/** A document's new text and validators, written over the old one (its id stays, its chunks are replaced). */
export type ReplacedDocument = Pick<
  KnowledgeDocumentRow,
  "id" | "title" | "format" | "content" | "bytes" | "chunkCount" | "etag" | "lastModified" | "contentHash"
>;

/** Knowledge sources (src/knowledge/sources.ts) and the tenant's sync schedule. */
export interface KnowledgeSourceQueries {
  insertSource(row: KnowledgeSourceRow): Promise<void>;
  listSources(tenantId: string, beforeId: string | null, limit: number): Promise<KnowledgeSourceWithCount[]>;
  findSource(tenantId: string, sourceId: string): Promise<KnowledgeSourceWithCount | null>;
  countSources(tenantId: string): Promise<number>;
  /** Its documents and chunks go by cascade. */
  deleteSource(tenantId: string, sourceId: string): Promise<boolean>;
  recordSourceSync(state: SourceSyncState): Promise<void>;
  /** A first import's lease is its next_sync_at; nothing once it has a result. */
  extendImportLease(sourceId: string, until: number): Promise<void>;
  /** The longest overdue first. */
  listDueSources(now: number, limit: number): Promise<KnowledgeSourceRow[]>;
  listSourceDocuments(sourceId: string): Promise<SourceDocument[]>;
  /** After a 304 or an unchanged body: the text and chunks stay. */
  updateDocumentValidators(
    row: Pick<KnowledgeDocumentRow, "id" | "etag" | "lastModified" | "contentHash">,
  ): Promise<void>;
  replaceDocumentContent(row: ReplacedDocument): Promise<void>;
  deleteDocumentChunks(documentId: string): Promise<void>;
  deleteDocumentById(documentId: string): Promise<void>;
  /** undefined without a row (the default), null when off. */
  findSyncInterval(tenantId: string): Promise<number | null | undefined>;
  upsertSyncInterval(tenantId: string, intervalMs: number | null, now: number): Promise<void>;
  /** URL and sitemap sources due `intervalMs` after their last fetch (or creation). */
  rescheduleSources(tenantId: string, intervalMs: number): Promise<void>;
  unscheduleSources(tenantId: string): Promise<void>;
}
