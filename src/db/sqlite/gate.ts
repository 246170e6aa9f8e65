import type { Database } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { storageTroubleOf } from "../storage-errors.ts";
import { type LockWait, waitOutBusy } from "../write-lock.ts";

/**
 * Turn-taking for one SQLite connection. The store's API is async, but bun:sqlite has one
 * connection per file handle and a transaction is a state of that connection: while
 * `store.transaction`'s callback awaits between its statements, other requests' code runs, and
 * any statement it sent over the same connection would land inside the open transaction (and
 * vanish with a rollback). So while a transaction is open the gate is held, and every other
 * store call — a plain read or write, or another transaction — waits for it to be released.
 * Transactions only await store calls (no real I/O), so the wait is a few microtasks long.
 */
export interface TransactionGate {
  readonly held: boolean;
  /** Runs a transaction's callback, marked so that a call it makes through the store is recognised. */
  runInside<T>(work: () => Promise<T>): Promise<T>;
  /** True when the caller is (a continuation of) the open transaction's callback. */
  calledFromInside(): boolean;
  /** Resolves once the gate is free; the caller must re-check before relying on it. */
  whenFree(): Promise<void>;
  hold(): void;
  release(): void;
}

const gates = new WeakMap<Database, TransactionGate>();

export function gateFor(sqlite: Database): TransactionGate {
  let gate = gates.get(sqlite);
  if (!gate) {
    gate = createGate();
    gates.set(sqlite, gate);
  }
  return gate;
}

function createGate(): TransactionGate {
  let held = false;
  let waiters: Array<() => void> = [];
  // Which transaction the running code belongs to; read only on the slow path (gate held).
  const inside = new AsyncLocalStorage<true>();
  return {
    get held() {
      return held;
    },
    runInside: (work) => inside.run(true, work),
    calledFromInside: () => inside.getStore() === true,
    whenFree: () => (held ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    hold() {
      if (held) throw new Error("the transaction gate is already held");
      held = true;
    },
    release() {
      held = false;
      const woken = waiters;
      waiters = [];
      for (const resolve of woken) resolve();
    },
  };
}

type SyncFunctions = Record<string, (...args: never[]) => unknown>;

/** The synchronous shape of an async aggregate: what a SQLite implementation provides. */
export type SyncOf<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/**
 * Wraps an aggregate's synchronous SQLite functions for use outside a transaction: each call
 * runs at once (one statement, no timer, no extra turn of the event loop) unless a transaction
 * holds the gate, and then right after it ends. A call that finds another process's write
 * lock taken waits it out on timers (`lockWait`, the server's mode) and runs again.
 */
export function outsideTransaction<T>(sync: SyncOf<T>, gate: TransactionGate, lockWait: LockWait): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(sync as SyncFunctions)) {
    const call = fn as (...args: unknown[]) => unknown;
    const later = (args: unknown[]) =>
      waitOutBusy(lockWait, async () => {
        while (gate.held) await gate.whenFree();
        return call(...args);
      });
    wrapped[name] = (...args: unknown[]) => {
      // Waiting here from inside the open transaction's own callback would wait for ever.
      if (gate.held && gate.calledFromInside())
        return Promise.reject(
          new Error(`${name} was called through the store inside a transaction: use the transaction (tx) instead`),
        );
      if (gate.held) return later(args);
      try {
        return Promise.resolve(call(...args));
      } catch (error) {
        if (lockWait.budgetMs > 0 && storageTroubleOf(error) === "busy") return later(args);
        return Promise.reject(error);
      }
    };
  }
  return wrapped as T;
}

/** What a transaction's view of an aggregate carries: whether its own callback is still running. */
export interface TransactionBound {
  isOpen: () => boolean;
}

/**
 * The aggregate's functions for use inside a transaction, made once per connection and shared
 * by every transaction: each runs at once, and refuses unless the transaction it was reached
 * through (`this`, an object made from this prototype with its `isOpen`) is still open, so a
 * transaction builds no closure per function.
 */
export function insideTransactionPrototype<T>(sync: SyncOf<T>): T {
  const prototype: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(sync as SyncFunctions)) {
    const call = fn as (...args: unknown[]) => unknown;
    prototype[name] = function (this: TransactionBound, ...args: unknown[]) {
      if (!this.isOpen())
        return Promise.reject(new Error(`${name} was called through a transaction that has already ended`));
      try {
        return Promise.resolve(call(...args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return prototype as T;
}
