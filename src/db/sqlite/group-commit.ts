import type { Database } from "bun:sqlite";
import type { StoreQueries, Transaction } from "../store.ts";
import { type LockWait, waitOutBusy } from "../write-lock.ts";
import { insideTransactionPrototype, type SyncOf, type TransactionBound, type TransactionGate } from "./gate.ts";

export type SyncQueries = { [K in keyof StoreQueries]: SyncOf<StoreQueries[K]> };

/** At most this many transactions share one BEGIN IMMEDIATE … COMMIT. */
export const MAX_GROUP = 64;

interface Pending {
  work: (tx: Transaction) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  hooks: Array<() => void>;
  result?: unknown;
  /** Set when the callback threw: its savepoint was rolled back. */
  failure?: { error: unknown };
}

/**
 * Group commit (docs/hot-path.md): transactions started in the same turn of the event loop share one
 * write transaction. COMMIT is the largest single cost of a chat message (an fsync-ordered WAL
 * append), so under load 64 messages pay for one. Each callback runs in its own SAVEPOINT, one
 * after the other under the gate: a throw rolls back to it and only that caller gets the error.
 * No caller's promise settles and no onCommit hook runs before the group's COMMIT; if COMMIT
 * (or BEGIN) fails — SQLITE_BUSY, SQLITE_FULL — every caller in the group gets that error,
 * since nothing of theirs was stored.
 *
 * The group starts on `setImmediate`, after the requests of this turn have queued theirs: a
 * lone transaction waits for no one, only for the end of the current turn.
 *
 * While another process holds the write lock, BEGIN IMMEDIATE fails at once (the server's
 * busy_timeout is 0): the group gives the gate back — reads go on — and tries again on timers
 * (`lockWait`, PARLEY_WRITE_WAIT); after that every caller in it gets the SQLITE_BUSY (503 busy).
 */
export function createGroupCommit(sqlite: Database, gate: TransactionGate, sync: SyncQueries, lockWait: LockWait) {
  const queue: Pending[] = [];
  let scheduled = false;
  let running = false;
  // The transaction whose callback is running; a tx object works only while it is its own.
  let current: Pending | null = null;
  const bindTransaction = transactionBinder(sync);
  // Prepared once: exec() parses its SQL again on every call, and a savepoint is two of them a message.
  const control = {
    begin: sqlite.prepare("BEGIN IMMEDIATE"),
    savepoint: sqlite.prepare("SAVEPOINT parley_tx"),
    release: sqlite.prepare("RELEASE parley_tx"),
    rollbackTo: sqlite.prepare("ROLLBACK TO parley_tx"),
    commit: sqlite.prepare("COMMIT"),
    rollback: sqlite.prepare("ROLLBACK"),
  };

  function schedule(): void {
    if (scheduled || running || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => void flush());
  }

  async function flush(): Promise<void> {
    scheduled = false;
    running = true;
    const group = queue.splice(0, MAX_GROUP);
    try {
      await waitOutBusy(lockWait, async () => {
        while (gate.held) await gate.whenFree();
        await runGroup(group);
      });
    } catch (error) {
      // BEGIN failed (busy past the wait, disk full…), or the store itself is broken: no caller is left hanging.
      for (const entry of group) entry.failure ??= { error };
    } finally {
      running = false;
    }
    for (const entry of group) settle(entry);
    // Later arrivals go in the next turn, after the callers woken by this one's release.
    schedule();
  }

  async function runGroup(group: Pending[]): Promise<void> {
    gate.hold();
    try {
      // Nothing ran yet if this fails: flush's waitOutBusy tries the whole group again while the
      // lock is busy, and otherwise fails every caller in it with the error.
      control.begin.run();
      for (let index = 0; index < group.length; index++) {
        const entry = group[index]!;
        control.savepoint.run();
        current = entry;
        try {
          const tx = bindTransaction(() => current === entry, entry.hooks);
          entry.result = await gate.runInside(() => entry.work(tx));
          current = null;
          control.release.run();
        } catch (error) {
          current = null;
          entry.failure = { error };
          entry.hooks.length = 0;
          if (!sqlite.inTransaction) {
            // SQLite rolled back the whole transaction (it does on some I/O and full-disk
            // errors): the earlier callbacks' writes are gone too. They fail with this error;
            // the later ones go back to the front of the queue for the next group.
            for (const done of group.slice(0, index)) done.failure ??= { error };
            queue.unshift(...group.splice(index + 1));
            return;
          }
          control.rollbackTo.run();
          control.release.run();
        }
      }
      try {
        control.commit.run();
      } catch (error) {
        if (sqlite.inTransaction) control.rollback.run();
        for (const entry of group) entry.failure ??= { error };
      }
    } finally {
      current = null;
      // Only after an unexpected error (flush fails the whole group): never leave it open.
      if (sqlite.inTransaction) control.rollback.run();
      gate.release();
    }
  }

  /** After the group: each caller in order, its onCommit hooks first (DESIGN: after COMMIT only). */
  function settle(entry: Pending): void {
    if (entry.failure) return entry.reject(entry.failure.error);
    try {
      for (const hook of entry.hooks) hook();
    } catch (error) {
      return entry.reject(error);
    }
    entry.resolve(entry.result);
  }

  function transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    // Misuse from inside a callback (always an async function): thrown at once, so it fails
    // that callback directly rather than through a promise rejected in the runner's turn.
    if (gate.held && gate.calledFromInside())
      throw new Error(
        "store.transaction was called inside a transaction: transactions do not nest, use the open one (tx)",
      );
    return new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject, hooks: [] });
      schedule();
    });
  }

  return Object.assign(transaction, {
    /** A group is waiting to start or running: a transaction started now shares a COMMIT. */
    forming: (): boolean => scheduled || running || queue.length > 0,
  });
}

interface TransactionState {
  isOpen: () => boolean;
  bound: Partial<Record<keyof StoreQueries, unknown>>;
}

/**
 * A Transaction per callback, cheaply: the aggregates are getters on one shared prototype, and
 * an aggregate's view is made on first use — one small object carrying its own callback's
 * `isOpen`, on top of the aggregate's functions made once (insideTransactionPrototype) — so a
 * tx kept after its callback returned refuses, even while the group's next callback runs.
 */
function transactionBinder(sync: SyncQueries) {
  const prototype = {};
  for (const key of Object.keys(sync) as Array<keyof StoreQueries>) {
    const functions = insideTransactionPrototype(sync[key] as SyncOf<StoreQueries[typeof key]>) as object;
    Object.defineProperty(prototype, key, {
      get(this: TransactionState) {
        return (this.bound[key] ??= Object.assign(Object.create(functions) as TransactionBound, {
          isOpen: this.isOpen,
        }));
      },
    });
  }
  return (isOpen: () => boolean, hooks: Array<() => void>): Transaction => {
    const tx = Object.create(prototype) as TransactionState & Pick<Transaction, "onCommit">;
    tx.isOpen = isOpen;
    tx.bound = {};
    tx.onCommit = (hook) => void hooks.push(hook);
    return tx as unknown as Transaction;
  };
}
