import { getTableColumns, type Table } from "drizzle-orm";

/**
 * `snake_col AS "camelKey", …` for every column of a PostgreSQL table (./schema.ts),
 * optionally qualified by an alias, so rows come back shaped like `$inferSelect` of the SQLite
 * schema. `bigint` columns (epoch-ms times) are cast to float8: Bun returns int8 as a string,
 * and every time fits a double exactly. A json column comes back already parsed (Bun parses
 * json); write one as `$n::text::json` with JSON.stringify — a string bound to a json
 * parameter is stored as a JSON *string*.
 */
export function pgColumns(table: Table, alias?: string): string {
  // Memoised: the aggregates are made for every transaction (src/db/postgres/store.ts), and
  // walking drizzle's column objects each time was a tenth of a chat message's CPU.
  let byAlias = memo.get(table);
  if (!byAlias) memo.set(table, (byAlias = new Map()));
  const key = alias ?? "";
  let columns = byAlias.get(key);
  if (columns === undefined) byAlias.set(key, (columns = listColumns(table, alias)));
  return columns;
}

const memo = new WeakMap<Table, Map<string, string>>();

function listColumns(table: Table, alias?: string): string {
  const prefix = alias ? `${alias}.` : "";
  return Object.entries(getTableColumns(table))
    .map(([key, column]) =>
      column.getSQLType() === "bigint"
        ? `${prefix}${column.name}::float8 AS "${key}"`
        : `${prefix}${column.name} AS "${key}"`,
    )
    .join(", ");
}
