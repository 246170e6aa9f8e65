import { loadConfig } from "../config.ts";
import { describeLocation, openStore } from "../db/open-store.ts";
import { systemClock } from "../lib/clock.ts";
import { parseCommandArgs } from "./args.ts";
import type { CliIo } from "./io.ts";

export async function migrateCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(argv, {});
  const config = loadConfig(io.env, { db: values.db });
  const opened = openStore(config.dbPath, { sync: config.sync });
  const where = describeLocation(config.dbPath);
  try {
    const result = await opened.migrate(systemClock.now());
    if (values.json) io.out(JSON.stringify({ applied: result.applied, already_applied: result.alreadyApplied }));
    else if (result.applied.length === 0) io.out(`${where} is up to date (${result.alreadyApplied} migrations)`);
    else io.out(`applied ${result.applied.join(", ")} to ${where}`);
    return 0;
  } finally {
    await opened.close();
  }
}
