import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { existsSync } from "node:fs";
import { getTableColumns, is, type Table } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { AppError } from "../lib/app-error.ts";
import { EMBEDDED_MIGRATIONS } from "./embedded-migrations.ts";
import { queueForSearch } from "./postgres/inbox.ts";
import { applyPgMigrations } from "./postgres/migrations.ts";
import * as schema from "./schema.ts";

export interface CopyProgress {
  table: string;
  done: number;
  total: number;
}

export interface CopyReport {
  tables: Array<{ table: string; rows: number }>;
  rows: number;
}

/** Every table of the schema, parents before children (foreign keys), so inserts never dangle. */
export function tablesInCopyOrder(): SQLiteTable[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable));
  const ordered: SQLiteTable[] = [];
  const visiting = new Set<SQLiteTable>();
  const visit = (table: SQLiteTable) => {
    if (ordered.includes(table) || visiting.has(table)) return;
    visiting.add(table);
    for (const key of getTableConfig(table).foreignKeys) visit(key.reference().foreignTable as SQLiteTable);
    ordered.push(table);
  };
  tables.forEach(visit);
  return ordered;
}

/** PostgreSQL allows 65,535 parameters per statement. */
const MAX_PARAMETERS = 60_000;

type Value = string | number | boolean | Buffer | null;

/**
 * `parley copy` into an empty PostgreSQL database, ids intact, in ONE transaction: any failure
 * leaves the target empty. Settings travel too, so logins, API keys and visitor tokens stay valid.
 */
export async function copySqliteToPostgres(
  from: string,
  to: string,
  nowMs: number,
  onProgress: (progress: CopyProgress) => void = () => {},
): Promise<CopyReport> {
  if (!existsSync(from)) throw new AppError("not_found", 404, `no SQLite database at ${from}`);
  const source = new Database(from, { readonly: true });
  const target = new SQL({ url: to, max: 1 });
  try {
    const applied = source
      .query<{ tag: string }, []>("SELECT tag FROM parley_migrations")
      .all()
      .map((row) => row.tag);
    const missing = EMBEDDED_MIGRATIONS.filter((migration) => !applied.includes(migration.tag));
    if (missing.length > 0)
      throw new AppError(
        "not_migrated",
        409,
        `${from} lacks ${missing.length} migration(s) (${missing[0]?.tag}…): run parley migrate --db ${from} first`,
      );
    await applyPgMigrations(target, nowMs);
    const tables = tablesInCopyOrder();
    const nonEmpty: string[] = [];
    for (const table of tables) {
      const name = getTableConfig(table).name;
      const [row] = await target.unsafe(`SELECT EXISTS (SELECT 1 FROM ${name}) AS any`);
      if ((row as { any: boolean }).any) nonEmpty.push(name);
    }
    if (nonEmpty.length > 0)
      throw new AppError(
        "target_not_empty",
        409,
        `the PostgreSQL database is not empty (${nonEmpty.join(", ")}): copy needs an empty one`,
      );

    const report: CopyReport = { tables: [], rows: 0 };
    await target.begin(async (tx) => {
      for (const table of tables) {
        const rows = await copyTable(source, tx, table, onProgress);
        report.tables.push({ table: getTableConfig(table).name, rows });
        report.rows += rows;
      }
      await tx.unsafe(queueForSearch("chat_messages"));
      for (const table of tables) {
        const name = getTableConfig(table).name;
        const identity = Object.values(getTableColumns(table as Table)).find(
          (column) => (column as { autoIncrement?: boolean }).autoIncrement,
        );
        if (identity)
          await tx.unsafe(
            `SELECT setval(pg_get_serial_sequence('${name}', '${identity.name}'), GREATEST((SELECT max(${identity.name}) FROM ${name}), 1))`,
          );
      }
      // Checked inside the transaction: a mismatch rolls the whole copy back.
      for (const { table, rows } of report.tables) {
        const [row] = await tx.unsafe(`SELECT count(*)::int AS count FROM ${table}`);
        const copied = (row as { count: number }).count;
        if (copied !== rows)
          throw new AppError(
            "count_mismatch",
            500,
            `${table}: ${rows} rows read but ${copied} in PostgreSQL; nothing was copied`,
          );
      }
    });
    return report;
  } finally {
    source.close();
    await target.close();
  }
}

async function copyTable(
  source: Database,
  tx: SQL,
  table: SQLiteTable,
  onProgress: (progress: CopyProgress) => void,
): Promise<number> {
  const name = getTableConfig(table).name;
  const columns = Object.values(getTableColumns(table as Table));
  const names = columns.map((column) => column.name);
  const total = source.query<{ count: number }, []>(`SELECT count(*) AS count FROM ${name}`).get()?.count ?? 0;
  onProgress({ table: name, done: 0, total });
  const perBatch = Math.max(1, Math.min(5_000, Math.floor(MAX_PARAMETERS / names.length)));
  // rowid order: every table has one (none is WITHOUT ROWID), and it pages in O(batch).
  const read = source.query<Record<string, Value> & { __rowid: number }, [number, number]>(
    `SELECT rowid AS __rowid, ${names.join(", ")} FROM ${name} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
  );
  const convert = columns.map((column) => {
    if (column.columnType === "SQLiteBoolean")
      return (value: Value) => (value === null ? null : value === 1 || value === true);
    if (column.columnType === "SQLiteBlobBuffer")
      return (value: Value) => (value === null ? null : Buffer.from(value as Uint8Array));
    return (value: Value) => value;
  });
  let done = 0;
  let after = -Infinity;
  for (;;) {
    const batch = read.all(after === -Infinity ? Number.MIN_SAFE_INTEGER : after, perBatch);
    if (batch.length === 0) break;
    const params: Value[] = [];
    const tuples = batch.map((row) => {
      const start = params.length;
      names.forEach((column, index) => params.push(convert[index]!(row[column] ?? null)));
      return `(${names.map((_, index) => `$${start + index + 1}`).join(", ")})`;
    });
    await tx.unsafe(`INSERT INTO ${name} (${names.join(", ")}) VALUES ${tuples.join(", ")}`, params);
    done += batch.length;
    after = batch[batch.length - 1]!.__rowid;
    onProgress({ table: name, done, total });
  }
  return done;
}
