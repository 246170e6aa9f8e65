import type { Database, SQLQueryBindings } from "bun:sqlite";
import { combinationIndex, filterCombinations } from "../statements.ts";

export { filterCombinations };

/**
 * One statement per filter combination (docs/storage.md), for the hand-written SQLite twins. Each
 * keeps the numbered parameters, so every variant takes the same arguments.
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
