import type { Database, SQLQueryBindings, Statement } from "bun:sqlite";
import type { Table } from "drizzle-orm";
import { compile, type Dialect, type Op, type Ops, planOp } from "../statements.ts";
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";

export const SQLITE: Dialect = {
  name: "sqlite",
  columns: (table: Table, alias?: string) => selectColumns(table, alias),
  json: (param) => param,
  inList: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  utcDay: (epochMs) => `strftime('%Y-%m-%d', ${epochMs} / 1000, 'unixepoch')`,
  limit: (param) => param,
  listRows: (param, alias) => `json_each(${param}) AS ${alias}`,
  jsonArray: (json, alias) => `json_each(${json}) AS ${alias}`,
  contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`,
};

const placeholder = (n: number) => `?${n}`;

export const sqliteText = (text: string): string => compile(text, placeholder).text;

/** A list binds as JSON text, read back by json_each. */
const bindable = (args: readonly unknown[]): SQLQueryBindings[] =>
  args.map((value) => (Array.isArray(value) ? JSON.stringify(value) : value)) as SQLQueryBindings[];

/** Prepared once on this connection; a text built per call goes through sqlite.query, cached by text. */
export function sqliteOps<T>(sqlite: Database, ops: Ops<T>): SyncOf<T> {
  const functions: Record<string, (...input: unknown[]) => unknown> = {};
  for (const [name, op] of Object.entries(ops as Record<string, Op<unknown[], unknown>>)) {
    const { compiled, plan, read } = planOp(op, SQLITE, placeholder);
    const prepared = compiled.map((statement) => sqlite.prepare(statement.text));
    const execute: (statement: Statement, args: SQLQueryBindings[]) => unknown =
      op.kind === "get"
        ? (statement, args) => statement.get(...args)
        : op.kind === "all"
          ? (statement, args) => statement.all(...args)
          : (statement, args) => statement.run(...args).changes;
    functions[name] = (...input) => {
      const call = plan(input);
      return read(execute(prepared[call.index] ?? sqlite.query(call.compiled.text), bindable(call.args)));
    };
  }
  return functions as SyncOf<T>;
}
