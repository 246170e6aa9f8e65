import { CHUNK_COLUMNS, chunkValues, KNOWLEDGE_OPS } from "../sql/knowledge.ts";
import type { KnowledgeQueries } from "../store-knowledge.ts";
import type { PgExec } from "./exec.ts";
import { pgOps } from "./statements.ts";

// The knowledge base on PostgreSQL: the shared statements (src/db/sql/knowledge.ts) and the
// twins of the SQLite store's batch writes, a batch per statement. Embeddings are bytea ↔ Buffer.

/** Rows per multi-row statement: 7 parameters each, far below PostgreSQL's 65535. */
const BATCH = 1000;

function batches<T>(rows: ReadonlyArray<T>): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += BATCH) result.push(rows.slice(start, start + BATCH));
  return result;
}

/** `($1, $2, …), ($8, …)`: `width` parameters a row, each with its cast. */
function valuesList(rowCount: number, casts: readonly string[]): string {
  return Array.from(
    { length: rowCount },
    (_, row) => `(${casts.map((cast, column) => `$${row * casts.length + column + 1}${cast}`).join(", ")})`,
  ).join(", ");
}

export function pgKnowledge(db: PgExec): KnowledgeQueries {
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
    ...pgOps(db, KNOWLEDGE_OPS),
    // One multi-row INSERT per 1000 chunks: the identity is drawn in the order of the rows, so
    // ids follow the given order, as SQLite's one INSERT per chunk does.
    insertChunks: (rows) =>
      runAll(
        batches(rows).map((batch) => ({
          text: `INSERT INTO knowledge_chunks (${CHUNK_COLUMNS}) VALUES ${valuesList(batch.length, ["", "", "::int", "", "", "::bytea", ""])}`,
          params: batch.flatMap(chunkValues),
        })),
      ),
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
