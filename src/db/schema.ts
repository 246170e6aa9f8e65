import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Conventions: snake_case columns, prefixed text ids (src/lib/ids.ts), integer epoch-ms times.

/**
 * The tenant a row belongs to: deleting the tenant deletes the row. A function declaration, so
 * the schema files this one re-exports may call it before this module's body has run.
 */
export function tenantIdColumn() {
  return text("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" });
}

export const tenants = sqliteTable("tenants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  plan: text("plan").notNull().default("free"),
  sector: text("sector").notNull().default("general"),
  /** JSON array of origins allowed to open widget sessions; empty = any origin. */
  allowedOrigins: text("allowed_origins", { mode: "json" }).$type<string[]>().notNull().default([]),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const chatbots = sqliteTable(
  "chatbots",
  {
    id: text("id").primaryKey(),
    tenantId: tenantIdColumn(),
    name: text("name").notNull(),
    /** The bot's settings document (greeting, FAQ, lead and appointment settings…). */
    config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [index("chatbots_tenant_idx").on(table.tenantId)],
);

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  /** Stored lower-cased so look-ups are case-insensitive. */
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  /** Shown to visitors on the operator's replies; null = the widget's localised "Agent". */
  displayName: text("display_name"),
  createdAt: integer("created_at").notNull(),
});

export const MEMBERSHIP_ROLES = ["owner", "admin", "agent"] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

export const memberships = sqliteTable(
  "memberships",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tenantId: tenantIdColumn(),
    role: text("role", { enum: MEMBERSHIP_ROLES }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.tenantId] }),
    index("memberships_tenant_idx").on(table.tenantId),
  ],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    tenantId: tenantIdColumn(),
    name: text("name").notNull(),
    /** The first characters of the key, shown in listings and used to find the row. */
    prefix: text("prefix").notNull(),
    /** SHA-256 hex of the whole key; the key itself is shown once and never stored. */
    keyHash: text("key_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (table) => [index("api_keys_prefix_idx").on(table.prefix), index("api_keys_tenant_idx").on(table.tenantId)],
);

export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Every token issued by rotation from one login shares a family; reuse revokes it. */
    familyId: text("family_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
    rotatedAt: integer("rotated_at"),
    revokedAt: integer("revoked_at"),
  },
  (table) => [
    uniqueIndex("refresh_tokens_hash_idx").on(table.tokenHash),
    index("refresh_tokens_family_idx").on(table.familyId),
  ],
);

export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export * from "./schema-webhooks.ts";
export * from "./schema-chat.ts";
export * from "./schema-integrations.ts";
export * from "./schema-analytics.ts";
export * from "./schema-knowledge.ts";
export * from "./schema-test-set.ts";
export * from "./schema-live.ts";
export * from "./schema-desk.ts";
export * from "./schema-inbox.ts";
