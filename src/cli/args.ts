import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./io.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

const COMMON = {
  db: { type: "string" },
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
} as const satisfies Options;

/**
 * parseArgs' own messages are written for Node programmers ("argument is ambiguous", advice about
 * `--` with unbalanced quotes); a user gets one plain sentence naming the flag instead.
 */
function plainParseError(message: string): string {
  const first = message.split("\n")[0] ?? message;
  const unknown = /^Unknown option '([^']+)'/.exec(first);
  if (unknown) return `unknown option ${unknown[1]}`;
  const flag = /^Option '(--?[\w-]+)/.exec(first)?.[1];
  if (!flag) return first;
  if (first.includes("ambiguous")) return `${flag} needs a value; write ${flag}=VALUE for one that starts with -`;
  if (first.includes("argument missing")) return `${flag} needs a value`;
  if (first.includes("does not take an argument")) return `${flag} takes no value`;
  return first;
}

/** node:util parseArgs, strict, with --db/--help/--json on every command; errors become usage errors. */
export function parseCommandArgs<const T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options: { ...COMMON, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(plainParseError(error instanceof Error ? error.message : String(error)));
  }
}

export function requireFlag(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`missing --${flag}`);
  return value;
}
