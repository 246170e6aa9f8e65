import { getTableColumns, getTableName, type InferInsertModel, type Table } from "drizzle-orm";

// A store operation's SQL, written once for both stores (docs/storage.md, "Statements written once").

/** What a statement's text may ask of the store it runs on. */
export interface Dialect {
  readonly name: "sqlite" | "postgres";
  /** Every column of a (SQLite schema) table as `col AS "camelKey"`. */
  columns(table: Table, alias?: string): string;
  /** A parameter holding JSON text, written to a json column. */
  json(param: string): string;
  /** `col IN (the list bound to param)`; SQLite binds the array as JSON. */
  inList(column: string, param: string, type?: "text" | "bigint"): string;
  /** `YYYY-MM-DD` (UTC) of an epoch-ms expression. */
  utcDay(epochMs: string): string;
  /** A list parameter as a table `alias(value)`. */
  listRows(param: string, alias: string): string;
  /** A json array column's elements as a table `alias(value)` of text. */
  jsonArray(json: string, alias: string): string;
  contains(haystack: string, needle: string): string;
  /** A LIMIT where negative means none, as SQLite reads it (PostgreSQL refuses it). */
  limit(param: string): string;
}

type Flags<K extends string> = Record<K, boolean>;

/** One statement of an aggregate, typed by the operation it implements. */
export interface Op<In extends unknown[], Out> {
  readonly kind: "get" | "all" | "run";
  readonly text: (d: Dialect, given: Flags<string>) => string;
  readonly bind: (...input: In) => readonly unknown[];
  /** The row (or null), the rows or the rows changed, as the operation returns it. */
  readonly read: (raw: never, d: Dialect) => Out;
  /** One statement per combination of optional filters, so each has its index (docs/storage.md). */
  readonly variants?: { readonly keys: readonly string[]; readonly pick: (...input: In) => Flags<string> };
  /** A text built per call, for rare operations. */
  readonly perCall?: (d: Dialect, ...input: In) => string;
}

/** An aggregate's operations as statements. */
export type Ops<T> = { [K in keyof T]: T[K] extends (...input: infer In) => Promise<infer Out> ? Op<In, Out> : never };

type Text = string | ((d: Dialect) => string);
const textOf = (text: Text) => (typeof text === "string" ? () => text : (d: Dialect) => text(d));
const same = <T>(raw: T) => raw;

/** A statement answering one row or none. */
export function one<In extends unknown[], Out, Row = Out>(
  text: Text,
  bind: (...input: In) => readonly unknown[],
  read: (row: Row | null, d: Dialect) => Out = same as (row: Row | null) => Out,
): Op<In, Out> {
  return { kind: "get", text: textOf(text), bind, read: read as Op<In, Out>["read"] };
}

/** A statement answering rows. */
export function many<In extends unknown[], Out, Row = Out extends Array<infer R> ? R : never>(
  text: Text,
  bind: (...input: In) => readonly unknown[],
  read: (rows: Row[], d: Dialect) => Out = same as (rows: Row[]) => Out,
): Op<In, Out> {
  return { kind: "all", text: textOf(text), bind, read: read as Op<In, Out>["read"] };
}

/** A statement that writes; the operation answers the rows changed, or nothing. */
export function write<In extends unknown[], Out = void>(
  text: Text,
  bind: (...input: In) => readonly unknown[],
  read: (changes: number) => Out = same as (changes: number) => Out,
): Op<In, Out> {
  return { kind: "run", text: textOf(text), bind, read: read as Op<In, Out>["read"] };
}

/** Rows with optional filters: a text per combination of those `pick` finds in a call. */
export function filtered<K extends string, In extends unknown[], Out, Row = Out extends Array<infer R> ? R : never>(
  keys: readonly K[],
  pick: (...input: NoInfer<In>) => Flags<K>,
  text: (d: Dialect, given: Flags<K>) => string,
  bind: (...input: In) => readonly unknown[],
  read: (rows: Row[], d: Dialect) => Out = same as (rows: Row[]) => Out,
): Op<In, Out> {
  return {
    kind: "all",
    text: text as Op<In, Out>["text"],
    bind,
    read: read as Op<In, Out>["read"],
    variants: { keys, pick },
  };
}

/** A text built per call from its arguments: compiled each time, so off the hot path only. */
export function perCall<In extends unknown[], Out, Row = Out extends Array<infer R> ? R : never>(
  kind: "all" | "run",
  text: (d: Dialect, ...input: NoInfer<In>) => string,
  bind: (...input: In) => readonly unknown[],
  read: (raw: Row[], d: Dialect) => Out = same as (raw: Row[]) => Out,
): Op<In, Out> {
  return { kind, text: () => "", bind, read: read as Op<In, Out>["read"], perCall: text };
}

/**
 * `INSERT INTO` every column of `table` but an autoincrement key, then `tail` (an ON CONFLICT): the
 * columns are listed once, by the schema. A column the row leaves out takes its schema default.
 */
export function insertRow<T extends Table, Out = void>(
  table: T,
  tail = "",
  read?: (changes: number) => Out,
): Op<[InferInsertModel<T>], Out> {
  const columns = Object.entries(getTableColumns(table))
    .filter(([, column]) => !(column as { autoIncrement?: boolean }).autoIncrement)
    .map(([key, column]) => ({
      key,
      name: column.name,
      json: column.columnType.endsWith("Json"),
      fallback: column.default,
    }));
  const names = columns.map((column) => column.name).join(", ");
  const values = (d: Dialect) =>
    columns.map((column, index) => (column.json ? d.json(`$${index + 1}`) : `$${index + 1}`));
  return write(
    (d) => `INSERT INTO ${getTableName(table)} (${names}) VALUES (${values(d).join(", ")})${tail}`,
    (row) =>
      columns.map(({ key, json, fallback }) => {
        const given = (row as Record<string, unknown>)[key];
        const value = given === undefined ? (fallback ?? null) : given;
        return json ? JSON.stringify(value) : value;
      }),
    read,
  );
}

/** A write built per call (see perCall) whose operation answers nothing. */
export const writePerCall = <In extends unknown[]>(
  text: (d: Dialect, ...input: In) => string,
  bind: (...input: In) => readonly unknown[],
) => perCall<In, void, never>("run", text, bind, () => undefined);

/** Every combination of the optional filters `keys` (2^n of them), as flags. */
export function filterCombinations<K extends string>(keys: readonly K[]): Array<Flags<K>> {
  return Array.from(
    { length: 2 ** keys.length },
    (_, mask) => Object.fromEntries(keys.map((key, bit) => [key, (mask & (1 << bit)) !== 0])) as Flags<K>,
  );
}

/** The index of a combination in filterCombinations' order. */
export const combinationIndex = (keys: readonly string[], given: Flags<string>): number =>
  keys.reduce((sum, key, bit) => (given[key] ? sum | (1 << bit) : sum), 0);

/** A text with the placeholders it uses renumbered `1…k`. */
export interface Compiled {
  text: string;
  /** null when the text uses `$1…$n` in full: the arguments bind as they are. */
  picks: number[] | null;
}

/** Renumbers `$n` to `1…k` (PostgreSQL cannot type a parameter a variant leaves out), spelt `?n` or `$n`. */
export function compile(text: string, placeholder: (n: number) => string): Compiled {
  const used = [...new Set([...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])))].sort((a, b) => a - b);
  const renumber = new Map(used.map((n, index) => [n, index + 1]));
  const compiled = text.replace(/\$(\d+)/g, (_, n: string) => placeholder(renumber.get(Number(n)) ?? 0));
  const complete = used.every((n, index) => n === index + 1);
  return { text: compiled, picks: complete ? null : used.map((n) => n - 1) };
}

/** The arguments a compiled statement takes, from the operation's bound arguments. */
export const pickArgs = (compiled: Compiled, args: readonly unknown[]): readonly unknown[] =>
  compiled.picks === null ? args : compiled.picks.map((index) => args[index]);

/** One call: its statement (a combination compiled up front, or -1: built for this call) and arguments. */
export interface PlannedCall {
  index: number;
  compiled: Compiled;
  args: readonly unknown[];
}

/** How a store runs an operation: its texts compiled once, which one each call takes, and how results read. */
export interface OpPlan {
  compiled: Compiled[];
  plan(input: unknown[]): PlannedCall;
  read(raw: unknown): unknown;
}

export function planOp(op: Op<unknown[], unknown>, d: Dialect, placeholder: (n: number) => string): OpPlan {
  const read = (raw: unknown) => (op.read as (raw: unknown, d: Dialect) => unknown)(raw, d);
  const perCall = op.perCall;
  if (perCall) {
    return {
      compiled: [],
      plan: (input) => {
        const compiled = compile(perCall(d, ...input), placeholder);
        return { index: -1, compiled, args: pickArgs(compiled, op.bind(...input)) };
      },
      read,
    };
  }
  const variants = op.variants;
  const compiled = (variants ? filterCombinations(variants.keys) : [{}]).map((given) =>
    compile(op.text(d, given), placeholder),
  );
  return {
    compiled,
    plan: (input) => {
      const index = variants ? combinationIndex(variants.keys, variants.pick(...input)) : 0;
      const statement = compiled[index]!;
      return { index, compiled: statement, args: pickArgs(statement, op.bind(...input)) };
    },
    read,
  };
}

/** A 0/1 (SQLite) or boolean (PostgreSQL) column as a boolean. */
export const asBoolean = (value: unknown): boolean => value === true || value === 1;

/** A json column: SQLite hands back its text, PostgreSQL the parsed value (a document stored as a JSON string, that string). */
export const parsedJson = <T>(value: unknown): T => (typeof value === "string" ? JSON.parse(value) : value) as T;

/** A count or sum: PostgreSQL answers bigint and numeric as strings. */
export const asNumber = (value: unknown): number => Number(value ?? 0);

/** A nullable bigint column (a string on PostgreSQL). */
export const asNullableNumber = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
