import type { ApiKeyRow, MembershipRow, RefreshTokenRow, UserRow } from "../rows.ts";
import type { ApiKeyQueries, RefreshTokenQueries, SettingQueries, TenantQueries, TenantWithChatbot, UserQueries } from "../store-accounts.ts";
import { pgColumns } from "./columns.ts";
import type { PgExec } from "./exec.ts";
import { apiKeys, memberships, refreshTokens, tenants, users } from "./schema.ts";

// The tenants and auth aggregates on PostgreSQL: the statements of src/db/sqlite/tenants.ts and
// accounts.ts, translated. Text ids are ordered `COLLATE "C"` (byte order, as SQLite's BINARY)
// whatever the database's collation; every such sort is over a handful of rows.

type RawTenant = Omit<TenantWithChatbot, "allowedOrigins"> & { allowedOrigins: string };

const toTenant = (row: RawTenant): TenantWithChatbot => ({ ...row, allowedOrigins: JSON.parse(row.allowedOrigins) as string[] });

export function pgTenants(db: PgExec): TenantQueries {
  // Bun parses a json column itself; read as text (json keeps the text it was given, here
  // JSON.stringify's) and parse it as the SQLite code does.
  const tenantColumns = pgColumns(tenants, "t").replace('t.allowed_origins AS "allowedOrigins"', 't.allowed_origins::text AS "allowedOrigins"');
  if (!tenantColumns.includes("allowed_origins::text")) throw new Error("pgTenants: allowed_origins is not in the tenants columns");
  const selectTenant = `SELECT ${tenantColumns},
    (SELECT c.id FROM chatbots c WHERE c.tenant_id = t.id ORDER BY c.id COLLATE "C" LIMIT 1) AS "chatbotId"
    FROM tenants t`;
  const one = `${selectTenant} WHERE t.id = $1`;
  const all = `${selectTenant} ORDER BY t.id COLLATE "C"`;
  return {
    // Bumped by statement triggers on tenants and chatbots (migrations/postgres/0001), whichever
    // connection or process writes: no per-connection counter as on SQLite.
    findLookupVersion: async () => {
      const row = await db.get<{ version: number }>("SELECT version::float8 AS version FROM parley_lookup_version WHERE id = 1");
      return String(row?.version ?? 0);
    },
    findTenantPlan: async (tenantId) => (await db.get<{ plan: string }>("SELECT plan FROM tenants WHERE id = $1", [tenantId]))?.plan ?? null,
    findTenant: async (tenantId) => {
      const row = await db.get<RawTenant>(one, [tenantId]);
      return row ? toTenant(row) : null;
    },
    listTenants: async () => (await db.all<RawTenant>(all)).map(toTenant),
    // As SQLite: '[]' compared as text (json keeps the text written, JSON.stringify's), then the elements.
    anyTenantAllowsOrigin: async (origin) =>
      (await db.get<{ ok: number }>(
        `SELECT 1 AS ok FROM tenants
         WHERE allowed_origins::text = '[]' OR EXISTS (SELECT 1 FROM json_array_elements_text(allowed_origins) AS o(value) WHERE o.value = $1)
         LIMIT 1`,
        [origin],
      )) !== null,
    insertTenant: async (row) => {
      await db.run(
        "INSERT INTO tenants (id, name, plan, sector, allowed_origins, created_at, updated_at) VALUES ($1, $2, $3, $4, $5::text::json, $6, $7)",
        [row.id, row.name, row.plan, row.sector, JSON.stringify(row.allowedOrigins), row.createdAt, row.updatedAt],
      );
    },
    updateTenantPlan: async (tenantId, plan, updatedAt) => {
      await db.run("UPDATE tenants SET plan = $1, updated_at = $2 WHERE id = $3", [plan, updatedAt, tenantId]);
    },
    // The config default ({}) as the SQLite schema's: the query builder there fills it in.
    // `$n::text::json`: Bun sends a string bound to a json parameter as a JSON *string*.
    insertChatbot: async (row) => {
      await db.run("INSERT INTO chatbots (id, tenant_id, name, config, created_at, updated_at) VALUES ($1, $2, $3, $4::text::json, $5, $6)", [
        row.id,
        row.tenantId,
        row.name,
        JSON.stringify(row.config ?? {}),
        row.createdAt,
        row.updatedAt,
      ]);
    },
  };
}

export function pgUsers(db: PgExec): UserQueries {
  const columns = pgColumns(users);
  const memberColumns = pgColumns(memberships);
  return {
    findUserByEmail: (email) => db.get<UserRow>(`SELECT ${columns} FROM users WHERE email = $1`, [email]),
    findUser: (userId) => db.get<UserRow>(`SELECT ${columns} FROM users WHERE id = $1`, [userId]),
    insertUser: async (row) => {
      await db.run("INSERT INTO users (id, email, password_hash, display_name, created_at) VALUES ($1, $2, $3, $4, $5)", [row.id, row.email, row.passwordHash, row.displayName, row.createdAt]);
    },
    updatePasswordHash: async (userId, passwordHash) => {
      await db.run("UPDATE users SET password_hash = $1 WHERE id = $2", [passwordHash, userId]);
    },
    updateDisplayName: async (userId, displayName) => {
      await db.run("UPDATE users SET display_name = $1 WHERE id = $2", [displayName, userId]);
    },
    findMembership: (userId, tenantId) =>
      db.get<MembershipRow>(`SELECT ${memberColumns} FROM memberships WHERE user_id = $1 AND tenant_id = $2`, [userId, tenantId]),
    insertMembership: async (row) => {
      await db.run("INSERT INTO memberships (user_id, tenant_id, role, created_at) VALUES ($1, $2, $3, $4)", [row.userId, row.tenantId, row.role, row.createdAt]);
    },
    // SQLite walks the primary key (user_id, tenant_id): by tenant id.
    listMemberships: (userId) =>
      db.all<MembershipRow>(`SELECT ${memberColumns} FROM memberships WHERE user_id = $1 ORDER BY tenant_id COLLATE "C"`, [userId]),
  };
}

export function pgApiKeys(db: PgExec): ApiKeyQueries {
  const columns = pgColumns(apiKeys);
  return {
    insertApiKey: async (row) => {
      await db.run(
        "INSERT INTO api_keys (id, tenant_id, name, prefix, key_hash, created_at, last_used_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [row.id, row.tenantId, row.name, row.prefix, row.keyHash, row.createdAt, row.lastUsedAt, row.revokedAt],
      );
    },
    listTenantApiKeys: (tenantId) => db.all<ApiKeyRow>(`SELECT ${columns} FROM api_keys WHERE tenant_id = $1 ORDER BY id COLLATE "C" DESC`, [tenantId]),
    findApiKey: (keyId) => db.get<ApiKeyRow>(`SELECT ${columns} FROM api_keys WHERE id = $1`, [keyId]),
    revokeApiKey: async (keyId, revokedAt) => {
      await db.run("UPDATE api_keys SET revoked_at = $1 WHERE id = $2", [revokedAt, keyId]);
    },
    // Runs on every request with an API key (api_keys_prefix_idx). SQLite returns ties in insertion
    // order; ids are time-ordered (src/lib/ids.ts), so by id is the same order.
    listLiveApiKeysByPrefix: (prefix) =>
      db.all<ApiKeyRow>(`SELECT ${columns} FROM api_keys WHERE prefix = $1 AND revoked_at IS NULL ORDER BY id COLLATE "C"`, [prefix]),
    touchApiKey: async (keyId, usedAt) => {
      await db.run("UPDATE api_keys SET last_used_at = $1 WHERE id = $2", [usedAt, keyId]);
    },
  };
}

export function pgRefreshTokens(db: PgExec): RefreshTokenQueries {
  const columns = pgColumns(refreshTokens);
  return {
    insertRefreshToken: async (row) => {
      await db.run("INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)", [
        row.id,
        row.userId,
        row.familyId,
        row.tokenHash,
        row.expiresAt,
        row.createdAt,
      ]);
    },
    findRefreshTokenByHash: (tokenHash) => db.get<RefreshTokenRow>(`SELECT ${columns} FROM refresh_tokens WHERE token_hash = $1`, [tokenHash]),
    markRefreshTokenRotated: async (tokenId, rotatedAt) => {
      await db.run("UPDATE refresh_tokens SET rotated_at = $1 WHERE id = $2", [rotatedAt, tokenId]);
    },
    revokeRefreshTokenFamily: async (familyId, revokedAt) => {
      await db.run("UPDATE refresh_tokens SET revoked_at = $1 WHERE family_id = $2 AND revoked_at IS NULL", [revokedAt, familyId]);
    },
    revokeUserRefreshTokens: async (userId, revokedAt) => {
      await db.run("UPDATE refresh_tokens SET revoked_at = $1 WHERE user_id = $2", [revokedAt, userId]);
    },
  };
}

export function pgSettings(db: PgExec): SettingQueries {
  return {
    findSetting: async (key) => (await db.get<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key]))?.value ?? null,
    putSetting: async (key, value) => {
      await db.run("INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value]);
    },
    insertSettingIfMissing: async (key, value) => {
      await db.run("INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", [key, value]);
    },
  };
}
