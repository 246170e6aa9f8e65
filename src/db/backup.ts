import { Database } from "bun:sqlite";
import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { AppError } from "../lib/app-error.ts";
import { EMBEDDED_MIGRATIONS } from "./embedded-migrations.ts";
import { acquireServerLock } from "./server-lock.ts";

// `parley backup` and `parley restore` for the SQLite store (docs/operations.md).

export interface BackupResult {
  source: string;
  file: string;
  bytes: number;
  migrations: number;
}

const failure = (code: string, message: string) => new AppError(code, 409, message);

function flushToDisk(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The migration tags a database file has applied; throws when it is not a Parley database. */
function readMigrationTags(path: string): string[] {
  let db: Database;
  try {
    db = new Database(path, { readonly: true });
  } catch (error) {
    throw failure("not_a_database", `${path} cannot be opened as a database: ${String(error)}`);
  }
  try {
    const check = db.prepare<{ quick_check: string }, []>("PRAGMA quick_check").get();
    if (check?.quick_check !== "ok")
      throw failure("corrupt_backup", `${path} fails SQLite's integrity check: ${check?.quick_check ?? "no answer"}`);
    const hasTable = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'parley_migrations'")
      .get();
    if (!hasTable)
      throw failure("not_a_parley_database", `${path} is not a Parley database (it has no parley_migrations table)`);
    return db
      .prepare<{ tag: string }, []>("SELECT tag FROM parley_migrations ORDER BY tag")
      .all()
      .map((row) => row.tag);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw failure(
      "not_a_database",
      `${path} is not a readable SQLite database: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    // Releases the file now, not at garbage collection.
    db.close(true);
  }
}

/**
 * VACUUM INTO is one read transaction: a snapshot as of one commit while the server keeps writing.
 * Written beside `file` and renamed, so an interrupted backup leaves no half-written file.
 */
export function backupDatabase(sourcePath: string, file: string, options: { force?: boolean } = {}): BackupResult {
  if (sourcePath === ":memory:" || !existsSync(sourcePath))
    throw failure("no_database", `there is no database at ${sourcePath}`);
  if (existsSync(file) && !options.force)
    throw failure("backup_exists", `${file} already exists; use --force to overwrite it`);
  // SQLite would name the temporary file it failed to open; the user needs the folder.
  if (!existsSync(dirname(file)))
    throw failure("no_folder", `cannot write ${file}: the folder ${dirname(file)} does not exist`);
  const partial = `${file}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  const source = new Database(sourcePath, { readonly: true });
  try {
    source.exec("PRAGMA busy_timeout = 5000");
    source.prepare("VACUUM INTO ?").run(partial);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    source.close(true);
  }
  flushToDisk(partial);
  renameSync(partial, file);
  return { source: sourcePath, file, bytes: statSync(file).size, migrations: readMigrationTags(file).length };
}

export interface RestoreResult {
  file: string;
  target: string;
  migrations: number;
  replaced: boolean;
}

/**
 * Holds the server lock throughout, so no server starts on a half-restored file; CLI commands must
 * keep off too (SQLite cannot tell an idle WAL reader from nobody). The old WAL would corrupt it.
 */
export function restoreDatabase(file: string, targetPath: string, options: { force?: boolean } = {}): RestoreResult {
  if (targetPath === ":memory:") throw failure("no_database", "cannot restore into an in-memory database");
  if (!existsSync(file)) throw failure("no_backup", `there is no backup at ${file}`);
  const tags = readMigrationTags(file);
  const known = new Set(EMBEDDED_MIGRATIONS.map((migration) => migration.tag));
  const unknown = tags.filter((tag) => !known.has(tag));
  if (unknown.length > 0)
    throw failure(
      "backup_too_new",
      `${file} was made by a newer Parley (unknown migrations: ${unknown.join(", ")}); restore it with that version`,
    );
  const replaced = existsSync(targetPath);
  if (replaced && !options.force)
    throw failure("target_exists", `${targetPath} exists; use --force to replace it with ${file}`);

  const lock = acquireServerLock(targetPath);
  if (!lock) throw failure("database_in_use", `a parley server is serving ${targetPath}; stop it before restoring`);
  try {
    const incoming = `${targetPath}.restoring-${process.pid}`;
    copyFileSync(file, incoming);
    flushToDisk(incoming);
    // WAL first: a crash in between loses the old file's last commits, never pairs the new with a stale log.
    for (const sidecar of ["-wal", "-shm", "-journal"]) rmSync(`${targetPath}${sidecar}`, { force: true });
    renameSync(incoming, targetPath);
  } finally {
    lock.release();
  }
  return { file, target: targetPath, migrations: tags.length, replaced };
}
