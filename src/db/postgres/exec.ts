import type { SQL, TransactionSQL } from "bun";

/** The pool, or an open transaction's connection; a nested `transaction` is a SAVEPOINT. */
export interface PgExec {
  all<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(text: string, params?: readonly unknown[]): Promise<T | null>;
  /** Rows changed. */
  run(text: string, params?: readonly unknown[]): Promise<number>;
  transaction<T>(work: (exec: PgExec) => Promise<T>): Promise<T>;
  /** pg_notify: inside a transaction it is delivered at COMMIT, and dropped by a rollback. */
  notify(channel: string, payload?: string): Promise<void>;
  /**
   * Committed at once even inside a store transaction, so no lock outlives the statement; `undo(row)`
   * runs if that transaction rolls back. `shared` stands for it when given (./coalesce.ts).
   */
  independent<T>(
    text: string,
    params: readonly unknown[],
    undo: (row: T | null) => Undo | null,
    shared?: () => Promise<T | null>,
  ): Promise<T | null>;
  /**
   * The transaction's last write: committed on its own (no BEGIN, no COMMIT) when nothing was
   * written before it, and then `shared` stands for it when given (./coalesce.ts). Rows changed.
   */
  last(text: string, params: readonly unknown[], shared?: () => Promise<number>): Promise<number>;
  readonly inTransaction: boolean;
}

/** A compensating statement, or what to put back in the process's memory. */
export type Undo = { text: string; params: readonly unknown[] } | (() => void);

type Client = Pick<SQL, "unsafe" | "notify"> &
  Partial<Pick<SQL, "begin">> & { savepoint?: TransactionSQL["savepoint"] };

export function pgExec(client: Client, inTransaction: boolean): PgExec {
  const query = <T>(text: string, params: readonly unknown[] = []) => client.unsafe<T[]>(text, params as unknown[]);
  return {
    inTransaction,
    all: async <T>(text: string, params?: readonly unknown[]) => [...(await query<T>(text, params))],
    get: async <T>(text: string, params?: readonly unknown[]) => (await query<T>(text, params))[0] ?? null,
    run: async (text, params) => (await query<unknown>(text, params)).count,
    transaction<T>(work: (exec: PgExec) => Promise<T>): Promise<T> {
      if (inTransaction) return client.savepoint!((sp: SQL) => work(pgExec(sp, true))) as Promise<T>;
      return client.begin!((tx) => work(pgExec(tx, true))) as Promise<T>;
    },
    notify: (channel, payload) => client.notify(channel, payload),
    // Inside a plain transaction it would not commit on its own: only lazy-transaction.ts takes one.
    independent: async <T>(
      text: string,
      params: readonly unknown[],
      _undo: unknown,
      shared?: () => Promise<T | null>,
    ) => {
      if (inTransaction)
        throw new Error("an independent statement runs outside a transaction or through store.transaction");
      return shared ? shared() : ((await query<T>(text, params))[0] ?? null);
    },
    last: async (text, params, shared) =>
      !inTransaction && shared ? shared() : (await query<unknown>(text, params)).count,
  };
}

/** A `tx` kept past its callback must not run statements on a connection back in the pool. */
export function whileOpen(exec: PgExec, isOpen: () => boolean): PgExec {
  const ended = () =>
    Promise.reject(
      new Error("a store call was made through a transaction that has already ended: use tx only inside its callback"),
    );
  return {
    inTransaction: exec.inTransaction,
    all: (text, params) => (isOpen() ? exec.all(text, params) : ended()),
    get: (text, params) => (isOpen() ? exec.get(text, params) : ended()),
    run: (text, params) => (isOpen() ? exec.run(text, params) : ended()),
    transaction: (work) => (isOpen() ? exec.transaction(work) : ended()),
    notify: (channel, payload) => (isOpen() ? exec.notify(channel, payload) : ended()),
    independent: (text, params, undo, shared) => (isOpen() ? exec.independent(text, params, undo, shared) : ended()),
    last: (text, params, shared) => (isOpen() ? exec.last(text, params, shared) : ended()),
  };
}
