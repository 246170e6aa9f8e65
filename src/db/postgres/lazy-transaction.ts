import type { PgExec, Undo } from "./exec.ts";

/**
 * BEGIN at the first write: under READ COMMITTED a plain read sees the same on the pool, and a
 * transaction whose one write is its `last` needs no BEGIN or COMMIT at all (docs/scale-out.md).
 */
export interface LazyTransaction {
  readonly exec: PgExec;
  /** Commits (or rolls back) whatever began; a rollback, or a failed COMMIT, runs the undos. */
  end(commit: boolean): Promise<void>;
}

const PLAIN_READ = /^\s*SELECT\b/i;
const LOCKS_OR_ACTS =
  /\bFOR\s+(NO\s+KEY\s+UPDATE|UPDATE|KEY\s+SHARE|SHARE)\b|pg_advisory|pg_notify|nextval|set_config/i;
const isPlainRead = (text: string): boolean => PLAIN_READ.test(text) && !LOCKS_OR_ACTS.test(text);

/** Thrown inside the begun transaction to roll it back; never reaches a caller. */
const ROLLED_BACK = Symbol("rolled back");

export function lazyTransaction(pool: PgExec): LazyTransaction {
  let begun: Promise<PgExec> | null = null;
  let decide: (commit: boolean) => void = () => {};
  let outcome: Promise<unknown> = Promise.resolve();
  let finished = false;
  const undos: Undo[] = [];

  const begin = (): Promise<PgExec> =>
    (begun ??= new Promise<PgExec>((resolve, reject) => {
      const decision = new Promise<boolean>((settle) => (decide = settle));
      outcome = pool.transaction(async (exec) => {
        resolve(exec);
        if (!(await decision)) throw ROLLED_BACK;
      });
      outcome.catch(reject);
    }));
  const afterLast = () =>
    Promise.reject(new Error("finishTurn was this transaction's last write: nothing may follow it"));
  const reading = (text: string): Promise<PgExec> => begun ?? (isPlainRead(text) ? Promise.resolve(pool) : begin());

  const exec: PgExec = {
    inTransaction: true,
    all: async (text, params) => (finished ? afterLast() : (await reading(text)).all(text, params)),
    get: async (text, params) => (finished ? afterLast() : (await reading(text)).get(text, params)),
    run: async (text, params) => (finished ? afterLast() : (await begin()).run(text, params)),
    transaction: async (work) => (finished ? afterLast() : (await begin()).transaction(work)),
    notify: async (channel, payload) => (finished ? afterLast() : (await begin()).notify(channel, payload)),
    independent: async <T>(
      text: string,
      params: readonly unknown[],
      undo: (row: T | null) => Undo | null,
      shared?: () => Promise<T | null>,
    ) => {
      if (finished) return afterLast();
      const row = shared ? await shared() : await pool.get<T>(text, params);
      const compensation = undo(row);
      if (compensation) undos.push(compensation);
      return row;
    },
    last: async (text, params, shared) => {
      if (finished) return afterLast();
      if (begun) return (await begun).run(text, params);
      finished = true;
      return pool.last(text, params, shared);
    },
  };

  async function undo(): Promise<void> {
    // Best effort: a counter left one high refuses early rather than lets a message past the quota.
    for (const each of undos.splice(0)) {
      if (typeof each === "function") each();
      else await pool.run(each.text, each.params).catch(() => undefined);
    }
  }

  return {
    exec,
    async end(commit) {
      if (begun) {
        decide(commit);
        try {
          await outcome;
        } catch (error) {
          await undo();
          if (error !== ROLLED_BACK) throw error;
          return;
        }
      }
      if (!commit) await undo();
    },
  };
}
