import type { Database } from "bun:sqlite";
import { storageTroubleOf } from "./storage-errors.ts";

/**
 * For the server's connection once it is up: no statement may wait for a lock inside
 * bun:sqlite, because that wait blocks the one JavaScript thread and with it /healthz and
 * every read. A statement or transaction that meets the lock waits on timers instead
 * (waitOutBusy), for at most `waitMs` (PARLEY_WRITE_WAIT).
 */
export function neverWaitInsideSqlite(sqlite: Database, wait: LockWait, waitMs: number): void {
  sqlite.exec("PRAGMA busy_timeout = 0");
  wait.budgetMs = waitMs;
}

/**
 * How the server's connection meets another process's write lock (a CLI command, a backup):
 * `budgetMs` is 0 until the server calls `neverWaitForLocks` (SQLite's own busy_timeout waits
 * then, which is right for the CLI and for start-up); after it, no statement waits inside
 * bun:sqlite and a statement or transaction that finds the lock taken waits here, on timers.
 */
export interface LockWait {
  budgetMs: number;
}

export const createLockWait = (): LockWait => ({ budgetMs: 0 });

const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 100;

/**
 * Runs `attempt`; while it fails with SQLITE_BUSY (another process holds the write lock) and
 * the budget lasts, yields on timers (5 ms doubling to 100 ms) and tries again, so /healthz and
 * reads keep answering meanwhile. After the budget the last SQLITE_BUSY is thrown (503 busy).
 * Nothing is probed up front: a free lock costs nothing. `attempt` must leave nothing behind
 * when it fails busy: one autocommit statement, or a BEGIN IMMEDIATE that did not begin.
 */
export async function waitOutBusy<T>(wait: LockWait, attempt: () => T | Promise<T>): Promise<T> {
  let waited = 0;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (storageTroubleOf(error) !== "busy" || waited >= wait.budgetMs) throw error;
      const step = Math.min(pause, wait.budgetMs - waited);
      await Bun.sleep(step);
      waited += step;
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }
}

// Larger than a page (4 KiB): storing it needs overflow pages, not just room in a leaf.
const PROBE_VALUE = "x".repeat(9000);

/**
 * Can the database take a write now? One committed transaction that stores and deletes a
 * value larger than a page: it fails with SQLITE_FULL when the disk (or max_page_count) is
 * full, and with SQLITE_BUSY while another process holds the lock. /readyz runs it.
 */
export function probeWrite(sqlite: Database): "ok" | "busy" | "storage_full" {
  try {
    sqlite
      .transaction(() => {
        sqlite.run(
          "INSERT INTO settings (key, value) VALUES ('readyz_write_probe', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
          [PROBE_VALUE],
        );
        sqlite.run("DELETE FROM settings WHERE key = 'readyz_write_probe'");
      })
      .immediate();
    return "ok";
  } catch (error) {
    const trouble = storageTroubleOf(error);
    if (trouble) return trouble;
    throw error;
  }
}
