import { Database } from "bun:sqlite";
import { storageTroubleOf } from "./storage-errors.ts";

export interface ServerLock {
  release(): void;
}

/** The lock file beside a database: `parley.db` → `parley.db.server-lock`. */
export const serverLockPath = (dbPath: string): string => `${dbPath}.server-lock`;

/**
 * One `parley serve` per SQLite file. The lock is an exclusive transaction held open on a
 * tiny SQLite file beside the database, for as long as the server runs. SQLite's file locks
 * are the operating system's (fcntl), so they vanish with the process: a server killed with
 * SIGKILL leaves no stale lock behind. Returns null when another server holds it.
 * An in-memory database has nobody to share it with: no lock.
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
