import { loadConfig, type Config, type ConfigFlags } from "../config.ts";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";
import { applyMigrations } from "../db/migrate.ts";
import type { Deps } from "../deps.ts";
import { systemClock } from "../lib/clock.ts";
import { createLogger } from "../lib/log.ts";
import { createSignal } from "../lib/signal.ts";
import type { CliIo } from "./io.ts";

export interface CliDeps extends Deps {
  readonly handle: DatabaseHandle;
}

/** Config + an open, migrated database: what every command but `--help` needs. */
export function openCliDeps(io: CliIo, flags: ConfigFlags, overrides: Partial<Config> = {}): CliDeps {
  const config = { ...loadConfig(io.env, flags), ...overrides };
  const handle = openDatabase(config.dbPath, { sync: config.sync });
  applyMigrations(handle.sqlite, systemClock.now());
  const log = createLogger(config.logLevel, systemClock.now);
  return { store: handle.store, db: handle.db, sqlite: handle.sqlite, config, clock: systemClock, log, handle, deliveriesEnqueued: createSignal() };
}

/** Runs `work` with deps and always closes the database, whatever happens. */
export async function withCliDeps<T>(io: CliIo, flags: ConfigFlags, work: (deps: CliDeps) => T | Promise<T>): Promise<T> {
  const deps = openCliDeps(io, flags);
  try {
    return await work(deps);
  } finally {
    deps.handle.close();
  }
}
