import type { Database, SQLQueryBindings, Statement } from "bun:sqlite";
import type { Table } from "drizzle-orm";
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
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";

export const SQLITE: Dialect = {
  name: "sqlite",
  columns: (table: Table, alias?: string) => selectColumns(table, alias),
  inList: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  utcDay: (epochMs) => `strftime('%Y-%m-%d', ${epochMs} / 1000, 'unixepoch')`,
  limit: (param) => param,
  listRows: (param, alias) => `json_each(${param}) AS ${alias}`,
  contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`,
};

const placeholder = (n: number) => `?${n}`;

/** A shared statement's text as the SQLite store prepares it. */
export const sqliteText = (text: string): string => compile(text, placeholder).text;

/** A list argument binds as JSON text (read back by json_each); everything else as it is. */
const bindable = (args: readonly unknown[]): SQLQueryBindings[] =>
  args.map((value) => (Array.isArray(value) ? JSON.stringify(value) : value)) as SQLQueryBindings[];

/**
 * An aggregate's shared statements (src/db/statements.ts) prepared once on this connection,
 * as synchronous functions (the store wraps them in its async seam).
 */
export function sqliteOps<T>(sqlite: Database, ops: Ops<T>): SyncOf<T> {
  const functions: Record<string, (...input: unknown[]) => unknown> = {};
  for (const [name, op] of Object.entries(ops as Record<string, Op<unknown[], unknown>>)) {
    functions[name] = sqliteFunction(sqlite, op);
  }
  return functions as SyncOf<T>;
}

function sqliteFunction(sqlite: Database, op: Op<unknown[], unknown>): (...input: unknown[]) => unknown {
  const perCall = op.perCall;
  if (perCall) {
    // sqlite.query caches the statement by its text.
    return (...input) => {
      const statement = compile(perCall(SQLITE, ...input), placeholder);
      const query = sqlite.query(statement.text);
      const args = bindable(pickArgs(statement, op.bind(...input)));
      return op.kind === "run"
        ? void query.run(...args)
        : (op.read as (raw: unknown, d: Dialect) => unknown)(query.all(...args), SQLITE);
    };
  }
  const compiled = compileOp(op as Op<never, unknown>, SQLITE, placeholder);
  const prepared = compiled.map((statement) => ({ statement, prepared: sqlite.prepare(statement.text) }));
  const read = op.read as (raw: unknown, d: Dialect) => unknown;
  const variants = op.variants;
  const pickStatement = variants
    ? (input: unknown[]) => prepared[combinationIndex(variants.keys, variants.pick(...input))]!
    : () => prepared[0]!;
  const run = (input: unknown[], call: (statement: Statement, args: SQLQueryBindings[]) => unknown) => {
    const { statement, prepared: query } = pickStatement(input);
    return read(call(query, bindable(pickArgs(statement as Compiled, op.bind(...input)))), SQLITE);
  };
  if (op.kind === "get") return (...input) => run(input, (query, args) => query.get(...args));
  if (op.kind === "all") return (...input) => run(input, (query, args) => query.all(...args));
  return (...input) => run(input, (query, args) => query.run(...args).changes);
}
