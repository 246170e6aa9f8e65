import { loadConfig, type Config, type ConfigFlags } from "../config.ts";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";
import { applyMigrations } from "../db/migrate.ts";
import { getOrCreateSetting } from "../db/settings.ts";
import { randomBase62 } from "../lib/crypto.ts";
import type { Deps } from "../deps.ts";
import { systemClock } from "../lib/clock.ts";
import { createLogger } from "../lib/log.ts";
import { createSignal } from "../lib/signal.ts";
import type { CliIo } from "./io.ts";

export interface CliDeps extends Deps {
  readonly handle: DatabaseHandle;
}

/**
 * Config + an open, migrated database: what every command but `--help` needs. The server
 * secret (token signing, sealed provider keys) is PARLEY_JWT_SECRET, else one generated on
 * first start and kept in the settings table: resolved here once, so the CLI and every server
 * on the same database agree, and nothing later reads it from the database again.
 */
export async function openCliDeps(io: CliIo, flags: ConfigFlags, overrides: Partial<Config> = {}): Promise<CliDeps> {
  const loaded = { ...loadConfig(io.env, flags), ...overrides };
  const handle = openDatabase(loaded.dbPath, { sync: loaded.sync });
  applyMigrations(handle.sqlite, systemClock.now());
  const config: Config = { ...loaded, jwtSecret: loaded.jwtSecret ?? (await getOrCreateSetting(handle.store, "jwt_secret", () => randomBase62(64))) };
  const log = createLogger(config.logLevel, systemClock.now);
  return { store: handle.store, config, clock: systemClock, log, handle, deliveriesEnqueued: createSignal() };
}

/** Runs `work` with deps and always closes the database, whatever happens. */
export async function withCliDeps<T>(io: CliIo, flags: ConfigFlags, work: (deps: CliDeps) => T | Promise<T>): Promise<T> {
  const deps = await openCliDeps(io, flags);
  try {
    return await work(deps);
  } finally {
    deps.handle.close();
  }
}
