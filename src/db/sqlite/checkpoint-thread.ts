import type { Logger } from "../../lib/log.ts";
import { workerEntry } from "../../lib/worker-entry.ts";
import type { CheckpointMessage, CheckpointReport } from "./checkpoint-worker.ts";

/** How often the thread checkpoints: a second of writes is a few milliseconds of copying. */
export const CHECKPOINT_INTERVAL_MS = 1_000;

export interface CheckpointThread {
  /** Checkpoints reported so far, and the last report (tests, diagnostics). */
  reports(): { count: number; last: CheckpointReport | null };
  /** Ends the thread and closes its connection; call before the server's connection closes. */
  stop(): Promise<void>;
}

/**
 * The server's WAL checkpoints on a thread of their own (a Bun Worker running
 * checkpoint-worker.ts with its own connection to the file), every CHECKPOINT_INTERVAL_MS, so
 * that copying the WAL into the database never stops the main thread (issue 13: a 10 s
 * checkpoint on the server's connection took ~50 ms under chat load, every request in flight
 * waiting for it). The server's connection keeps SQLite's automatic checkpoint at 10,000 pages
 * as a safety net (src/db/client.ts) and no longer checkpoints from the scheduler. The compiled
 * binary carries the worker as an entry point of its own (package.json's build script).
 */
export function startCheckpointThread(path: string, log: Logger, intervalMs = CHECKPOINT_INTERVAL_MS): CheckpointThread {
  const worker = new Worker(workerEntry("db/sqlite/checkpoint-worker", new URL("./checkpoint-worker.ts", import.meta.url)));
  let count = 0;
  let last: CheckpointReport | null = null;
  let failing = false;
  let stopped: (() => void) | null = null;
  worker.onmessage = (event: MessageEvent<CheckpointReport>) => {
    const report = event.data;
    if (report === "stopped") return stopped?.();
    count++;
    last = report;
    // Logged once per run of failures, not every second.
    if ("error" in report && !failing) log.error({ msg: "WAL checkpoint failed", error: report.error });
    failing = "error" in report;
  };
  worker.onerror = (event) => log.error({ msg: "the WAL checkpoint thread failed; SQLite's automatic checkpoint still bounds the WAL", error: event.message });
  worker.postMessage({ start: { path, intervalMs } } satisfies CheckpointMessage);
  return {
    reports: () => ({ count, last }),
    stop: () =>
      new Promise<void>((resolve) => {
        // A thread that does not answer within a second is ended anyway.
        const deadline = setTimeout(() => finish(), 1_000);
        const finish = () => {
          clearTimeout(deadline);
          worker.terminate();
          resolve();
        };
        stopped = finish;
        worker.postMessage("stop" satisfies CheckpointMessage);
      }),
  };
}
