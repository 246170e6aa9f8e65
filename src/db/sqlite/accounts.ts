import type { Database } from "bun:sqlite";
import type { ApiKeyRow, MembershipRow, RefreshTokenRow, UserRow } from "../rows.ts";
import { apiKeys, memberships, refreshTokens, users } from "../schema.ts";
import type { ApiKeyQueries, RefreshTokenQueries, SettingQueries, UserQueries } from "../store-accounts.ts";
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";

export function sqliteUsers(sqlite: Database): SyncOf<UserQueries> {
  const columns = selectColumns(users);
  const byEmail = sqlite.prepare<UserRow, [string]>(`SELECT ${columns} FROM users WHERE email = ?`);
  const byId = sqlite.prepare<UserRow, [string]>(`SELECT ${columns} FROM users WHERE id = ?`);
  const insert = sqlite.prepare("INSERT INTO users (id, email, password_hash, display_name, created_at) VALUES (?, ?, ?, ?, ?)");
  const setHash = sqlite.prepare("UPDATE users SET password_hash = ? WHERE id = ?");
  const setDisplayName = sqlite.prepare("UPDATE users SET display_name = ? WHERE id = ?");
  const memberColumns = selectColumns(memberships);
  const membership = sqlite.prepare<MembershipRow, [string, string]>(`SELECT ${memberColumns} FROM memberships WHERE user_id = ? AND tenant_id = ?`);
  const insertMembership = sqlite.prepare("INSERT INTO memberships (user_id, tenant_id, role, created_at) VALUES (?, ?, ?, ?)");
  const membershipsOf = sqlite.prepare<MembershipRow, [string]>(`SELECT ${memberColumns} FROM memberships WHERE user_id = ?`);
  return {
    findUserByEmail: (email) => byEmail.get(email),
    findUser: (userId) => byId.get(userId),
    insertUser: (row) => {
      insert.run(row.id, row.email, row.passwordHash, row.displayName, row.createdAt);
    },
    updatePasswordHash: (userId, passwordHash) => {
      setHash.run(passwordHash, userId);
    },
    updateDisplayName: (userId, displayName) => {
      setDisplayName.run(displayName, userId);
    },
    findMembership: (userId, tenantId) => membership.get(userId, tenantId),
    insertMembership: (row) => {
      insertMembership.run(row.userId, row.tenantId, row.role, row.createdAt);
    },
    listMemberships: (userId) => membershipsOf.all(userId),
  };
}

export function sqliteApiKeys(sqlite: Database): SyncOf<ApiKeyQueries> {
  const columns = selectColumns(apiKeys);
  const insert = sqlite.prepare(
    "INSERT INTO api_keys (id, tenant_id, name, prefix, key_hash, created_at, last_used_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const ofTenant = sqlite.prepare<ApiKeyRow, [string]>(`SELECT ${columns} FROM api_keys WHERE tenant_id = ? ORDER BY id DESC`);
  const byId = sqlite.prepare<ApiKeyRow, [string]>(`SELECT ${columns} FROM api_keys WHERE id = ?`);
  const revoke = sqlite.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?");
  // Runs on every request with an API key.
  const liveByPrefix = sqlite.prepare<ApiKeyRow, [string]>(`SELECT ${columns} FROM api_keys WHERE prefix = ? AND revoked_at IS NULL`);
  const touch = sqlite.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?");
  return {
    insertApiKey: (row) => {
      insert.run(row.id, row.tenantId, row.name, row.prefix, row.keyHash, row.createdAt, row.lastUsedAt, row.revokedAt);
    },
    listTenantApiKeys: (tenantId) => ofTenant.all(tenantId),
    findApiKey: (keyId) => byId.get(keyId),
    revokeApiKey: (keyId, revokedAt) => {
      revoke.run(revokedAt, keyId);
    },
    listLiveApiKeysByPrefix: (prefix) => liveByPrefix.all(prefix),
    touchApiKey: (keyId, usedAt) => {
      touch.run(usedAt, keyId);
    },
  };
}

export function sqliteRefreshTokens(sqlite: Database): SyncOf<RefreshTokenQueries> {
  const insert = sqlite.prepare("INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const byHash = sqlite.prepare<RefreshTokenRow, [string]>(`SELECT ${selectColumns(refreshTokens)} FROM refresh_tokens WHERE token_hash = ?`);
  const rotated = sqlite.prepare("UPDATE refresh_tokens SET rotated_at = ? WHERE id = ?");
  const revokeFamily = sqlite.prepare("UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL");
  const revokeUser = sqlite.prepare("UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ?");
  return {
    insertRefreshToken: (row) => {
      insert.run(row.id, row.userId, row.familyId, row.tokenHash, row.expiresAt, row.createdAt);
    },
    findRefreshTokenByHash: (tokenHash) => byHash.get(tokenHash),
    markRefreshTokenRotated: (tokenId, rotatedAt) => {
      rotated.run(rotatedAt, tokenId);
    },
    revokeRefreshTokenFamily: (familyId, revokedAt) => {
      revokeFamily.run(revokedAt, familyId);
    },
    revokeUserRefreshTokens: (userId, revokedAt) => {
      revokeUser.run(revokedAt, userId);
    },
  };
}

export function sqliteSettings(sqlite: Database): SyncOf<SettingQueries> {
  const find = sqlite.prepare<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?");
  const put = sqlite.prepare("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  const insertIfMissing = sqlite.prepare("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)");
  return {
    findSetting: (key) => find.get(key)?.value ?? null,
    putSetting: (key, value) => {
      put.run(key, value);
    },
    insertSettingIfMissing: (key, value) => {
      insertIfMissing.run(key, value);
    },
  };
}
