import type { SQL, TransactionSQL } from "bun";

/**
 * How the PostgreSQL aggregates reach the database: a pooled client outside a transaction, or
 * the connection of an open one. Every function of an aggregate is one call here (one SQL
 * operation); composite operations (the scheduler's claims) open their own transaction, which
 * becomes a SAVEPOINT when the caller is already inside one. Parameters are `$1, $2…`; Bun's
 * client prepares each text once per connection.
 */
export interface PgExec {
  all<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(text: string, params?: readonly unknown[]): Promise<T | null>;
  /** Rows changed (INSERT/UPDATE/DELETE). */
  run(text: string, params?: readonly unknown[]): Promise<number>;
  transaction<T>(work: (exec: PgExec) => Promise<T>): Promise<T>;
  /** pg_notify: inside a transaction it is delivered at COMMIT, and dropped by a rollback. */
  notify(channel: string, payload?: string): Promise<void>;
  /**
   * A write committed on its own at once, even inside a store transaction (on the pool: no lock
   * held past the statement); if that transaction then rolls back, `undo(row)` runs, on its own
   * too. On the pool a plain statement, or `shared` (the same read shared with other requests',
   * ./coalesce.ts) when given; refused inside any other transaction.
   */
  independent<T>(
    text: string,
    params: readonly unknown[],
    undo: (row: T | null) => Undo | null,
    shared?: () => Promise<T | null>,
  ): Promise<T | null>;
  /**
   * The store transaction's last write: alone, committed on its own, when the transaction wrote
   * nothing before it (no BEGIN, no COMMIT); the transaction takes no statement after it. Then
   * `shared`, when given, stands for the statement: the write shared with other requests' in one
   * statement and one commit (./coalesce.ts). Elsewhere a plain statement. Rows changed.
   */
  last(text: string, params: readonly unknown[], shared?: () => Promise<number>): Promise<number>;
  readonly inTransaction: boolean;
}

/** A compensating statement (PgExec.independent), or what to put back in the process's memory. */
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
    // Inside a plain transaction it would not commit on its own (and its settings would last
    // for the whole transaction): only the store's transactions (lazy-transaction.ts) take one.
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

/**
 * A transaction's executor that refuses once its transaction has ended (as on SQLite): a `tx`
 * kept past its callback must not run statements on a connection back in the pool. Every
 * aggregate function goes through here, so one check covers them all.
 */
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
