import { chatbots, tenants } from "../schema.ts";
import { asNumber, type Dialect, insertRow, many, one, type Ops, parsedJson, write } from "../statements.ts";
import type { TenantQueries, TenantWithChatbot } from "../store-accounts.ts";
import type { BotConfigQueries } from "../store-chat.ts";

// The lookup version differs per store, and so does marking a write to these tables on SQLite
// (src/db/sqlite/tenants.ts).

type RawTenant = Omit<TenantWithChatbot, "allowedOrigins"> & { allowedOrigins: unknown };

const toTenant = (row: RawTenant): TenantWithChatbot => ({
  ...row,
  allowedOrigins: parsedJson<string[]>(row.allowedOrigins),
});

/** findTenant runs on every chat message the lookup cache misses. */
const selectTenant = (d: Dialect) => `SELECT ${d.columns(tenants, "t")},
    (SELECT c.id FROM chatbots c WHERE c.tenant_id = t.id ORDER BY c.id LIMIT 1) AS "chatbotId"
    FROM tenants t`;

export const TENANT_OPS: Ops<Omit<TenantQueries, "findLookupVersion">> = {
  // Under READ COMMITTED two adds could each count before the other commits: an advisory lock
  // (class 2, a space of its own) puts them in turn. SQLite's writes are serial already.
  lockPlanCap: one(
    (d) =>
      d.name === "postgres"
        ? "SELECT count(pg_advisory_xact_lock(2, hashtext($1 || '/' || $2))) AS n"
        : "SELECT 0 AS n WHERE $1 IS NULL AND $2 IS NULL",
    (tenantId, cap) => [tenantId, cap],
    () => undefined,
  ),
  findTenantPlan: one(
    "SELECT plan FROM tenants WHERE id = $1",
    (tenantId) => [tenantId],
    (row: { plan: string } | null) => row?.plan ?? null,
  ),
  findTenant: one(
    (d) => `${selectTenant(d)} WHERE t.id = $1`,
    (tenantId) => [tenantId],
    (row: RawTenant | null) => (row ? toTenant(row) : null),
  ),
  listTenants: many(
    (d) => `${selectTenant(d)} ORDER BY t.id`,
    () => [],
    (rows: RawTenant[]) => rows.map(toTenant),
  ),
  anyTenantAllowsOrigin: one(
    (d) => `SELECT 1 AS ok FROM tenants
      WHERE json_array_length(allowed_origins) = 0 OR EXISTS (SELECT 1 FROM ${d.jsonArray("tenants.allowed_origins", "o")} WHERE o.value = $1)
      LIMIT 1`,
    (origin) => [origin],
    (row) => row !== null,
  ),
  insertTenant: insertRow(tenants),
  updateTenantPlan: write(
    "UPDATE tenants SET plan = $2, updated_at = $3 WHERE id = $1",
    (tenantId, plan, updatedAt) => [tenantId, plan, updatedAt],
  ),
  insertChatbot: insertRow(chatbots),
};

type BotConfigVersion = { chatbotId: string; updatedAt: number; tenantUpdatedAt: number };
type RawDocument = { config: unknown; sector: string; allowedOrigins: unknown };

export const BOT_CONFIG_OPS: Ops<BotConfigQueries> = {
  // A cheap probe on every message: the document is read only when it changed.
  findBotConfigVersion: one(
    `SELECT c.id AS "chatbotId", c.updated_at AS "updatedAt", (SELECT t.updated_at FROM tenants t WHERE t.id = c.tenant_id) AS "tenantUpdatedAt"
     FROM chatbots c WHERE c.tenant_id = $1 ORDER BY c.id LIMIT 1`,
    (tenantId) => [tenantId],
    (row: BotConfigVersion | null) =>
      row && {
        chatbotId: row.chatbotId,
        updatedAt: asNumber(row.updatedAt),
        tenantUpdatedAt: asNumber(row.tenantUpdatedAt),
      },
  ),
  findBotConfigDocument: one(
    `SELECT c.config, t.sector, t.allowed_origins AS "allowedOrigins" FROM chatbots c JOIN tenants t ON t.id = c.tenant_id WHERE c.id = $1`,
    (chatbotId) => [chatbotId],
    (row: RawDocument | null) =>
      row && {
        config: parsedJson<Record<string, unknown>>(row.config),
        sector: row.sector,
        allowedOrigins: parsedJson<string[]>(row.allowedOrigins),
      },
  ),
  updateBotConfig: one(
    (d) => `UPDATE chatbots SET config = ${d.json("$1")}, name = $2, updated_at = $3 WHERE tenant_id = $4 RETURNING id`,
    (tenantId, config, name, updatedAt) => [JSON.stringify(config), name, updatedAt, tenantId],
    (row: { id: string } | null) => row?.id ?? null,
  ),
  updateTenantProfile: write(
    (d) => `UPDATE tenants SET allowed_origins = ${d.json("$1")}, sector = $2, updated_at = $3 WHERE id = $4`,
    (tenantId, profile) => [JSON.stringify(profile.allowedOrigins), profile.sector, profile.updatedAt, tenantId],
  ),
};
