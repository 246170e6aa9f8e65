/**
 * When the checkpoint thread's next pass is due (checkpoint-worker.ts). Normally every
 * `intervalMs`; but a cycle whose WAL reached `fastFrames` — half of SQLite's automatic
 * checkpoint, the safety net on the server's connection (src/db/client.ts) — brings the next one
 * forward in proportion, so that at any write rate a cycle's WAL stays near `fastFrames` and the
 * net, which would copy the WAL inside a COMMIT on the main thread, does not fire. Each cycle
 * ends with a short catch-up on the server's connection, so cycles are not made shorter than
 * they need to be.
 */
export const MIN_CHECKPOINT_DELAY_MS = 50;

export function nextCheckpointDelayMs(walFrames: number, intervalMs: number, fastFrames: number): number {
  if (walFrames < fastFrames) return intervalMs;
  return Math.min(intervalMs, Math.max(MIN_CHECKPOINT_DELAY_MS, Math.round((intervalMs * fastFrames) / walFrames)));
}
