/**
 * A cycle whose WAL reached `fastFrames` (half the automatic checkpoint) brings the next forward in
 * proportion, so that safety net, which copies inside a COMMIT, never fires at any write rate.
 */
export const MIN_CHECKPOINT_DELAY_MS = 50;

export function nextCheckpointDelayMs(walFrames: number, intervalMs: number, fastFrames: number): number {
  if (walFrames < fastFrames) return intervalMs;
  return Math.min(intervalMs, Math.max(MIN_CHECKPOINT_DELAY_MS, Math.round((intervalMs * fastFrames) / walFrames)));
}

/** "busy": the server's own catch-up was checkpointing, so it copied nothing. */
export type PassResult = { log: number; checkpointed: number } | "busy";

/**
 * The server writes while a pass copies, so passes repeat until fewer than `catchUpFrames` arrived
 * (at most `maxPasses`). A busy first pass has nothing to report: -1 frames is not the WAL's size.
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
