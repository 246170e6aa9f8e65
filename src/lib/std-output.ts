import { writeSync } from "node:fs";

/** Where log lines and CLI output go: a stream with a file descriptor behind it. */
export interface OutputStream {
  readonly fd: number;
  write(text: string, callback: (error?: Error | null) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

export interface SafeOutput {
  write(text: string): void;
}

let droppedLines = 0;

/** Lines that could not be written (full disk, closed pipe) since start; /metrics shows it. */
export const droppedOutputLines = (): number => droppedLines;

/**
 * Writes that never kill the process. A failing standard stream (ENOSPC on a full log disk,
 * EPIPE when the reader went away) would otherwise emit an unhandled 'error' and end the
 * server; here the line is dropped and counted, and requests and deliveries go on. Once the
 * stream has failed (Node streams stay destroyed), lines go straight to the descriptor with
 * writeSync, so logging resumes by itself when space is freed.
 */
export function createSafeOutput(stream: OutputStream): SafeOutput {
  let broken = false;
  const drop = () => {
    droppedLines++;
    broken = true;
  };
  // A stream that errors with no listener throws from the event loop: the crash this prevents.
  stream.on("error", () => {
    broken = true;
  });
  return {
    write(text) {
      if (broken) {
        try {
          writeSync(stream.fd, text);
        } catch {
          droppedLines++;
        }
        return;
      }
      try {
        stream.write(text, (error) => {
          if (error) drop();
        });
      } catch {
        drop();
      }
    },
  };
}

let standard: { out: SafeOutput; err: SafeOutput } | null = null;

/** The process's stdout and stderr behind createSafeOutput, made once. */
export function standardOutput(): { out: SafeOutput; err: SafeOutput } {
  standard ??= { out: createSafeOutput(process.stdout), err: createSafeOutput(process.stderr) };
  return standard;
}
