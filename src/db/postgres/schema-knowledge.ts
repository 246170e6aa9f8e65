import { bigint, customType, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { tenants } from "./schema.ts";

// The PostgreSQL twin of src/db/schema-knowledge.ts (see ./schema.ts).

/** drizzle's pg-core has no bytea builder; the SQLite twin is blob({ mode: "buffer" }). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

export const knowledgeDocuments = pgTable(
  "knowledge_documents",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    format: text("format", { enum: ["text","markdown","html"] as const }).notNull(),
    sourceUrl: text("source_url"),
    content: text("content").notNull(),
    bytes: integer("bytes").notNull(),
    chunkCount: integer("chunk_count").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [
    index("knowledge_documents_tenant_idx").on(table.tenantId, table.id),
  ],
);

export const knowledgeChunks = pgTable(
  "knowledge_chunks",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    tenantId: text("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    documentId: text("document_id").notNull().references(() => knowledgeDocuments.id, { onDelete: "cascade" }),
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
