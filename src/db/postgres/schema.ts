import { bigint, index, json, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";

// The PostgreSQL twin of src/db/schema*.ts: the same tables, column names, keys and indexes
// (test/db/migrate.test.ts compares them), with PostgreSQL's types — `bigint` epoch-ms
// times (selected as float8 so they come back as numbers: src/db/postgres/columns.ts),
// `boolean`, `double precision`, `bytea`, and `json` (not jsonb: a bot's config document keeps
// its key order). The row types of src/db/rows.ts stay the SQLite schema's; the test asserts
// these infer the same shapes. Migrations: migrations/postgres (drizzle-kit, dialect postgresql);
// 0001 (custom) gives every text column COLLATE "C" so ids sort byte by byte, as on SQLite.

export const tenants = pgTable("tenants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  plan: text("plan").notNull().default("free"),
  sector: text("sector").notNull().default("general"),
  allowedOrigins: json("allowed_origins").$type<string[]>().notNull().default([]),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
  updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
});

export const chatbots = pgTable(
  "chatbots",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    config: json("config").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (table) => [index("chatbots_tenant_idx").on(table.tenantId)],
);

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  displayName: text("display_name"),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
});

export const memberships = pgTable(
  "memberships",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "agent"] as const }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.tenantId] }),
    index("memberships_tenant_idx").on(table.tenantId),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    lastUsedAt: bigint("last_used_at", { mode: "number" }),
    revokedAt: bigint("revoked_at", { mode: "number" }),
  },
  (table) => [index("api_keys_prefix_idx").on(table.prefix), index("api_keys_tenant_idx").on(table.tenantId)],
);

export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    familyId: text("family_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    rotatedAt: bigint("rotated_at", { mode: "number" }),
    revokedAt: bigint("revoked_at", { mode: "number" }),
  },
  (table) => [
    uniqueIndex("refresh_tokens_hash_idx").on(table.tokenHash),
    index("refresh_tokens_family_idx").on(table.familyId),
  ],
);

export const settings = pgTable("settings", {
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
