import { loadConfig } from "../config.ts";
import { backupDatabase, restoreDatabase } from "../db/backup.ts";
import { isPostgresUrl } from "../db/open-store.ts";
import { parseCommandArgs } from "./args.ts";
import { UsageError, type CliIo } from "./io.ts";

/**
 * `parley backup FILE`: a consistent snapshot of the database, also while the server runs.
 * It opens the database read-only and never migrates or creates it.
 */
export async function backupCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { force: { type: "boolean" } });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError("usage: parley backup FILE [--force]");
  const config = loadConfig(io.env, { db: values.db });
  refusePostgres(config.dbPath, "backup");
  const result = backupDatabase(config.dbPath, file, { force: values.force });
  if (values.json) io.out(JSON.stringify(result));
  else io.out(`backed up ${result.source} to ${result.file} (${result.bytes} bytes, ${result.migrations} migrations)`);
  return 0;
}

/** `parley restore FILE`: replaces the database with a backup; refuses while a server uses it. */
export async function restoreCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { force: { type: "boolean" } });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError("usage: parley restore FILE [--force]");
  const config = loadConfig(io.env, { db: values.db });
  refusePostgres(config.dbPath, "restore");
  const result = restoreDatabase(file, config.dbPath, { force: values.force });
  if (values.json) io.out(JSON.stringify(result));
  else
    io.out(
      `restored ${result.target} from ${result.file} (${result.migrations} migrations); the next start applies any newer ones`,
    );
  return 0;
}

/** A PostgreSQL database is backed up with its own tools (docs/scale-out.md). */
function refusePostgres(location: string, command: "backup" | "restore"): void {
  if (!isPostgresUrl(location)) return;
  const tool = command === "backup" ? "pg_dump --format=custom" : "pg_restore --clean";
  throw new UsageError(`parley ${command} works on a SQLite file; for PostgreSQL use ${tool} (docs/scale-out.md)`);
}
