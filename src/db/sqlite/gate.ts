import type { Database } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { storageTroubleOf } from "../storage-errors.ts";
import { type LockWait, waitOutBusy } from "../write-lock.ts";

/**
 * Turn-taking for one connection: while a transaction's callback awaits, another request's
 * statement would land inside it (and vanish with a rollback), so it waits (docs/storage.md).
 */
export interface TransactionGate {
  readonly held: boolean;
  /** Marks the callback, so that a call it makes through the store is recognised. */
  runInside<T>(work: () => Promise<T>): Promise<T>;
  calledFromInside(): boolean;
  /** The caller must re-check once it resolves. */
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
  // Read only on the slow path (gate held).
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

export type SyncOf<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/** At once unless a transaction holds the gate, then right after it; another process's lock is waited out on timers. */
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

export interface TransactionBound {
  isOpen: () => boolean;
}

/** Shared by every transaction (`this` carries `isOpen`), so a transaction builds no closure per function. */
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
