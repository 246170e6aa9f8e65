import type { Database } from "bun:sqlite";
import { storageTroubleOf } from "./storage-errors.ts";

/**
 * For the server's connection once it is up: no statement may wait for a lock inside
 * bun:sqlite, because that wait blocks the one JavaScript thread and with it /healthz and
 * every read. Requests that may write wait on timers instead (waitForWriteLock).
 */
export function neverWaitInsideSqlite(sqlite: Database): void {
  sqlite.exec("PRAGMA busy_timeout = 0");
}

/**
 * Takes the write lock and gives it back at once. The server's connection runs with
 * busy_timeout 0 (a busy wait inside bun:sqlite would freeze the only JavaScript thread), so
 * this answers immediately: false while another process (a CLI command, a backup) holds it.
 */
export function writeLockIsFree(sqlite: Database): boolean {
  if (sqlite.inTransaction) return true;
  try {
    sqlite.exec("BEGIN IMMEDIATE");
    sqlite.exec("ROLLBACK");
    return true;
  } catch (error) {
    if (storageTroubleOf(error) === "busy") return false;
    throw error;
  }
}

const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 100;

/**
 * Waits for the write lock without blocking the event loop: probes, and between probes yields
 * with timers (5 ms doubling to 100 ms), so /healthz and reads keep answering meanwhile.
 * Resolves false when `budgetMs` passes with the lock still taken. The free lock costs one
 * synchronous probe and no timer. The lock may be taken again between this probe and the
 * caller's transaction; that transaction then fails fast with SQLITE_BUSY (503 busy).
 */
export async function waitForWriteLock(sqlite: Database, budgetMs: number, sleep: (ms: number) => Promise<unknown> = Bun.sleep): Promise<boolean> {
  if (writeLockIsFree(sqlite)) return true;
  let waited = 0;
  let pause = FIRST_PAUSE_MS;
  while (waited < budgetMs) {
    const step = Math.min(pause, budgetMs - waited);
    await sleep(step);
    waited += step;
    if (writeLockIsFree(sqlite)) return true;
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  }
  return false;
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
    sqlite.transaction(() => {
      sqlite.run("INSERT INTO settings (key, value) VALUES ('readyz_write_probe', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [PROBE_VALUE]);
      sqlite.run("DELETE FROM settings WHERE key = 'readyz_write_probe'");
    }).immediate();
    return "ok";
  } catch (error) {
    const trouble = storageTroubleOf(error);
    if (trouble) return trouble;
    throw error;
  }
}
