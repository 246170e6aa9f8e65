import { existsSync } from "node:fs";
import { modelAssistant } from "../assistant/turn-assistant.ts";
import { loadConfig, type Config, type ConfigFlags } from "../config.ts";
import { isPostgresUrl, openStore, type OpenedStore } from "../db/open-store.ts";
import { getOrCreateSetting } from "../db/settings.ts";
import { randomBase62 } from "../lib/crypto.ts";
import type { Deps } from "../deps.ts";
import { systemClock } from "../lib/clock.ts";
import { createLogger } from "../lib/log.ts";
import type { CliIo } from "./io.ts";
import { createDeliveryHandoff } from "../webhooks/delivery-handoff.ts";

export interface CliDeps extends Deps {
  /** The store with its connection(s): SQLite file or PostgreSQL pool (PARLEY_DB / --db). */
  readonly opened: OpenedStore;
}

/**
 * Config + an open, migrated database: what every command but `--help` needs. The server
 * secret (token signing, sealed provider keys) is PARLEY_JWT_SECRET, else one generated on
 * first start and kept in the settings table: resolved here once, so the CLI and every server
 * on the same database agree, and nothing later reads it from the database again.
 */
export async function openCliDeps(io: CliIo, flags: ConfigFlags, overrides: Partial<Config> = {}): Promise<CliDeps> {
  const loaded = { ...loadConfig(io.env, flags), ...overrides };
  const opened = openStore(loaded.dbPath, { sync: loaded.sync });
  try {
    await opened.migrate(systemClock.now());
    const config: Config = {
      ...loaded,
      jwtSecret: loaded.jwtSecret ?? (await getOrCreateSetting(opened.store, "jwt_secret", () => randomBase62(64))),
    };
    const log = createLogger(config.logLevel, systemClock.now);
    return {
      store: opened.store,
      config,
      clock: systemClock,
      log,
      assistant: modelAssistant,
      opened,
      deliveriesEnqueued: opened.deliveriesEnqueued,
      liveEventsWritten: opened.liveEventsWritten,
      deliveryHandoff: createDeliveryHandoff(),
    };
  } catch (error) {
    await opened.close().catch(() => undefined);
    throw error;
  }
}

/** Runs `work` with deps and always closes the database, whatever happens; makes the database if need be. */
export async function withCliDepsCreatingDatabase<T>(
  io: CliIo,
  flags: ConfigFlags,
  work: (deps: CliDeps) => T | Promise<T>,
): Promise<T> {
  const deps = await openCliDeps(io, flags);
  try {
    return await work(deps);
  } finally {
    await deps.opened.close();
  }
}

/**
 * The same for a command that reads or changes what is there: a SQLite file that is not there
 * is refused, since a mistyped --db would otherwise become a new empty database listing nothing.
 */
export async function withCliDeps<T>(
  io: CliIo,
  flags: ConfigFlags,
  work: (deps: CliDeps) => T | Promise<T>,
): Promise<T> {
  const { dbPath } = loadConfig(io.env, flags);
  if (!isPostgresUrl(dbPath) && !existsSync(dbPath))
    throw new Error(
      `no database at ${dbPath}; check --db or PARLEY_DB (parley serve, parley migrate or parley tenant create makes one)`,
    );
  return withCliDepsCreatingDatabase(io, flags, work);
}
