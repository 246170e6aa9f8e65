/**
 * One abort listener per signal for everything waiting on it. Webhook sends share their
 * deadlines' signals (one per slot, src/webhooks/send-deadline.ts), and a listener added and
 * removed per send cost ~1 µs of its main-thread time.
 */

export interface AbortWaiter {
  settle(reason: unknown): void;
}

const waitingOn = new WeakMap<AbortSignal, Set<AbortWaiter>>();

/** `waiter.settle(signal.reason)` when `signal` aborts, unless unwatched first. */
export function watchAbort(signal: AbortSignal, waiter: AbortWaiter): void {
  let waiters = waitingOn.get(signal);
  if (!waiters) {
    const watched = new Set<AbortWaiter>();
    signal.addEventListener(
      "abort",
      () => {
        for (const waiting of watched) waiting.settle(signal.reason);
      },
      { once: true },
    );
    waitingOn.set(signal, watched);
    waiters = watched;
  }
  waiters.add(waiter);
}

export function unwatchAbort(signal: AbortSignal, waiter: AbortWaiter): void {
  waitingOn.get(signal)?.delete(waiter);
}
