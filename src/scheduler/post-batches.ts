/**
 * Messages between the scheduler and its send thread, gathered and posted as one array: each
 * postMessage wakes the other thread's event loop and clones its message on its own, and a
 * claim hands over up to 256 sends at once while answers finish a few at a time.
 *
 * `flushWith` decides how long a batch gathers: a microtask (what one synchronous loop hands
 * over) or setImmediate (the answers that arrive in one turn of the event loop's I/O).
 */
export function postBatches<T>(
  post: (batch: T[]) => void,
  flushWith: (flush: () => void) => void,
): { push(message: T): void } {
  let batch: T[] = [];
  const flush = (): void => {
    const sending = batch;
    batch = [];
    post(sending);
  };
  return {
    push(message) {
      batch.push(message);
      if (batch.length === 1) flushWith(flush);
    },
  };
}
