import type { Database, SQLQueryBindings } from "bun:sqlite";
import { combinationIndex, filterCombinations } from "../statements.ts";

/**
 * Lists with optional filters get one statement per combination of the filters given, each
 * with only the conditions it needs. `(?2 IS NULL OR status = ?2)` reads well but SQLite
 * plans it once for every value, so no index on `status` can serve it and the list walks the
 * whole tenant; `status = ?2` alone is a range of an index. test/db/query-plans.test.ts reads
 * the plan of every combination, built by the same functions.
 */

export { filterCombinations };

/**
 * Prepares every combination once, on this connection, and returns the lookup by the flags of
 * a call. The SQL keeps numbered parameters (`?1`…`?n`, the highest always present), so each
 * variant is called with the same arguments and simply ignores the unused ones.
 */
export function prepareVariants<K extends string, Row, Params extends SQLQueryBindings[]>(
  sqlite: Database,
  keys: readonly K[],
  build: (given: Record<K, boolean>) => string,
) {
  const statements = filterCombinations(keys).map((given) => sqlite.prepare<Row, Params>(build(given)));
  return (given: Record<K, boolean>) => {
    const statement = statements[combinationIndex(keys, given)];
    if (!statement) throw new Error(`no prepared variant for ${JSON.stringify(given)}`);
    return statement;
  };
}
