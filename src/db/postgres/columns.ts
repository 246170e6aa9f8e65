import { getTableColumns, type Table } from "drizzle-orm";

/** Rows shaped like the SQLite schema's; bigint cast to float8, as Bun returns int8 as a string. */
export function pgColumns(table: Table, alias?: string): string {
  // Memoised: the aggregates are made for every transaction (docs/design-notes.md).
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
