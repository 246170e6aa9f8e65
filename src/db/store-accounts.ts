import type { ApiKeyRow, MembershipRow, NewChatbot, RefreshTokenRow, TenantRow, UserRow } from "./rows.ts";

/** A tenant with the id of its chatbot (null only mid-creation, never seen outside a transaction). */
export type TenantWithChatbot = TenantRow & { chatbotId: string | null };

export interface TenantQueries {
  /** Changes whenever a tenant or chatbot row may have, in any process (docs/hot-path.md §1). */
  findLookupVersion(): Promise<string>;
  findTenantPlan(tenantId: string): Promise<string | null>;
  /**
   * Taken before a cap's count ("knowledge", "webhook_rules"…) and held to the end of the
   * transaction, so two adds of one tenant check and insert in turn.
   */
  lockPlanCap(tenantId: string, cap: string): Promise<void>;
  findTenant(tenantId: string): Promise<TenantWithChatbot | null>;
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
  /** By e-mail. */
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
  /** The display prefix also finds the row (src/auth/api-keys.ts). */
  listLiveApiKeysByPrefix(prefix: string): Promise<ApiKeyRow[]>;
  touchApiKey(keyId: string, usedAt: number): Promise<void>;
}

export interface RefreshTokenQueries {
  insertRefreshToken(row: Omit<RefreshTokenRow, "rotatedAt" | "revokedAt">): Promise<void>;
  findRefreshTokenByHash(tokenHash: string): Promise<RefreshTokenRow | null>;
  markRefreshTokenRotated(tokenId: string, rotatedAt: number): Promise<void>;
  /** A reused token revokes its family (src/auth/refresh-tokens.ts). */
  revokeRefreshTokenFamily(familyId: string, revokedAt: number): Promise<void>;
  /** A new password ends every session. */
  revokeUserRefreshTokens(userId: string, revokedAt: number): Promise<void>;
  deleteUserRefreshTokens(userId: string): Promise<void>;
}

/** Server-wide key/value settings (the generated JWT secret, the demo tenant's id). */
export interface SettingQueries {
  findSetting(key: string): Promise<string | null>;
  putSetting(key: string, value: string): Promise<void>;
  /** Two processes starting together keep one value. */
  insertSettingIfMissing(key: string, value: string): Promise<void>;
}
