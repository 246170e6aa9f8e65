import type { Database } from "bun:sqlite";
import { storageTroubleOf } from "./storage-errors.ts";

/** The server's mode: a lock wait inside bun:sqlite would block the one thread, so waitOutBusy waits on timers. */
export function neverWaitInsideSqlite(sqlite: Database, wait: LockWait, waitMs: number): void {
  sqlite.exec("PRAGMA busy_timeout = 0");
  wait.budgetMs = waitMs;
}

/** 0 until `neverWaitForLocks`: SQLite's own busy_timeout, right for the CLI and start-up, waits until then. */
export interface LockWait {
  budgetMs: number;
}

export const createLockWait = (): LockWait => ({ budgetMs: 0 });

const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 100;

/**
 * Retries `attempt` on timers while it fails busy and the budget lasts, so reads keep answering;
 * then the last SQLITE_BUSY (503). `attempt` must leave nothing behind when it fails busy.
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

/** /readyz: a committed write larger than a page fails SQLITE_FULL on a full disk, SQLITE_BUSY behind a lock. */
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
