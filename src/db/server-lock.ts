import { Database } from "bun:sqlite";
import { storageTroubleOf } from "./storage-errors.ts";

export interface ServerLock {
  release(): void;
}

/** The lock file beside a database: `parley.db` → `parley.db.server-lock`. */
export const serverLockPath = (dbPath: string): string => `${dbPath}.server-lock`;

/**
 * One `parley serve` per SQLite file: an exclusive transaction held open on a file beside it. fcntl
 * locks vanish with the process, so a SIGKILL leaves no stale lock. null when another server holds it.
 */
export function acquireServerLock(dbPath: string): ServerLock | null {
  if (dbPath === ":memory:") return { release: () => {} };
  const lock = new Database(serverLockPath(dbPath), { create: true });
  try {
    lock.exec("PRAGMA busy_timeout = 0");
    lock.exec("BEGIN EXCLUSIVE");
    // An exclusive lock is only taken once something is written: write, and keep it open.
    lock.exec("CREATE TABLE IF NOT EXISTS held_by (pid INTEGER)");
    lock.exec("DELETE FROM held_by");
    lock.run("INSERT INTO held_by (pid) VALUES (?)", [process.pid]);
  } catch (error) {
    lock.close();
    if (storageTroubleOf(error) === "busy") return null;
    throw error;
  }
  return {
    release: () => {
      try {
        lock.exec("ROLLBACK");
      } finally {
        lock.close();
      }
    },
  };
}
