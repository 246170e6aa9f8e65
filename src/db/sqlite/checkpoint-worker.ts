import { Database } from "bun:sqlite";
import { nextCheckpointDelayMs, runPasses, type PassResult } from "./checkpoint-schedule.ts";

/**
 * The WAL checkpointer's thread (src/db/sqlite/checkpoint-thread.ts). A checkpoint copies every
 * page written since the last one from the WAL into the database file: under chat load, tens of
 * milliseconds of synchronous I/O that, run on the server's connection, stopped every request
 * for as long (the chat p99). Here it runs on a connection and a core of its own; PASSIVE never
 * waits for, nor blocks, the server's readers and writers.
 *
 * The server keeps writing while a pass copies, so one pass ends behind the WAL's end: passes
 * repeat until one sees fewer than CATCH_UP_FRAMES arrive since the one before (at most
 * MAX_PASSES; a pass with nothing new to copy costs nothing). The report is the last pass's
 * (none when the server's connection was checkpointing itself), and the server's connection
 * finishes from there cheaply (checkpoint-thread.ts: the WAL starts over only after a checkpoint
 * that copied every frame). The next cycle is due after `intervalMs`, sooner after one whose WAL
 * reached `fastFrames`. Both rules are in checkpoint-schedule.ts.
 */
declare const self: Worker;

export type CheckpointMessage = { start: { path: string; intervalMs: number; fastFrames: number } } | "stop";
/** PRAGMA wal_checkpoint's answer: frames in the WAL and frames copied, or the error's text. */
export type CheckpointReport = { log: number; checkpointed: number } | { error: string } | "stopped";

/** Frames written during a pass past which another pass follows at once. */
const CATCH_UP_FRAMES = 256;
const MAX_PASSES = 3;

let connection: Database | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

function pass(db: Database): PassResult {
  // One row: busy (0/1), frames in the WAL, frames copied into the file; -1 frames when another
  // connection holds the checkpoint lock (the server's own catch-up).
  const [, log, checkpointed] = db.query("PRAGMA wal_checkpoint(PASSIVE)").values()[0] ?? [];
  if (Number(log ?? 0) < 0) return "busy";
  return { log: Number(log ?? 0), checkpointed: Number(checkpointed ?? 0) };
}

/** One cycle (its passes and its report), then the next one scheduled. */
function cycle(schedule: { intervalMs: number; fastFrames: number }): void {
  if (!connection) return;
  const walFrames = checkpoint(connection);
  timer = setTimeout(() => cycle(schedule), nextCheckpointDelayMs(walFrames, schedule.intervalMs, schedule.fastFrames));
}

/** The passes of one cycle and their report; the frames the WAL held at the last pass (0 on an error or a busy cycle). */
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
    // A checkpoint that meets a lock skips what it cannot copy now; the next one copies it.
    connection.exec("PRAGMA busy_timeout = 0");
  } catch (error) {
    self.postMessage({ error: `cannot open ${message.start.path}: ${String(error)}` } satisfies CheckpointReport);
    return;
  }
  const { intervalMs, fastFrames } = message.start;
  // The first cycle at once: it takes whatever WAL the server's start-up left.
  timer = setTimeout(() => cycle({ intervalMs, fastFrames }), 0);
};
