import { getTableName, is, Table } from "drizzle-orm";
import { type Dialect, type Op, type OpPlan, type Ops, planOp } from "../statements.ts";
import { pgColumns } from "./columns.ts";
import type { PgExec } from "./exec.ts";
import * as schema from "./schema.ts";

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
  // Bun sends a string bound to a json parameter as a JSON *string*: bind text, cast it.
  json: (param) => `${param}::text::json`,
  inList: (column, param, type = "text") => `${column} = ANY(${param}::${type}[])`,
  utcDay: (epochMs) => `to_char(to_timestamp(${epochMs} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  listRows: (param, alias) => `unnest(${param}::text[]) AS ${alias}(value)`,
  jsonArray: (json, alias) => `json_array_elements_text(${json}) AS ${alias}(value)`,
  contains: (haystack, needle) => `position(${needle} IN ${haystack}) > 0`,
  limit: (param) => `CASE WHEN ${param}::bigint < 0 THEN NULL ELSE ${param}::bigint END`,
};

const placeholder = (n: number) => `$${n}`;

/** Once per process: the aggregates are made for every transaction. */
const plans = new WeakMap<object, OpPlan>();

export function pgOps<T>(db: PgExec, ops: Ops<T>): T {
  const functions: Record<string, (...input: unknown[]) => Promise<unknown>> = {};
  for (const [name, op] of Object.entries(ops as Record<string, Op<unknown[], unknown>>)) {
    let opPlan = plans.get(op);
    if (!opPlan) plans.set(op, (opPlan = planOp(op, POSTGRES, placeholder)));
    const { plan, read } = opPlan;
    const execute = op.kind === "get" ? db.get.bind(db) : op.kind === "all" ? db.all.bind(db) : db.run.bind(db);
    functions[name] = async (...input) => {
      const call = plan(input);
      return read(await execute(call.compiled.text, call.args));
    };
  }
  return functions as T;
}
