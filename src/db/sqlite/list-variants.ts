import type { Database, SQLQueryBindings } from "bun:sqlite";

/**
 * Lists with optional filters get one statement per combination of the filters given, each
 * with only the conditions it needs. `(?2 IS NULL OR status = ?2)` reads well but SQLite
 * plans it once for every value, so no index on `status` can serve it and the list walks the
 * whole tenant; `status = ?2` alone is a range of an index. test/db/query-plans.test.ts reads
 * the plan of every combination, built by the same functions.
 */

/** Every combination of the optional filters `keys` (2^n of them), as flags. */
export function filterCombinations<K extends string>(keys: readonly K[]): Array<Record<K, boolean>> {
  return Array.from({ length: 2 ** keys.length }, (_, mask) => Object.fromEntries(keys.map((key, bit) => [key, (mask & (1 << bit)) !== 0])) as Record<K, boolean>);
}

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
    const mask = keys.reduce((sum, key, bit) => (given[key] ? sum | (1 << bit) : sum), 0);
    const statement = statements[mask];
    if (!statement) throw new Error(`no prepared variant for ${JSON.stringify(given)}`);
    return statement;
  };
}
