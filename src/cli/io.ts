import { standardOutput } from "../lib/std-output.ts";

/** What a CLI command may touch: injected so tests run commands in-process and read their output. */
export interface CliIo {
  readonly env: Record<string, string | undefined>;
  out(text: string): void;
  err(text: string): void;
  /** The whole of standard input, or "" when it is a terminal with nothing piped. */
  readStdin(): Promise<string>;
}

export class UsageError extends Error {
  override name = "UsageError";
}

const line = (text: string) => (text.endsWith("\n") ? text : `${text}\n`);

export const processIo: CliIo = {
  env: process.env,
  // Through the safe writers: a full disk or a closed pipe on stdout never stops a running server.
  out: (text) => standardOutput().out.write(line(text)),
  err: (text) => standardOutput().err.write(line(text)),
  readStdin: async () => (process.stdin.isTTY ? "" : await Bun.stdin.text()),
};

/** Prints rows as aligned columns; `--json` callers print the objects instead. */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

export const isoOrDash = (ms: number | null): string => (ms === null ? "-" : new Date(ms).toISOString());

/**
 * A secret for the CLI: from its environment variable, else the first line of standard input
 * — never a flag, which would end up in shell history and process listings. Passwords keep
 * their spaces (`trim: false`); tokens and signing secrets are trimmed.
 */
export async function readSecret(
  io: CliIo,
  envName: string,
  what: string,
  options: { trim: boolean },
): Promise<string> {
  const clean = (text: string | undefined) => (options.trim ? text?.trim() : text) ?? "";
  const fromEnv = clean(io.env[envName]);
  if (fromEnv) return fromEnv;
  const line = clean((await io.readStdin()).split(/\r?\n/)[0]);
  if (!line) throw new UsageError(`no ${what}: set ${envName} or pipe it on standard input`);
  return line;
}
