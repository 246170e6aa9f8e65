import { Database } from "bun:sqlite";

/**
 * The WAL checkpointer's thread (src/db/sqlite/checkpoint-thread.ts). A checkpoint copies every
 * page written since the last one from the WAL into the database file: under chat load, tens of
 * milliseconds of synchronous I/O that, run on the server's connection, stopped every request
 * for as long (issue 13, p99). Here it runs on a connection and a core of its own; PASSIVE never
 * waits for, nor blocks, the server's readers and writers.
 *
 * PASSIVE alone never lets the WAL start over under steady writes: SQLite rewinds it only after
 * a checkpoint that copied every frame, and the server commits while the copy runs. The WAL
 * then grew to the server connection's own automatic checkpoint (10,000 pages, ~40 MB), which
 * ran inside a COMMIT on the main thread: 16–52 ms with every request waiting, every couple of
 * seconds under chat load. So once the WAL passes `restartFrames`, right after a PASSIVE pass
 * (little is left to copy) the thread runs a RESTART checkpoint: it takes the write lock for the
 * rest of the copy and the sync, waiting at most RESTART_WAIT_MS for it, and the next write
 * starts the WAL from its beginning. Meanwhile the server's writes wait on timers (its
 * connection never waits inside SQLite) and everything else on its main thread goes on.
 */
declare const self: Worker;

export type CheckpointMessage = { start: { path: string; intervalMs: number; restartFrames: number } } | "stop";
/**
 * PRAGMA wal_checkpoint's answer: frames in the WAL and frames copied (after the RESTART, when
 * there was one: `restarted`, the WAL starts over), or the error's text.
 */
export type CheckpointReport = { log: number; checkpointed: number; restarted: boolean } | { error: string } | "stopped";

/** How long a RESTART checkpoint may wait for the server's write transaction and readers. */
const RESTART_WAIT_MS = 20;

let connection: Database | null = null;
let timer: ReturnType<typeof setInterval> | null = null;

/** One row: busy (1 when it could not finish), frames in the WAL, frames copied into the file. */
function walCheckpoint(db: Database, mode: "PASSIVE" | "RESTART"): { busy: boolean; log: number; checkpointed: number } {
  const [busy, log, checkpointed] = db.query(`PRAGMA wal_checkpoint(${mode})`).values()[0] ?? [];
  return { busy: Number(busy) === 1, log: Number(log ?? 0), checkpointed: Number(checkpointed ?? 0) };
}

function checkpoint(db: Database, restartFrames: number): void {
  try {
    const passive = walCheckpoint(db, "PASSIVE");
    if (passive.log <= restartFrames) {
      self.postMessage({ log: passive.log, checkpointed: passive.checkpointed, restarted: false } satisfies CheckpointReport);
      return;
    }
    db.exec(`PRAGMA busy_timeout = ${RESTART_WAIT_MS}`);
    try {
      const restart = walCheckpoint(db, "RESTART");
      self.postMessage({ log: restart.log, checkpointed: restart.checkpointed, restarted: !restart.busy } satisfies CheckpointReport);
    } finally {
      // A PASSIVE pass that meets a lock skips what it cannot copy now; the next one copies it.
      db.exec("PRAGMA busy_timeout = 0");
    }
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
    connection.exec("PRAGMA busy_timeout = 0");
  } catch (error) {
    self.postMessage({ error: `cannot open ${message.start.path}: ${String(error)}` } satisfies CheckpointReport);
    return;
  }
  const { intervalMs, restartFrames } = message.start;
  const db = connection;
  timer = setInterval(() => checkpoint(db, restartFrames), intervalMs);
};
