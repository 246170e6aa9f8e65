import type { Logger } from "../../lib/log.ts";
import { WAL_AUTOCHECKPOINT_PAGES } from "../client.ts";
import { workerEntry } from "../../lib/worker-entry.ts";
import type { CheckpointMessage, CheckpointReport } from "./checkpoint-worker.ts";

/** How often the thread checkpoints: half a second of writes is a few milliseconds of copying. */
export const CHECKPOINT_INTERVAL_MS = 500;

/**
 * A checkpoint that caught up with a WAL of at least this many frames (~4 MB) is finished on the
 * server's connection, so that the WAL starts over; below it, letting the WAL grow costs nothing.
 */
export const RESTART_FRAMES = 1_000;

/**
 * What /metrics says about the WAL (Prometheus text), from the checkpoint thread of this
 * process: one server per process, so these are process-wide, like the dropped-log-lines
 * counter. Empty until a thread has run (PostgreSQL, an in-memory database).
 */
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
  /** Checkpoints reported so far, and the last report (tests, diagnostics). */
  reports(): { count: number; last: CheckpointReport | null };
  /** Ends the thread and closes its connection; call before the server's connection closes. */
  stop(): Promise<void>;
}

export interface CheckpointThreadOptions {
  intervalMs?: number;
  /** A cycle whose WAL reached this many frames brings the next forward (checkpoint-schedule.ts); half the safety net by default. */
  fastFrames?: number;
  restartFrames?: number;
  /**
   * A PASSIVE checkpoint on the server's own connection, between two of its transactions
   * (`store.maintenance.checkpoint()`): called when the thread's checkpoint copied every frame
   * the WAL held when it began and the WAL holds at least `restartFrames`. Not called again
   * while one is running.
   */
  finishOnServer?: () => Promise<void>;
}

/**
 * The server's WAL checkpoints on a thread of their own (a Bun Worker running
 * checkpoint-worker.ts with its own connection to the file), every CHECKPOINT_INTERVAL_MS, so
 * that copying the WAL into the database never stops the main thread (on the server's
 * connection a checkpoint under chat load held every request in flight; docs/hot-path.md).
 * The compiled binary carries the worker as an entry point of its own (package.json's build).
 *
 * The WAL starts over (its next frame written at its start) only when a write begins after a
 * checkpoint that copied every frame. While the server keeps writing, the thread never quite
 * gets there — frames arrive while it copies — so the WAL would grow to SQLite's automatic
 * checkpoint on the server's connection, which runs inside a COMMIT: a stall of tens of ms
 * about every second at full write rate (docs/hot-path.md). So the thread catches up
 * (checkpoint-worker.ts) and `finishOnServer` copies the few frames
 * written since on the server's connection: 1–7 ms between two transactions, after which
 * nothing is left uncopied and the next write starts the WAL over. The automatic checkpoint
 * stays, as the safety net if this thread fails (WAL_AUTOCHECKPOINT_PAGES, src/db/client.ts:
 * set well above what one cycle writes at full load, and a cycle that gets near half of it
 * brings the next one forward).
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
    // Logged once per run of failures, not every time.
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
      // The server's connection closes after this: a catch-up under way ends first.
      await finishing;
      return new Promise<void>((resolve) => {
        // A thread that does not answer within a second is ended anyway.
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
