import { standardOutput, type SafeOutput } from "./std-output.ts";

export type LogLevel = "info" | "error" | "silent";

export interface Logger {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

/**
 * One JSON object per line: info to stdout, errors to stderr, nothing at `silent`. A line that
 * cannot be written is dropped and counted (see std-output.ts), never thrown.
 */
export function createLogger(
  level: LogLevel,
  now: () => number,
  output: { out: SafeOutput; err: SafeOutput } = standardOutput(),
): Logger {
  const line = (severity: string, fields: Record<string, unknown>) =>
    `${JSON.stringify({ time: new Date(now()).toISOString(), level: severity, ...fields })}\n`;
  return {
    info: (fields) => {
      if (level === "info") output.out.write(line("info", fields));
    },
    error: (fields) => {
      if (level !== "silent") output.err.write(line("error", fields));
    },
  };
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };
