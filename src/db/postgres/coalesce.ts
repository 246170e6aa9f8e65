/**
 * Concurrent calls shared as one statement (docs/hot-path.md): one key's items never share a batch
 * nor run in two at once. A failed batch stored nothing (one statement), so each item runs again alone.
 */
export interface Coalescer<T, R> {
  run(item: T): Promise<R>;
}

export interface CoalesceOptions<T, R> {
  /** The fallback every item can run alone. */
  one: (item: T) => Promise<R>;
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
      } catch {}
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
