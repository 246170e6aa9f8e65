import { blob, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tenantIdColumn } from "./schema.ts";

export const KNOWLEDGE_FORMATS = ["text", "markdown", "html", "pdf"] as const;
export type KnowledgeFormat = (typeof KNOWLEDGE_FORMATS)[number];

/** Where a source's documents come from: one page, every page of a sitemap, or an uploaded file. */
export const SOURCE_KINDS = ["url", "sitemap", "upload"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** How a source's last sync ended; `pending` until its first one. */
export const SOURCE_STATUSES = ["pending", "ok", "unchanged", "failed"] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/** Where a tenant's documents come from; its validators are its own URL's, each page's are on its document. */
export const knowledgeSources = sqliteTable(
  "knowledge_sources",
  {
    id: text("id").primaryKey(),
    tenantId: tenantIdColumn(),
    kind: text("kind", { enum: SOURCE_KINDS }).notNull(),
    url: text("url"),
    title: text("title"),
    status: text("status", { enum: SOURCE_STATUSES }).notNull(),
    lastError: text("last_error"),
    etag: text("etag"),
    lastModified: text("last_modified"),
    contentHash: text("content_hash"),
    lastFetchedAt: integer("last_fetched_at"),
    lastChangedAt: integer("last_changed_at"),
    /** When the scheduler fetches it again; null for uploads and while the tenant's schedule is off. */
    nextSyncAt: integer("next_sync_at"),
    /** JSON: the last sync's per-page results (imported, updated, unchanged, removed, skipped, failed). */
    report: text("report"),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [
    index("knowledge_sources_tenant_idx").on(table.tenantId, table.id),
    index("knowledge_sources_due_idx").on(table.nextSyncAt),
  ],
);

/** A tenant's knowledge settings; no row means the defaults (sources re-fetched daily). */
export const knowledgeSettings = sqliteTable("knowledge_settings", {
  tenantId: tenantIdColumn().primaryKey(),
  /** Milliseconds between scheduled syncs of a URL or sitemap source; null turns the schedule off. */
  syncIntervalMs: integer("sync_interval_ms"),
  updatedAt: integer("updated_at").notNull(),
});

/** One document of a tenant's knowledge base: the text the assistant may answer from. */
export const knowledgeDocuments = sqliteTable(
  "knowledge_documents",
  {
    id: text("id").primaryKey(),
    tenantId: tenantIdColumn(),
    title: text("title").notNull(),
    format: text("format", { enum: KNOWLEDGE_FORMATS }).notNull(),
    sourceUrl: text("source_url"),
    /** The source that produced it (deleted with it); null for a document added by hand. */
    sourceId: text("source_id").references(() => knowledgeSources.id, { onDelete: "cascade" }),
    /** The page's validators and SHA-256 as last fetched, for the next conditional request. */
    etag: text("etag"),
    lastModified: text("last_modified"),
    contentHash: text("content_hash"),
    /** The plain text the chunks were cut from (HTML already turned into text). */
    content: text("content").notNull(),
    /** UTF-8 size of `content`, summed for the plan's byte limit. */
    bytes: integer("bytes").notNull(),
    chunkCount: integer("chunk_count").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [
    index("knowledge_documents_tenant_idx").on(table.tenantId, table.id),
    index("knowledge_documents_source_idx").on(table.sourceId),
  ],
);

/** The unit search ranks. AUTOINCREMENT never reuses an id, so (count, max id) tells the BM25 index it is stale. */
export const knowledgeChunks = sqliteTable(
  "knowledge_chunks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: tenantIdColumn(),
    documentId: text("document_id")
      .notNull()
      .references(() => knowledgeDocuments.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** The heading path the chunk sits under ("Prices › Cleaning"), empty when there is none. */
    heading: text("heading").notNull(),
    text: text("text").notNull(),
    /** Float32 little-endian vector from `embedding_model`; null until embedded. */
    embedding: blob("embedding", { mode: "buffer" }),
    embeddingModel: text("embedding_model"),
  },
  (table) => [
    index("knowledge_chunks_tenant_idx").on(table.tenantId, table.id),
    index("knowledge_chunks_document_idx").on(table.documentId, table.position),
  ],
);
