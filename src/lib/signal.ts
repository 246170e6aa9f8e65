/** A wake-up call between parts of one process: the outbox notifies, the scheduler listens. */
export interface Signal {
  notify(): void;
  subscribe(listener: () => void): () => void;
}

export function createSignal(): Signal {
  const listeners = new Set<() => void>();
  return {
    notify: () => {
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
