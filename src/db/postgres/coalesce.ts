/**
 * Statements of concurrent requests shared as one (docs/hot-path.md, group commit on PostgreSQL):
 * calls that arrive while `maxInFlight` batches are already running wait for one of them to end,
 * then go together, at most `maxItems` at a time, as one statement (`many`) — one round trip,
 * one parse and plan, and for a write one commit (one WAL flush) for all. A lone call waits for
 * no one: with nothing in flight it goes alone, as `one`.
 *
 * Two items of one `key` (a session) never go in one batch, nor in two batches in flight at
 * once: the later waits, in order, for the earlier's batch to end.
 *
 * When a batch fails (a session erased meanwhile, a constraint, a cut connection), nothing of it
 * was stored — it is one statement, so one transaction — and each item runs again alone: one
 * bad item fails only its own caller.
 */
export interface Coalescer<T, R> {
  run(item: T): Promise<R>;
}

export interface CoalesceOptions<T, R> {
  /** One item alone: the statement every item can fall back to. */
  one: (item: T) => Promise<R>;
  /** Several items in one statement, a result for each, in order. */
  many: (items: readonly T[]) => Promise<R[]>;
  /** Items of one key are kept apart (null: never held back). */
  key: (item: T) => string | null;
  maxItems: number;
  maxInFlight: number;
}

interface Waiting<T, R> {
  item: T;
  key: string | null;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

export function coalescer<T, R>(options: CoalesceOptions<T, R>): Coalescer<T, R> {
  const queue: Array<Waiting<T, R>> = [];
  /** Keys of the items in flight: a key's next item waits until its batch has ended. */
  const busy = new Set<string>();
  let inFlight = 0;

  /** The oldest waiting items, one per key and none of a key in flight, up to maxItems. */
  function take(): Array<Waiting<T, R>> {
    const batch: Array<Waiting<T, R>> = [];
    const skipped = new Set<string>();
    for (let index = 0; index < queue.length && batch.length < options.maxItems; ) {
      const entry = queue[index]!;
      if (entry.key !== null) {
        if (busy.has(entry.key) || skipped.has(entry.key)) {
          skipped.add(entry.key);
          index++;
          continue;
        }
        busy.add(entry.key);
      }
      batch.push(entry);
      queue.splice(index, 1);
    }
    return batch;
  }

  function pump(): void {
    while (inFlight < options.maxInFlight && queue.length > 0) {
      const batch = take();
      if (batch.length === 0) return;
      inFlight++;
      void send(batch).finally(() => {
        inFlight--;
        for (const entry of batch) if (entry.key !== null) busy.delete(entry.key);
        pump();
      });
    }
  }

  async function send(batch: Array<Waiting<T, R>>): Promise<void> {
    if (batch.length > 1) {
      let results: R[] | null = null;
      try {
        results = await options.many(batch.map((entry) => entry.item));
      } catch {
        // Nothing of the batch was stored: each item on its own below, with its own outcome.
      }
      if (results) {
        batch.forEach((entry, index) => entry.resolve(results[index]!));
        return;
      }
    }
    await Promise.all(batch.map((entry) => options.one(entry.item).then(entry.resolve, entry.reject)));
  }

  return {
    run: (item) =>
      new Promise<R>((resolve, reject) => {
        queue.push({ item, key: options.key(item), resolve, reject });
        pump();
      }),
  };
}
