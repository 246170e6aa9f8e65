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

export const processIo: CliIo = {
  env: process.env,
  out: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
  readStdin: async () => (process.stdin.isTTY ? "" : await Bun.stdin.text()),
};

/** Prints rows as aligned columns; `--json` callers print the objects instead. */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ").trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

export const isoOrDash = (ms: number | null): string => (ms === null ? "-" : new Date(ms).toISOString());
