export type LogLevel = "info" | "error" | "silent";

export interface Logger {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

/** One JSON object per line: info to stdout, errors to stderr, nothing at `silent`. */
export function createLogger(level: LogLevel, now: () => number): Logger {
  const line = (severity: string, fields: Record<string, unknown>) =>
    JSON.stringify({ time: new Date(now()).toISOString(), level: severity, ...fields }) + "\n";
  return {
    info: (fields) => {
      if (level === "info") process.stdout.write(line("info", fields));
    },
    error: (fields) => {
      if (level !== "silent") process.stderr.write(line("error", fields));
    },
  };
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };
