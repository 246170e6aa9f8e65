import { CHUNK_COLUMNS, chunkValues, KNOWLEDGE_OPS } from "../sql/knowledge.ts";
import type { KnowledgeQueries } from "../store-knowledge.ts";
import type { PgExec } from "./exec.ts";
import { pgOps } from "./statements.ts";

// The batch writes' twins: a batch per statement, where SQLite writes a row each.

/** Rows per multi-row statement: 7 parameters each, far below PostgreSQL's 65535. */
const BATCH = 1000;

function batches<T>(rows: ReadonlyArray<T>): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += BATCH) result.push(rows.slice(start, start + BATCH));
  return result;
}

/** `($1, $2, …), ($8, …)`, each parameter with its column's cast. */
function valuesList(rowCount: number, casts: readonly string[]): string {
  return Array.from(
    { length: rowCount },
    (_, row) => `(${casts.map((cast, column) => `$${row * casts.length + column + 1}${cast}`).join(", ")})`,
  ).join(", ");
}

export function pgKnowledge(db: PgExec): KnowledgeQueries {
  /** In one transaction when there are several. */
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
    // The identity is drawn in row order, so ids follow the given order, as on SQLite.
    insertChunks: (rows) =>
      runAll(
        batches(rows).map((batch) => ({
          text: `INSERT INTO knowledge_chunks (${CHUNK_COLUMNS}) VALUES ${valuesList(batch.length, ["", "", "::int", "", "", "::bytea", ""])}`,
          params: batch.flatMap(chunkValues),
        })),
      ),
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
