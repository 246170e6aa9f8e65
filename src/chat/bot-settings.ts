import { eq } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { chatbots, tenants } from "../db/schema.ts";
import { writeTransaction } from "../db/client.ts";
import { notFound } from "../lib/app-error.ts";
import { preparedFor } from "../db/prepared.ts";
import { normalizeOrigins } from "../tenants/origins.ts";
import { validateBotConfigPatch, type BotConfig } from "./bot-config.ts";
import { configForSector } from "./sector-templates.ts";
import { sealSecret } from "../assistant/secret-box.ts";

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

const statements = preparedFor((sqlite) => ({
  // Cheap version probe on every message; the config document is read only when it changed.
  version: sqlite.prepare<{ id: string; updated_at: number; tenant_updated_at: number }, [string]>(
    "SELECT c.id, c.updated_at, (SELECT t.updated_at FROM tenants t WHERE t.id = c.tenant_id) AS tenant_updated_at FROM chatbots c WHERE c.tenant_id = ? ORDER BY c.id LIMIT 1",
  ),
  document: sqlite.prepare<{ config: string; sector: string; allowed_origins: string }, [string]>(
    "SELECT c.config, t.sector, t.allowed_origins FROM chatbots c JOIN tenants t ON t.id = c.tenant_id WHERE c.id = ?",
  ),
}));

/**
 * The tenant's bot configuration. `allowed_origins` always comes from the tenant row (the one
 * list the widget session check reads); a chatbot whose stored document is empty gets its
 * sector's template.
 */
export function getBotConfig(deps: Deps, tenantId: string): BotConfig {
  const sql = statements(deps.sqlite);
  const row = sql.version.get(tenantId);
  if (!row) throw notFound("tenant");
  const version = Math.max(row.updated_at, row.tenant_updated_at);
  const cached = cacheFor(deps).get(row.id);
  if (cached && cached.version === version) return cached.config;
  const document = sql.document.get(row.id);
  if (!document) throw notFound("tenant");
  const storedConfig = JSON.parse(document.config) as Record<string, unknown>;
  const stored = Object.keys(storedConfig).length > 0 ? (storedConfig as unknown as BotConfig) : configForSector(document.sector);
  const config = { ...stored, allowed_origins: JSON.parse(document.allowed_origins) as string[] };
  cacheFor(deps).set(row.id, { version, config });
  return config;
}

/**
 * Applies a partial config document (validated key by key, 422 on the first bad field) and
 * stores it; `allowed_origins` and `sector` are written to the tenant row too.
 */
export function updateBotConfig(deps: Deps, tenantId: string, patch: unknown): BotConfig {
  return writeTransaction(deps.sqlite, () => {
    const next = validateBotConfigPatch(patch, getBotConfig(deps, tenantId), (plain) => sealSecret(deps, plain));
    const now = deps.clock.now();
    const allowedOrigins = normalizeOrigins(next.allowed_origins);
    const config: BotConfig = { ...next, allowed_origins: allowedOrigins };
    const row = deps.db.update(chatbots).set({ config: { ...config }, name: config.bot_name, updatedAt: now }).where(eq(chatbots.tenantId, tenantId)).returning({ id: chatbots.id }).get();
    deps.db.update(tenants).set({ allowedOrigins, sector: config.sector, updatedAt: now }).where(eq(tenants.id, tenantId)).run();
    if (row) cacheFor(deps).delete(row.id);
    return config;
  });
}
