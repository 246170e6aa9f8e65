import type { Database } from "bun:sqlite";

/**
 * Prepares a group of statements once per database handle. Hot paths (the outbox, the
 * scheduler) use these instead of the query builder, which re-plans on every call.
 */
export function preparedFor<T>(factory: (sqlite: Database) => T): (sqlite: Database) => T {
  const cache = new WeakMap<Database, T>();
  return (sqlite) => {
    let statements = cache.get(sqlite);
    if (!statements) {
      statements = factory(sqlite);
      cache.set(sqlite, statements);
    }
    return statements;
  };
}
