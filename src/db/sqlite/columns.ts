import { getTableColumns, type Table } from "drizzle-orm";

/** Rows shaped like `$inferSelect` from raw statements; booleans still come back as 0/1. */
export function selectColumns(table: Table, alias?: string): string {
  const prefix = alias ? `${alias}.` : "";
  return Object.entries(getTableColumns(table))
    .map(([key, column]) => `${prefix}${column.name} AS "${key}"`)
    .join(", ");
}
