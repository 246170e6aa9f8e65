import { Database } from "bun:sqlite";

/**
 * The WAL checkpointer's thread (src/db/sqlite/checkpoint-thread.ts). A checkpoint copies every
 * page written since the last one from the WAL into the database file: under chat load, tens of
 * milliseconds of synchronous I/O that, run on the server's connection, stopped every request
 * for as long (issue 13, p99). Here it runs on a connection and a core of its own; PASSIVE never
 * waits for, nor blocks, the server's readers and writers.
 */
declare const self: Worker;

export type CheckpointMessage = { start: { path: string; intervalMs: number } } | "stop";
/** PRAGMA wal_checkpoint's answer: frames in the WAL and frames copied, or the error's text. */
export type CheckpointReport = { log: number; checkpointed: number } | { error: string } | "stopped";

let connection: Database | null = null;
let timer: ReturnType<typeof setInterval> | null = null;

function checkpoint(): void {
  if (!connection) return;
  try {
    // One row: busy (0/1), frames in the WAL, frames copied into the file.
    const [, log, checkpointed] = connection.query("PRAGMA wal_checkpoint(PASSIVE)").values()[0] ?? [];
    self.postMessage({ log: Number(log ?? 0), checkpointed: Number(checkpointed ?? 0) } satisfies CheckpointReport);
  } catch (error) {
    self.postMessage({ error: String(error) } satisfies CheckpointReport);
  }
}

self.onmessage = (event: MessageEvent<CheckpointMessage>) => {
  const message = event.data;
  if (message === "stop") {
    if (timer) clearInterval(timer);
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
  timer = setInterval(checkpoint, message.start.intervalMs);
};
