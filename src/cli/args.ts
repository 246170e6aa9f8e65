import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./io.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

const COMMON = {
  db: { type: "string" },
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
} as const satisfies Options;

/** node:util parseArgs, strict, with --db/--help/--json on every command; errors become usage errors. */
export function parseCommandArgs<const T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options: { ...COMMON, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? (error.message.split("\n")[0] ?? String(error)) : String(error));
  }
}

export function requireFlag(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`missing --${flag}`);
  return value;
}
