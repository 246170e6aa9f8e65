import type { Database } from "bun:sqlite";

/**
 * Every place a needle occurs in the database: each table's every column (cast to text, so
 * JSON, numbers and blobs are searched too), case-insensitively. Returns "table.column" hits.
 */
export function findEverywhere(sqlite: Database, needles: readonly string[]): string[] {
  const tables = sqlite.prepare<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all();
  const hits: string[] = [];
  for (const { name } of tables) {
    const columns = sqlite.prepare<{ name: string }, []>(`SELECT name FROM pragma_table_info('${name}')`).all();
    for (const column of columns) {
      for (const needle of needles) {
        const row = sqlite
          .prepare<{ n: number }, [string]>(`SELECT count(*) AS n FROM "${name}" WHERE instr(lower(CAST("${column.name}" AS TEXT)), ?) > 0`)
          .get(needle.toLowerCase());
        if ((row?.n ?? 0) > 0) hits.push(`${name}.${column.name} ~ ${needle}`);
      }
    }
  }
  return hits;
}
