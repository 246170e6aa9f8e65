import { bigint, customType, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { tenants } from "./schema.ts";

// The PostgreSQL twin of src/db/schema-knowledge.ts (see ./schema.ts).

/** drizzle's pg-core has no bytea builder; the SQLite twin is blob({ mode: "buffer" }). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

export const knowledgeSources = pgTable(
  "knowledge_sources",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["url", "sitemap", "upload"] as const }).notNull(),
    url: text("url"),
    title: text("title"),
    status: text("status", { enum: ["pending", "ok", "unchanged", "failed"] as const }).notNull(),
    lastError: text("last_error"),
    etag: text("etag"),
    lastModified: text("last_modified"),
    contentHash: text("content_hash"),
    lastFetchedAt: bigint("last_fetched_at", { mode: "number" }),
    lastChangedAt: bigint("last_changed_at", { mode: "number" }),
    nextSyncAt: bigint("next_sync_at", { mode: "number" }),
    report: text("report"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [
    index("knowledge_sources_tenant_idx").on(table.tenantId, table.id),
    index("knowledge_sources_due_idx").on(table.nextSyncAt),
  ],
);

export const knowledgeSettings = pgTable("knowledge_settings", {
  tenantId: text("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  syncIntervalMs: bigint("sync_interval_ms", { mode: "number" }),
  updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
});

export const knowledgeDocuments = pgTable(
  "knowledge_documents",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    format: text("format", { enum: ["text", "markdown", "html", "pdf"] as const }).notNull(),
    sourceUrl: text("source_url"),
    sourceId: text("source_id").references(() => knowledgeSources.id, { onDelete: "cascade" }),
    etag: text("etag"),
    lastModified: text("last_modified"),
    contentHash: text("content_hash"),
    content: text("content").notNull(),
    bytes: integer("bytes").notNull(),
    chunkCount: integer("chunk_count").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [
    index("knowledge_documents_tenant_idx").on(table.tenantId, table.id),
    index("knowledge_documents_source_idx").on(table.sourceId),
  ],
);

export const knowledgeChunks = pgTable(
  "knowledge_chunks",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    documentId: text("document_id")
      .notNull()
      .references(() => knowledgeDocuments.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    heading: text("heading").notNull(),
    text: text("text").notNull(),
    embedding: bytea("embedding"),
    embeddingModel: text("embedding_model"),
  },
  (table) => [
    index("knowledge_chunks_tenant_idx").on(table.tenantId, table.id),
    index("knowledge_chunks_document_idx").on(table.documentId, table.position),
  ],
);
