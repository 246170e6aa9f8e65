import { getTableColumns, type Table } from "drizzle-orm";

/**
 * `snake_col AS "camelKey", …` for every column of a drizzle table, optionally qualified by a
 * table alias: raw prepared statements then return rows shaped like `$inferSelect`. Boolean
 * columns still come back as 0/1 and are converted by the caller.
 */
export function selectColumns(table: Table, alias?: string): string {
  const prefix = alias ? `${alias}.` : "";
  return Object.entries(getTableColumns(table))
    .map(([key, column]) => `${prefix}${column.name} AS "${key}"`)
    .join(", ");
}
