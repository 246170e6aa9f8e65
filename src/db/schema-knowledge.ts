import { blob, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tenants } from "./schema.ts";

export const KNOWLEDGE_FORMATS = ["text", "markdown", "html"] as const;
export type KnowledgeFormat = (typeof KNOWLEDGE_FORMATS)[number];

/** One document of a tenant's knowledge base: the text the assistant may answer from. */
export const knowledgeDocuments = sqliteTable(
  "knowledge_documents",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    format: text("format", { enum: KNOWLEDGE_FORMATS }).notNull(),
    sourceUrl: text("source_url"),
    /** The plain text the chunks were cut from (HTML already turned into text). */
    content: text("content").notNull(),
    /** UTF-8 size of `content`, summed for the plan's byte limit. */
    bytes: integer("bytes").notNull(),
    chunkCount: integer("chunk_count").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [index("knowledge_documents_tenant_idx").on(table.tenantId, table.id)],
);

/**
 * A chunk of a document, the unit that search ranks. The integer id is AUTOINCREMENT so it
 * never reuses a deleted row's value: (count, max id) per tenant then changes on every insert
 * and delete, which is how the in-process BM25 index knows it is stale.
 */
export const knowledgeChunks = sqliteTable(
  "knowledge_chunks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    documentId: text("document_id").notNull().references(() => knowledgeDocuments.id, { onDelete: "cascade" }),
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
