import type { Deps } from "../deps.ts";
import type { Store, StoreQueries } from "../db/store.ts";
import { notFound } from "../lib/app-error.ts";
import { normalizeOrigins } from "../tenants/origins.ts";
import { validateBotConfigPatch, type BotConfig } from "./bot-config.ts";
import { configForSector } from "./sector-templates.ts";
import { sealSecret } from "../assistant/secret-box.ts";

interface CachedConfig {
  version: number;
  config: BotConfig;
}

// Parsed configs per store and chatbot, valid while the rows' updated_at is unchanged.
// updateBotConfig also drops the entry, so two updates within one millisecond cannot leave a stale one.
const cache = new WeakMap<Store, Map<string, CachedConfig>>();

function cacheFor(store: Store): Map<string, CachedConfig> {
  let perStore = cache.get(store);
  if (!perStore) {
    perStore = new Map();
    cache.set(store, perStore);
  }
  return perStore;
}

/**
 * The tenant's bot configuration. `allowed_origins` always comes from the tenant row (the one
 * list the widget session check reads); a chatbot whose stored document is empty gets its
 * sector's template.
 */
export function getBotConfig(deps: Pick<Deps, "store">, tenantId: string): Promise<BotConfig> {
  return loadBotConfig(deps.store, deps.store, tenantId);
}

/** Reads through `db` (the store or an open transaction); the cache belongs to `store`. */
async function loadBotConfig(store: Store, db: StoreQueries, tenantId: string): Promise<BotConfig> {
  const row = await db.botConfigs.findBotConfigVersion(tenantId);
  if (!row) throw notFound("tenant");
  const version = Math.max(row.updatedAt, row.tenantUpdatedAt);
  const cached = cacheFor(store).get(row.chatbotId);
  if (cached && cached.version === version) return cached.config;
  const document = await db.botConfigs.findBotConfigDocument(row.chatbotId);
  if (!document) throw notFound("tenant");
  const stored = Object.keys(document.config).length > 0 ? (document.config as unknown as BotConfig) : configForSector(document.sector);
  const config = { ...stored, allowed_origins: document.allowedOrigins };
  cacheFor(store).set(row.chatbotId, { version, config });
  return config;
}

/**
 * Applies a partial config document (validated key by key, 422 on the first bad field) and
 * stores it; `allowed_origins` and `sector` are written to the tenant row too.
 */
export async function updateBotConfig(deps: Deps, tenantId: string, patch: unknown): Promise<BotConfig> {
  // Read, merge and write in one transaction: two concurrent patches cannot undo each other.
  const { config, chatbotId } = await deps.store.transaction(async (tx) => {
    const next = validateBotConfigPatch(patch, await loadBotConfig(deps.store, tx, tenantId), (plain) => sealSecret(deps, plain));
    const now = deps.clock.now();
    const allowedOrigins = normalizeOrigins(next.allowed_origins);
    const merged: BotConfig = { ...next, allowed_origins: allowedOrigins };
    const id = await tx.botConfigs.updateBotConfig(tenantId, { ...merged }, merged.bot_name, now);
    await tx.botConfigs.updateTenantProfile(tenantId, { allowedOrigins, sector: merged.sector, updatedAt: now });
    return { config: merged, chatbotId: id };
  });
  if (chatbotId) cacheFor(deps.store).delete(chatbotId);
  return config;
}
