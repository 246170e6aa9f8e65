import type { ApiKeyRow, MembershipRow, NewChatbot, RefreshTokenRow, TenantRow, UserRow } from "./rows.ts";

// The tenants and auth aggregates of the store seam (src/db/store.ts): one SQL operation per
// function, named for what it does.

/** A tenant with the id of its chatbot (null only mid-creation, never seen outside a transaction). */
export type TenantWithChatbot = TenantRow & { chatbotId: string | null };

export interface TenantQueries {
  /**
   * A token that changes whenever any tenant or chatbot row may have changed, in this process
   * or another (SQLite: `PRAGMA data_version` + this connection's own writes). The lookup
   * caches (src/tenants/lookup-cache.ts) compare it before every hit.
   */
  findLookupVersion(): Promise<string>;
  /** The tenant's plan name, or null when there is no such tenant. */
  findTenantPlan(tenantId: string): Promise<string | null>;
  /**
   * Holds the tenant's lock on one plan cap (`cap`: "knowledge", "webhook_rules"…) until the
   * transaction ends, taken before the count is read: two adds of one tenant then check and
   * insert one after the other on every store.
   */
  lockPlanCap(tenantId: string, cap: string): Promise<void>;
  findTenant(tenantId: string): Promise<TenantWithChatbot | null>;
  /** Every tenant, by id. */
  listTenants(): Promise<TenantWithChatbot[]>;
  /** For CORS preflights: does any tenant allow this origin (or allow every origin)? */
  anyTenantAllowsOrigin(origin: string): Promise<boolean>;
  insertTenant(row: TenantRow): Promise<void>;
  updateTenantPlan(tenantId: string, plan: string, updatedAt: number): Promise<void>;
  insertChatbot(row: NewChatbot): Promise<void>;
}

export interface UserQueries {
  findUserByEmail(email: string): Promise<UserRow | null>;
  findUser(userId: string): Promise<UserRow | null>;
  insertUser(row: UserRow): Promise<void>;
  updatePasswordHash(userId: string, passwordHash: string): Promise<void>;
  /** null clears it (operator replies then show the widget's localised "Agent"). */
  updateDisplayName(userId: string, displayName: string | null): Promise<void>;
  findMembership(userId: string, tenantId: string): Promise<MembershipRow | null>;
  insertMembership(row: MembershipRow): Promise<void>;
  listMemberships(userId: string): Promise<MembershipRow[]>;
  /** The tenant's people with their role, by e-mail. */
  listTenantMembers(tenantId: string): Promise<TenantMember[]>;
  /** Answers the rows removed (0: no such membership). */
  deleteMembership(userId: string, tenantId: string): Promise<number>;
  deleteUserMemberships(userId: string): Promise<void>;
  /** Answers the rows removed (0: no such user). */
  deleteUser(userId: string): Promise<number>;
}

/** A row of a tenant's team: the account and its role there. */
export interface TenantMember {
  userId: string;
  email: string;
  displayName: string | null;
  role: MembershipRow["role"];
  createdAt: number;
}

export interface ApiKeyQueries {
  insertApiKey(row: ApiKeyRow): Promise<void>;
  /** The tenant's keys, newest first. */
  listTenantApiKeys(tenantId: string): Promise<ApiKeyRow[]>;
  findApiKey(keyId: string): Promise<ApiKeyRow | null>;
  revokeApiKey(keyId: string, revokedAt: number): Promise<void>;
  /** Unrevoked keys with this display prefix (it also finds the row: see src/auth/api-keys.ts). */
  listLiveApiKeysByPrefix(prefix: string): Promise<ApiKeyRow[]>;
  touchApiKey(keyId: string, usedAt: number): Promise<void>;
}

export interface RefreshTokenQueries {
  insertRefreshToken(row: Omit<RefreshTokenRow, "rotatedAt" | "revokedAt">): Promise<void>;
  findRefreshTokenByHash(tokenHash: string): Promise<RefreshTokenRow | null>;
  markRefreshTokenRotated(tokenId: string, rotatedAt: number): Promise<void>;
  /** Revokes every unrevoked token of the family (a reused token: src/auth/refresh-tokens.ts). */
  revokeRefreshTokenFamily(familyId: string, revokedAt: number): Promise<void>;
  /** Revokes every token of the user (a new password ends every session). */
  revokeUserRefreshTokens(userId: string, revokedAt: number): Promise<void>;
  deleteUserRefreshTokens(userId: string): Promise<void>;
}

/** Server-wide key/value settings (the generated JWT secret, the demo tenant's id). */
export interface SettingQueries {
  findSetting(key: string): Promise<string | null>;
  putSetting(key: string, value: string): Promise<void>;
  /** Stores `value` unless the key has one already (two processes starting together keep one). */
  insertSettingIfMissing(key: string, value: string): Promise<void>;
}
