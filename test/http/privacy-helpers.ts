import { getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../src/db/schema.ts";
import type { TestSql } from "../helpers.ts";

/** Every table of the schema; the PostgreSQL store has the same tables under the same names. */
const TABLES = (Object.values(schema) as unknown[]).flatMap((value) =>
  is(value, SQLiteTable) ? [getTableName(value)] : [],
);

/** A column's value as text to search: strings as they are, JSON (parsed by PostgreSQL) and numbers written out. */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  if (value !== null && typeof value === "object")
    return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === "bigint" ? String(inner) : inner));
  return String(value);
}

/**
 * Every place a needle occurs in the database under test, whichever store: each table's every
 * row and column (JSON, numbers and blobs written out as text), case-insensitively. Returns
 * "table.column ~ needle" hits, one per column and needle.
 */
export async function findEverywhere(sql: TestSql, needles: readonly string[]): Promise<string[]> {
  const hits = new Set<string>();
  for (const table of TABLES) {
    for (const row of await sql.all<Record<string, unknown>>(`SELECT * FROM "${table}"`)) {
      for (const [column, value] of Object.entries(row)) {
        const text = asText(value).toLowerCase();
        for (const needle of needles) {
          if (text.includes(needle.toLowerCase())) hits.add(`${table}.${column} ~ ${needle}`);
        }
      }
    }
  }
  return [...hits].sort();
}
