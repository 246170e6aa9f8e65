import type { Database, SQLQueryBindings } from "bun:sqlite";
import { CHUNK_COLUMNS, chunkValues, KNOWLEDGE_OPS } from "../sql/knowledge.ts";
import type { KnowledgeQueries } from "../store-knowledge.ts";
import type { SyncOf } from "./gate.ts";
import { sqliteOps } from "./statements.ts";

export function sqliteKnowledge(sqlite: Database): SyncOf<KnowledgeQueries> {
  const insertChunk = sqlite.prepare(`INSERT INTO knowledge_chunks (${CHUNK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const storeVector = sqlite.prepare("UPDATE knowledge_chunks SET embedding = ?, embedding_model = ? WHERE id = ?");
  // A statement a row costs nothing in-process; the PostgreSQL twins send a batch per statement.
  return {
    ...sqliteOps(sqlite, KNOWLEDGE_OPS),
    insertChunks: (rows) => {
      for (const row of rows) insertChunk.run(...(chunkValues(row) as SQLQueryBindings[]));
    },
    storeChunkVectors: (rows) => {
      for (const row of rows) storeVector.run(row.embedding, row.model, row.id);
    },
  };
}
