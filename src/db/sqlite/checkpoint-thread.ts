import type { Logger } from "../../lib/log.ts";
import { WAL_AUTOCHECKPOINT_PAGES } from "../client.ts";
import { workerEntry } from "../../lib/worker-entry.ts";
import type { CheckpointMessage, CheckpointReport } from "./checkpoint-worker.ts";

/** Half a second of writes is a few milliseconds of copying. */
export const CHECKPOINT_INTERVAL_MS = 500;

/** A caught-up WAL of this many frames is finished on the server's connection so it starts over. */
export const RESTART_FRAMES = 1_000;

/** /metrics' WAL figures: process-wide (one server per process); empty until a thread has run. */
const walStats = {
  running: false,
  frames: 0,
  checkpoints: 0,
  failures: 0,
  serverCheckpoints: 0,
  serverCheckpointSeconds: 0,
};

const metric = (name: string, type: "gauge" | "counter", help: string, value: number | string): string =>
  `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name} ${value}\n`;

export function walMetrics(): string {
  if (!walStats.running) return "";
  return [
    metric(
      "parley_wal_frames",
      "gauge",
      "Pages (4 KiB each) in SQLite's WAL file at the last checkpoint; it falls back when the WAL starts over.",
      walStats.frames,
    ),
    metric(
      "parley_wal_checkpoints_total",
      "counter",
      "WAL checkpoints run by the checkpoint thread.",
      walStats.checkpoints,
    ),
    metric(
      "parley_wal_checkpoint_failures_total",
      "counter",
      "WAL checkpoints that failed (each failure is also logged, once per run of failures).",
      walStats.failures,
    ),
    metric(
      "parley_wal_server_checkpoints_total",
      "counter",
      "Caught-up checkpoints finished on the server's connection, after which the WAL starts over.",
      walStats.serverCheckpoints,
    ),
    metric(
      "parley_wal_server_checkpoint_seconds_total",
      "counter",
      "Time they took, from the thread's report to done: the wait for a transaction under way on the connection, then the copy (requests wait meanwhile).",
      walStats.serverCheckpointSeconds.toFixed(6),
    ),
  ].join("");
}

export interface CheckpointThread {
  reports(): { count: number; last: CheckpointReport | null };
  /** Call before the server's connection closes. */
  stop(): Promise<void>;
}

export interface CheckpointThreadOptions {
  intervalMs?: number;
  /** A cycle's WAL that reaches this brings the next forward; half the safety net by default. */
  fastFrames?: number;
  restartFrames?: number;
  /** A PASSIVE checkpoint on the server's connection, once the thread caught up with `restartFrames` or more. */
  finishOnServer?: () => Promise<void>;
}

/**
 * WAL checkpoints on a Worker with its own connection, so copying never stops the main thread
 * (docs/storage.md). The WAL starts over only after a checkpoint that copied every frame, which
 * the thread never quite reaches while the server writes: `finishOnServer` copies the last few.
 * The compiled binary carries the worker as an entry point of its own (package.json's build).
 */
export function startCheckpointThread(
  path: string,
  log: Logger,
  options: CheckpointThreadOptions = {},
): CheckpointThread {
  const {
    intervalMs = CHECKPOINT_INTERVAL_MS,
    fastFrames = WAL_AUTOCHECKPOINT_PAGES / 2,
    restartFrames = RESTART_FRAMES,
    finishOnServer,
  } = options;
  let finishing: Promise<void> | null = null;
  let stopping = false;
  const catchUpOnServer = () => {
    if (!finishOnServer || finishing || stopping) return;
    const started = performance.now();
    finishing = finishOnServer()
      .then(() => {
        walStats.serverCheckpoints++;
        walStats.serverCheckpointSeconds += (performance.now() - started) / 1000;
      })
      .catch((error: unknown) =>
        log.error({ msg: "finishing a WAL checkpoint on the server's connection failed", error: String(error) }),
      )
      .finally(() => {
        finishing = null;
      });
  };
  const worker = new Worker(
    workerEntry("db/sqlite/checkpoint-worker", new URL("./checkpoint-worker.ts", import.meta.url)),
  );
  let count = 0;
  let last: CheckpointReport | null = null;
  let failing = false;
  let stopped: (() => void) | null = null;
  worker.onmessage = (event: MessageEvent<CheckpointReport>) => {
    const report = event.data;
    if (report === "stopped") return stopped?.();
    count++;
    last = report;
    walStats.checkpoints++;
    if ("log" in report) {
      walStats.frames = report.log;
      if (report.log >= restartFrames && report.checkpointed === report.log) catchUpOnServer();
      failing = false;
      return;
    }
    walStats.failures++;
    if (!failing) log.error({ msg: "WAL checkpoint failed", error: report.error });
    failing = true;
  };
  worker.onerror = (event) =>
    log.error({
      msg: "the WAL checkpoint thread failed; SQLite's automatic checkpoint still bounds the WAL",
      error: event.message,
    });
  worker.postMessage({ start: { path, intervalMs, fastFrames } } satisfies CheckpointMessage);
  walStats.running = true;
  return {
    reports: () => ({ count, last }),
    stop: async () => {
      stopping = true;
      await finishing;
      return new Promise<void>((resolve) => {
        const deadline = setTimeout(() => finish(), 1_000);
        const finish = () => {
          clearTimeout(deadline);
          worker.terminate();
          resolve();
        };
        stopped = finish;
        worker.postMessage("stop" satisfies CheckpointMessage);
      });
    },
  };
}
