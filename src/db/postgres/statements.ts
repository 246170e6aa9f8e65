import { getTableName, is, Table } from "drizzle-orm";
import {
  combinationIndex,
  compile,
  compileOp,
  pickArgs,
  type Compiled,
  type Dialect,
  type Op,
  type Ops,
} from "../statements.ts";
import { pgColumns } from "./columns.ts";
import type { PgExec } from "./exec.ts";
import * as schema from "./schema.ts";

/** The PostgreSQL twin of each SQLite table, by table name. */
const TWINS = new Map<string, Table>(
  (Object.values(schema) as unknown[])
    .filter((value): value is Table => is(value, Table))
    .map((table) => [getTableName(table), table]),
);

export const POSTGRES: Dialect = {
  name: "postgres",
  columns: (table: Table, alias?: string) => {
    const twin = TWINS.get(getTableName(table));
    if (!twin) throw new Error(`no PostgreSQL twin of table ${getTableName(table)}`);
    return pgColumns(twin, alias);
  },
  inList: (column, param, type = "text") => `${column} = ANY(${param}::${type}[])`,
  utcDay: (epochMs) => `to_char(to_timestamp(${epochMs} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  listRows: (param, alias) => `unnest(${param}::text[]) AS ${alias}(value)`,
  contains: (haystack, needle) => `position(${needle} IN ${haystack}) > 0`,
  limit: (param) => `CASE WHEN ${param}::bigint < 0 THEN NULL ELSE ${param}::bigint END`,
};

const placeholder = (n: number) => `$${n}`;

const compiledOps = new WeakMap<object, Map<string, Compiled[]>>();

/** The compiled texts of an aggregate's statements, once per process (aggregates are made per transaction). */
function compiledFor(ops: Record<string, Op<unknown[], unknown>>): Map<string, Compiled[]> {
  let compiled = compiledOps.get(ops);
  if (!compiled) {
    compiled = new Map(
      Object.entries(ops).map(([name, op]) => [name, compileOp(op as Op<never, unknown>, POSTGRES, placeholder)]),
    );
    compiledOps.set(ops, compiled);
  }
  return compiled;
}

/** An aggregate's shared statements (src/db/statements.ts) over a pool or an open transaction. */
export function pgOps<T>(db: PgExec, ops: Ops<T>): T {
  const table = ops as Record<string, Op<unknown[], unknown>>;
  const compiled = compiledFor(table);
  const functions: Record<string, (...input: unknown[]) => Promise<unknown>> = {};
  for (const [name, op] of Object.entries(table)) {
    const perCall = op.perCall;
    if (perCall) {
      functions[name] = async (...input) => {
        const statement = compile(perCall(POSTGRES, ...input), placeholder);
        const args = pickArgs(statement, op.bind(...input));
        if (op.kind === "run") await db.run(statement.text, args);
        else return (op.read as (raw: unknown, d: Dialect) => unknown)(await db.all(statement.text, args), POSTGRES);
      };
      continue;
    }
    const texts = compiled.get(name)!;
    const read = op.read as (raw: unknown, d: Dialect) => unknown;
    const variants = op.variants;
    const call = op.kind === "get" ? db.get.bind(db) : op.kind === "all" ? db.all.bind(db) : db.run.bind(db);
    functions[name] = async (...input) => {
      const statement = texts[variants ? combinationIndex(variants.keys, variants.pick(...input)) : 0]!;
      return read(await call(statement.text, pickArgs(statement, op.bind(...input))), POSTGRES);
    };
  }
  return functions as T;
}
