import { eq } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { chatbots, tenants } from "../db/schema.ts";
import { writeTransaction } from "../db/client.ts";
import { notFound } from "../lib/app-error.ts";
import { normalizeOrigins } from "../tenants/origins.ts";
import { validateBotConfigPatch, type BotConfig } from "./bot-config.ts";
import { configForSector } from "./sector-templates.ts";

interface CachedConfig {
  version: number;
  config: BotConfig;
}

// Parsed configs per database and chatbot, valid while the rows' updated_at is unchanged.
// updateBotConfig also drops the entry, so two updates within one millisecond cannot leave a stale one.
const cache = new WeakMap<Deps["sqlite"], Map<string, CachedConfig>>();

function cacheFor(deps: Deps): Map<string, CachedConfig> {
  let perDb = cache.get(deps.sqlite);
  if (!perDb) {
    perDb = new Map();
    cache.set(deps.sqlite, perDb);
  }
  return perDb;
}

/**
 * The tenant's bot configuration. `allowed_origins` always comes from the tenant row (the one
 * list the widget session check reads); a chatbot whose stored document is empty gets its
 * sector's template.
 */
export function getBotConfig(deps: Deps, tenantId: string): BotConfig {
  const row = deps.db
    .select({ chatbotId: chatbots.id, config: chatbots.config, updatedAt: chatbots.updatedAt, sector: tenants.sector, origins: tenants.allowedOrigins, tenantUpdatedAt: tenants.updatedAt })
    .from(chatbots)
    .innerJoin(tenants, eq(tenants.id, chatbots.tenantId))
    .where(eq(chatbots.tenantId, tenantId))
    .get();
  if (!row) throw notFound("tenant");
  const version = Math.max(row.updatedAt, row.tenantUpdatedAt);
  const cached = cacheFor(deps).get(row.chatbotId);
  if (cached && cached.version === version) return cached.config;
  const stored = Object.keys(row.config).length > 0 ? (row.config as unknown as BotConfig) : configForSector(row.sector);
  const config = { ...stored, allowed_origins: row.origins };
  cacheFor(deps).set(row.chatbotId, { version, config });
  return config;
}

/**
 * Applies a partial config document (validated key by key, 422 on the first bad field) and
 * stores it; `allowed_origins` and `sector` are written to the tenant row too.
 */
export function updateBotConfig(deps: Deps, tenantId: string, patch: unknown): BotConfig {
  return writeTransaction(deps.sqlite, () => {
    const next = validateBotConfigPatch(patch, getBotConfig(deps, tenantId));
    const now = deps.clock.now();
    const allowedOrigins = normalizeOrigins(next.allowed_origins);
    const config: BotConfig = { ...next, allowed_origins: allowedOrigins };
    const row = deps.db.update(chatbots).set({ config: { ...config }, name: config.bot_name, updatedAt: now }).where(eq(chatbots.tenantId, tenantId)).returning({ id: chatbots.id }).get();
    deps.db.update(tenants).set({ allowedOrigins, sector: config.sector, updatedAt: now }).where(eq(tenants.id, tenantId)).run();
    if (row) cacheFor(deps).delete(row.id);
    return config;
  });
}
