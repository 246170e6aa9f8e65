/**
 * One cycle of the checkpoint thread (checkpoint-worker.ts): its passes (runPasses), and when
 * the next cycle is due (nextCheckpointDelayMs).
 */

/**
 * The next cycle comes after `intervalMs`; but a cycle whose WAL reached `fastFrames` — half of
 * SQLite's automatic checkpoint, the safety net on the server's connection (src/db/client.ts) —
 * brings the next one forward in proportion, so that at any write rate a cycle's WAL stays near
 * `fastFrames` and the net, which would copy the WAL inside a COMMIT on the main thread, does
 * not fire. Each cycle ends with a short catch-up on the server's connection, so cycles are not
 * made shorter than they need to be.
 */
export const MIN_CHECKPOINT_DELAY_MS = 50;

export function nextCheckpointDelayMs(walFrames: number, intervalMs: number, fastFrames: number): number {
  if (walFrames < fastFrames) return intervalMs;
  return Math.min(intervalMs, Math.max(MIN_CHECKPOINT_DELAY_MS, Math.round((intervalMs * fastFrames) / walFrames)));
}

/** A PASSIVE checkpoint's answer, or "busy": another connection (the server's own catch-up) was checkpointing, so it copied nothing. */
export type PassResult = { log: number; checkpointed: number } | "busy";

/**
 * The passes of one cycle. The server keeps writing while a pass copies, so passes repeat until
 * one sees fewer than `catchUpFrames` arrive since the one before (at most `maxPasses`). The
 * cycle's report is the last pass that ran; a busy pass ends the cycle, and a cycle whose first
 * pass was busy has nothing to report (SQLite answers -1 frames then: not the WAL's size, and
 * not a checkpoint).
 */
export function runPasses(
  pass: () => PassResult,
  maxPasses: number,
  catchUpFrames: number,
): { log: number; checkpointed: number } | null {
  const first = pass();
  if (first === "busy") return null;
  let report = first;
  for (let passes = 1; passes < maxPasses; passes++) {
    const next = pass();
    if (next === "busy") break;
    const arrived = next.log - report.log;
    report = next;
    if (arrived < catchUpFrames) break;
  }
  return report;
}
