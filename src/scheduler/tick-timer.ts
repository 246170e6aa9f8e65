/** When the delivery loop's next tick runs: after a delay, "at once" (0), or "before-io". */
export type TickDelay = number | "before-io";

/**
 * Schedules `run` and returns what cancels it. "At once" (0) is `setImmediate`, after the I/O
 * of this turn of the event loop, not `setTimeout(0)`: Bun holds a zero timeout for a
 * millisecond, which every refill of a freed slot would wait. "before-io" is a microtask,
 * ahead of that I/O (the scheduler's wake).
 */
export function scheduleTick(delay: TickDelay, run: () => void): () => void {
  if (delay === "before-io") {
    let cancelled = false;
    queueMicrotask(() => {
      if (!cancelled) run();
    });
    return () => {
      cancelled = true;
    };
  }
  if (delay === 0) {
    const immediate = setImmediate(run);
    return () => clearImmediate(immediate);
  }
  const timer = setTimeout(run, delay);
  return () => clearTimeout(timer);
}
