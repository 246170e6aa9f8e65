import { Database } from "bun:sqlite";
import { nextCheckpointDelayMs, runPasses, type PassResult } from "./checkpoint-schedule.ts";

/** The checkpoint thread's body (checkpoint-thread.ts); PASSIVE never waits for, nor blocks, the server. */
declare const self: Worker;

export type CheckpointMessage = { start: { path: string; intervalMs: number; fastFrames: number } } | "stop";
/** PRAGMA wal_checkpoint's answer: frames in the WAL and frames copied, or the error's text. */
export type CheckpointReport = { log: number; checkpointed: number } | { error: string } | "stopped";

const CATCH_UP_FRAMES = 256;
const MAX_PASSES = 3;

let connection: Database | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

function pass(db: Database): PassResult {
  // -1 frames when another connection (the server's catch-up) holds the checkpoint lock.
  const [, log, checkpointed] = db.query("PRAGMA wal_checkpoint(PASSIVE)").values()[0] ?? [];
  if (Number(log ?? 0) < 0) return "busy";
  return { log: Number(log ?? 0), checkpointed: Number(checkpointed ?? 0) };
}

function cycle(schedule: { intervalMs: number; fastFrames: number }): void {
  if (!connection) return;
  const walFrames = checkpoint(connection);
  timer = setTimeout(() => cycle(schedule), nextCheckpointDelayMs(walFrames, schedule.intervalMs, schedule.fastFrames));
}

/** The WAL's frames at the last pass (0 on an error or a busy cycle). */
function checkpoint(db: Database): number {
  try {
    const report = runPasses(() => pass(db), MAX_PASSES, CATCH_UP_FRAMES);
    if (report === null) return 0;
    self.postMessage(report satisfies CheckpointReport);
    return report.log;
  } catch (error) {
    self.postMessage({ error: String(error) } satisfies CheckpointReport);
    return 0;
  }
}

self.onmessage = (event: MessageEvent<CheckpointMessage>) => {
  const message = event.data;
  if (message === "stop") {
    if (timer) clearTimeout(timer);
    timer = null;
    connection?.close();
    connection = null;
    self.postMessage("stopped" satisfies CheckpointReport);
    return;
  }
  try {
    connection = new Database(message.start.path, { readwrite: true, create: false });
    connection.exec("PRAGMA busy_timeout = 0");
  } catch (error) {
    self.postMessage({ error: `cannot open ${message.start.path}: ${String(error)}` } satisfies CheckpointReport);
    return;
  }
  const { intervalMs, fastFrames } = message.start;
  timer = setTimeout(() => cycle({ intervalMs, fastFrames }), 0);
};
