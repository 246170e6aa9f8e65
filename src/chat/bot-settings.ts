import type { Deps } from "../deps.ts";
import type { StoreQueries } from "../db/store.ts";
import { createLookupCache, readLookupVersion } from "../tenants/lookup-cache.ts";
import type { TenantRecord } from "../tenants/create-tenant.ts";
import { peekTenant, requireTenant } from "../tenants/find-tenant.ts";
import { notFound } from "../lib/app-error.ts";
import { normalizeOrigins } from "../tenants/origins.ts";
import type { BotConfig } from "./engine/bot-config.ts";
import { validateBotConfigPatch } from "./engine/bot-config-patch.ts";
import { configForSector } from "./engine/sector-templates.ts";
import { sealSecret } from "../lib/secret-box.ts";

// Parsed configs per store and tenant, dropped whenever any tenant or chatbot row may have
// changed (src/tenants/lookup-cache.ts): a PATCH, a plan change or the CLI in another process.
const configCache = createLookupCache<BotConfig>();

/**
 * The tenant's bot configuration. `allowed_origins` always comes from the tenant row (the one
 * list the widget session check reads); a chatbot whose stored document is empty gets its
 * sector's template. Shared between callers: do not mutate.
 */
export async function getBotConfig(
  deps: Pick<Deps, "store">,
  tenantId: string,
  lookupVersion?: string,
): Promise<BotConfig> {
  const config = await configCache.get(deps.store, tenantId, () => loadBotConfig(deps.store, tenantId), lookupVersion);
  if (!config) throw notFound("tenant");
  return config;
}

/** The tenant (404 if none) and its bot config, both cached, with one read of the lookup version. */
export async function requireTenantWithConfig(
  deps: Pick<Deps, "store">,
  tenantId: string,
): Promise<{ tenant: TenantRecord; config: BotConfig }> {
  const version = await readLookupVersion(deps.store);
  const tenant = await requireTenant(deps, tenantId, version);
  return { tenant, config: await getBotConfig(deps, tenantId, version) };
}

/**
 * requireTenantWithConfig from the caches alone, without reading the lookup version: both
 * cached for the same version, else null. Only for a chat turn that passes `version` on as
 * handleMessage's `lookupVersion`, which checks it inside the turn's write transaction.
 */
export function peekTenantWithConfig(
  deps: Pick<Deps, "store">,
  tenantId: string,
): { tenant: TenantRecord; config: BotConfig; version: string } | null {
  const tenant = peekTenant(deps, tenantId);
  const config = configCache.peek(deps.store, tenantId);
  if (!tenant || !config || tenant.version !== config.version) return null;
  return { tenant: tenant.value, config: config.value, version: tenant.version };
}

/** Reads through `db` (the store or an open transaction), uncached; null when there is no such tenant. */
async function loadBotConfig(db: StoreQueries, tenantId: string): Promise<BotConfig | null> {
  const row = await db.botConfigs.findBotConfigVersion(tenantId);
  if (!row) return null;
  const document = await db.botConfigs.findBotConfigDocument(row.chatbotId);
  if (!document) return null;
  const stored =
    Object.keys(document.config).length > 0
      ? (document.config as unknown as BotConfig)
      : configForSector(document.sector);
  // Configs stored before `languages` existed speak English only.
  return { ...stored, languages: stored.languages ?? ["en"], allowed_origins: document.allowedOrigins };
}

/**
 * Applies a partial config document (validated key by key, 422 on the first bad field) and
 * stores it; `allowed_origins` and `sector` are written to the tenant row too.
 */
export async function updateBotConfig(deps: Deps, tenantId: string, patch: unknown): Promise<BotConfig> {
  // Read, merge and write in one transaction: two concurrent patches cannot undo each other.
  // The cache needs no help: the writes below change the store's lookup version.
  return deps.store.transaction(async (tx) => {
    const current = await loadBotConfig(tx, tenantId);
    if (!current) throw notFound("tenant");
    const merged = mergeBotConfigPatch(deps, current, patch);
    const now = deps.clock.now();
    await tx.botConfigs.updateBotConfig(tenantId, { ...merged }, merged.bot_name, now);
    await tx.botConfigs.updateTenantProfile(tenantId, {
      allowedOrigins: merged.allowed_origins,
      sector: merged.sector,
      updatedAt: now,
    });
    return merged;
  });
}

/** The config `patch` would make of `current` (422 on the first bad field), without storing it: a save, or a dry run's proposal. */
export function mergeBotConfigPatch(deps: Deps, current: BotConfig, patch: unknown): BotConfig {
  const next = validateBotConfigPatch(patch, current, (plain) => sealSecret(deps, plain));
  return { ...next, allowed_origins: normalizeOrigins(next.allowed_origins) };
}
