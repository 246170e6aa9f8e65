import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { applyMigrations } from "../db/migrate.ts";
import { systemClock } from "../lib/clock.ts";
import { parseCommandArgs } from "./args.ts";
import type { CliIo } from "./io.ts";

export async function migrateCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, {});
  const config = loadConfig(io.env, { db: values.db });
  const handle = openDatabase(config.dbPath, { sync: config.sync });
  try {
    const result = applyMigrations(handle.sqlite, systemClock.now());
    if (values.json) io.out(JSON.stringify({ applied: result.applied, already_applied: result.alreadyApplied }));
    else if (result.applied.length === 0) io.out(`${config.dbPath} is up to date (${result.alreadyApplied} migrations)`);
    else io.out(`applied ${result.applied.join(", ")} to ${config.dbPath}`);
    return 0;
  } finally {
    handle.close();
  }
}
