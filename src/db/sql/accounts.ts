import { apiKeys, memberships, refreshTokens, users } from "../schema.ts";
import { asNumber, insertRow, many, one, type Ops, write } from "../statements.ts";
import type {
  ApiKeyQueries,
  RefreshTokenQueries,
  SettingQueries,
  TenantMember,
  UserQueries,
} from "../store-accounts.ts";

export const USER_OPS: Ops<UserQueries> = {
  findUserByEmail: one(
    (d) => `SELECT ${d.columns(users)} FROM users WHERE email = $1`,
    (email) => [email],
  ),
  findUser: one(
    (d) => `SELECT ${d.columns(users)} FROM users WHERE id = $1`,
    (userId) => [userId],
  ),
  insertUser: insertRow(users),
  updatePasswordHash: write("UPDATE users SET password_hash = $2 WHERE id = $1", (userId, passwordHash) => [
    userId,
    passwordHash,
  ]),
  updateDisplayName: write("UPDATE users SET display_name = $2 WHERE id = $1", (userId, displayName) => [
    userId,
    displayName,
  ]),
  findMembership: one(
    (d) => `SELECT ${d.columns(memberships)} FROM memberships WHERE user_id = $1 AND tenant_id = $2`,
    (userId, tenantId) => [userId, tenantId],
  ),
  insertMembership: insertRow(memberships),
  // The primary key (user_id, tenant_id) gives this order without a sort.
  listMemberships: many(
    (d) => `SELECT ${d.columns(memberships)} FROM memberships WHERE user_id = $1 ORDER BY tenant_id`,
    (userId) => [userId],
  ),
  // memberships_tenant_idx finds the rows; a team is a handful of people, so the sort is free.
  listTenantMembers: many(
    `SELECT u.id AS "userId", u.email AS "email", u.display_name AS "displayName", m.role AS "role", m.created_at AS "createdAt"
     FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.tenant_id = $1 ORDER BY u.email`,
    (tenantId) => [tenantId],
    (rows: TenantMember[]) => rows.map((row) => ({ ...row, createdAt: asNumber(row.createdAt) })),
  ),
  deleteMembership: write("DELETE FROM memberships WHERE user_id = $1 AND tenant_id = $2", (userId, tenantId) => [
    userId,
    tenantId,
  ]),
  deleteUserMemberships: write("DELETE FROM memberships WHERE user_id = $1", (userId) => [userId]),
  deleteUser: write("DELETE FROM users WHERE id = $1", (userId) => [userId]),
};

export const API_KEY_OPS: Ops<ApiKeyQueries> = {
  insertApiKey: insertRow(apiKeys),
  listTenantApiKeys: many(
    (d) => `SELECT ${d.columns(apiKeys)} FROM api_keys WHERE tenant_id = $1 ORDER BY id DESC`,
    (tenantId) => [tenantId],
  ),
  findApiKey: one(
    (d) => `SELECT ${d.columns(apiKeys)} FROM api_keys WHERE id = $1`,
    (keyId) => [keyId],
  ),
  revokeApiKey: write("UPDATE api_keys SET revoked_at = $2 WHERE id = $1", (keyId, revokedAt) => [keyId, revokedAt]),
  // Every request with an API key (api_keys_prefix_idx); ids are time-ordered.
  listLiveApiKeysByPrefix: many(
    (d) => `SELECT ${d.columns(apiKeys)} FROM api_keys WHERE prefix = $1 AND revoked_at IS NULL ORDER BY id`,
    (prefix) => [prefix],
  ),
  touchApiKey: write("UPDATE api_keys SET last_used_at = $2 WHERE id = $1", (keyId, usedAt) => [keyId, usedAt]),
};

export const REFRESH_TOKEN_OPS: Ops<RefreshTokenQueries> = {
  insertRefreshToken: insertRow(refreshTokens),
  findRefreshTokenByHash: one(
    (d) => `SELECT ${d.columns(refreshTokens)} FROM refresh_tokens WHERE token_hash = $1`,
    (tokenHash) => [tokenHash],
  ),
  markRefreshTokenRotated: write("UPDATE refresh_tokens SET rotated_at = $2 WHERE id = $1", (tokenId, rotatedAt) => [
    tokenId,
    rotatedAt,
  ]),
  revokeRefreshTokenFamily: write(
    "UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL",
    (familyId, revokedAt) => [familyId, revokedAt],
  ),
  revokeUserRefreshTokens: write(
    "UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1",
    (userId, revokedAt) => [userId, revokedAt],
  ),
  deleteUserRefreshTokens: write("DELETE FROM refresh_tokens WHERE user_id = $1", (userId) => [userId]),
};

export const SETTING_OPS: Ops<SettingQueries> = {
  findSetting: one(
    "SELECT value FROM settings WHERE key = $1",
    (key) => [key],
    (row: { value: string } | null) => row?.value ?? null,
  ),
  putSetting: write(
    "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    (key, value) => [key, value],
  ),
  insertSettingIfMissing: write(
    "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
    (key, value) => [key, value],
  ),
};
