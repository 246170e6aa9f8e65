import { type Column, getTableColumns, getTableName, is, type SQL, type Table } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  json,
  type PgColumn,
  type PgColumnBuilderBase,
  type UpdateDeleteAction,
  type PgTableWithColumns,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { getTableConfig, type SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

// The PostgreSQL tables are made from the SQLite ones (src/db/schema*.ts), so each table is
// defined once. The mapping is mechanical but for integers: `integer` unless `bigintColumn`
// says the column holds epoch-ms times or other values past 2^31.

/** drizzle's pg-core has no bytea builder; SQLite's is blob({ mode: "buffer" }). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** The pg-core table made from a SQLite table: same name, column keys and row types. */
export type PgTwin<T extends SQLiteTable> = PgTableWithColumns<{
  name: T["_"]["name"];
  schema: undefined;
  dialect: "pg";
  columns: {
    [K in keyof T["_"]["columns"]]: T["_"]["columns"][K] extends SQLiteColumn<infer C> ? PgColumn<C> : never;
  };
}>;

/** The twin of every SQLite table a schema module exports, by export name. */
export type PgTwins<S> = {
  [K in keyof S as S[K] extends SQLiteTable ? K : never]: S[K] extends SQLiteTable ? PgTwin<S[K]> : never;
};

export interface TwinOptions {
  /** Whether an integer column (by table and column name) is `bigint` rather than `integer`. */
  bigintColumn: (table: string, column: string) => boolean;
  /**
   * Indexes (by name) whose PostgreSQL form differs: their columns, in order, or null for an index
   * PostgreSQL does without. Its predicate (`where`) stays the SQLite index's.
   */
  indexes?: Readonly<Record<string, readonly string[] | null>>;
  /** Primary keys (table → column) PostgreSQL has where SQLite keeps a plain column. */
  primaryKeys?: Readonly<Record<string, string>>;
  /** Unique indexes (by name) PostgreSQL keeps plain: a primary key of its own guards what they guard. */
  plainIndexes?: readonly string[];
  /** Foreign keys (`table.column`) PostgreSQL does without; what stands in for each is the caller's. */
  withoutForeignKeys?: readonly string[];
}

/** What the converter does with a column builder, whatever its type. */
interface Builder extends PgColumnBuilderBase {
  primaryKey(): Builder;
  notNull(): Builder;
  default(value: unknown): Builder;
  unique(name?: string): Builder;
  references(
    ref: () => AnyPgColumn,
    actions: { onDelete?: UpdateDeleteAction; onUpdate?: UpdateDeleteAction },
  ): Builder;
}

/** The pg-core twin of every SQLite table a schema module exports. A foreign key resolves by table name among the twins. */
export function pgTwinsOf<S extends Record<string, unknown>>(schema: S, options: TwinOptions): PgTwins<S> {
  const byName = new Map<string, Table>();
  const twins: Record<string, Table> = {};
  for (const [key, table] of Object.entries(schema)) {
    if (!is(table, SQLiteTable)) continue;
    twins[key] = pgTwinOf(table, options, byName);
    byName.set(getTableName(table), twins[key]);
  }
  return twins as PgTwins<S>;
}

/** The column of a table (its columns by key) by its SQL name. */
function columnNamed(columns: Record<string, Column>, table: string, name: string | undefined): AnyPgColumn {
  const column = Object.values(columns).find((candidate) => candidate.name === name);
  if (!column) throw new Error(`no PostgreSQL column ${table}.${name}`);
  return column as AnyPgColumn;
}

function pgTwinOf(table: SQLiteTable, options: TwinOptions, byName: Map<string, Table>): Table {
  const config = getTableConfig(table);
  if (config.checks.length > 0 || config.uniqueConstraints.length > 0)
    throw new Error(`${config.name}: checks and unique constraints have no PostgreSQL twin yet`);
  const columns: Record<string, Builder> = {};
  for (const [key, column] of Object.entries(getTableColumns(table)) as [string, SQLiteColumn][]) {
    let builder = pgTypeOf(config.name, column, options);
    if ((column.primary && !isAutoIncrement(column)) || options.primaryKeys?.[config.name] === column.name)
      builder = builder.primaryKey();
    if (column.notNull) builder = builder.notNull();
    if (column.hasDefault && column.default !== undefined) builder = builder.default(column.default);
    if (column.isUnique) builder = builder.unique(column.uniqueName);
    const foreignKey = config.foreignKeys.find((fk) => fk.reference().columns.some((c) => c.name === column.name));
    if (foreignKey && !options.withoutForeignKeys?.includes(`${config.name}.${column.name}`)) {
      const { columns: from, foreignColumns, foreignTable } = foreignKey.reference();
      if (from.length !== 1) throw new Error(`${config.name}: composite foreign keys have no PostgreSQL twin yet`);
      // Lazy, as in a hand-written schema: the referenced twin may be made after this one.
      const target = () => {
        const twin = byName.get(getTableName(foreignTable));
        if (!twin) throw new Error(`${config.name}: no PostgreSQL twin of ${getTableName(foreignTable)}`);
        return columnNamed(getTableColumns(twin), getTableName(twin), foreignColumns[0]?.name);
      };
      builder = builder.references(target, { onDelete: foreignKey.onDelete, onUpdate: foreignKey.onUpdate });
    }
    columns[key] = builder;
  }
  return pgTable(config.name, columns, (self) => {
    const twinColumn = (column: { name: string }) => columnNamed(self, config.name, column.name);
    return [
      ...config.primaryKeys.map((pk) =>
        primaryKey({ name: pk.name, columns: pk.columns.map(twinColumn) as [AnyPgColumn, ...AnyPgColumn[]] }),
      ),
      ...config.indexes.flatMap(({ config: ix }) => {
        const override = options.indexes?.[ix.name];
        if (override === null) return [];
        const names = override ?? ix.columns.map((column) => (column as { name: string }).name);
        const on = names.map((name) => twinColumn({ name }));
        const unique = ix.unique && !options.plainIndexes?.includes(ix.name);
        const built = (unique ? uniqueIndex : index)(ix.name).on(...(on as [AnyPgColumn, ...AnyPgColumn[]]));
        return [ix.where ? built.where(ix.where as SQL) : built];
      }),
    ];
  });
}

const isAutoIncrement = (column: SQLiteColumn) => (column as { autoIncrement?: boolean }).autoIncrement === true;

/** The pg-core builder of one SQLite column's type (its constraints are added by the caller). */
function pgTypeOf(table: string, column: SQLiteColumn, options: TwinOptions): Builder {
  const name = column.name;
  switch (column.columnType) {
    case "SQLiteText":
      return text(name, { enum: column.enumValues as [string, ...string[]] | undefined });
    case "SQLiteTextJson":
      return json(name);
    case "SQLiteReal":
      return doublePrecision(name);
    case "SQLiteBoolean":
      return boolean(name);
    case "SQLiteBlobBuffer":
      return bytea(name);
    case "SQLiteInteger":
      // AUTOINCREMENT never reuses a deleted row's value; an identity column never does either.
      if (isAutoIncrement(column)) return bigint(name, { mode: "number" }).primaryKey().generatedByDefaultAsIdentity();
      return options.bigintColumn(table, name) ? bigint(name, { mode: "number" }) : integer(name);
    default:
      throw new Error(`${table}.${name}: no PostgreSQL type for ${column.columnType}`);
  }
}
