import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { getTableConfig, type PgColumn } from "drizzle-orm/pg-core";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { pgTwinsOf } from "../../src/db/postgres/pg-twin.ts";
import * as pgSchema from "../../src/db/postgres/schema.ts";

const owners = sqliteTable("owners", { id: text("id").primaryKey(), email: text("email").notNull().unique() });
const things = sqliteTable(
  "things",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => owners.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["a", "b"] }).notNull(),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default([]),
    score: real("score"),
    done: integer("done", { mode: "boolean" }).notNull(),
    count: integer("count").notNull().default(0),
    seenAt: integer("seen_at"),
    vector: blob("vector", { mode: "buffer" }),
  },
  (table) => [
    index("things_owner_idx").on(table.ownerId, table.id),
    uniqueIndex("things_open_idx").on(table.ownerId, table.kind).where(sql`done = 0`),
  ],
);
const links = sqliteTable("links", { a: text("a").notNull(), b: text("b").notNull() }, (table) => [
  primaryKey({ columns: [table.a, table.b] }),
]);

const twins = pgTwinsOf(
  { owners, things, links, notATable: 1 },
  { bigintColumn: (_, column) => column.endsWith("_at") },
);

const describeColumn = (column: PgColumn) => ({
  type: column.getSQLType(),
  notNull: column.notNull,
  primary: column.primary,
  default: column.default,
});

describe("PostgreSQL twins of SQLite tables", () => {
  test("each column gets PostgreSQL's type, with its nullability, key and default", () => {
    const config = getTableConfig(twins.things);
    expect(config.name).toBe("things");
    expect(Object.fromEntries(config.columns.map((column) => [column.name, describeColumn(column)]))).toEqual({
      id: { type: "bigint", notNull: true, primary: true, default: undefined },
      owner_id: { type: "text", notNull: true, primary: false, default: undefined },
      kind: { type: "text", notNull: true, primary: false, default: undefined },
      tags: { type: "json", notNull: true, primary: false, default: [] },
      score: { type: "double precision", notNull: false, primary: false, default: undefined },
      done: { type: "boolean", notNull: true, primary: false, default: undefined },
      count: { type: "integer", notNull: true, primary: false, default: 0 },
      seen_at: { type: "bigint", notNull: false, primary: false, default: undefined },
      vector: { type: "bytea", notNull: false, primary: false, default: undefined },
    });
    expect(twins.things.id.generatedIdentity?.type).toBe("byDefault");
    expect(twins.things.kind.enumValues).toEqual(["a", "b"]);
    expect(getTableConfig(twins.owners).columns.map((column) => [column.name, column.isUnique])).toEqual([
      ["id", false],
      ["email", true],
    ]);
  });

  test("indexes keep their columns, uniqueness and condition; foreign keys point at the twin", () => {
    const config = getTableConfig(twins.things);
    expect(
      config.indexes.map(({ config: ix }) => ({
        name: ix.name,
        unique: ix.unique,
        columns: ix.columns.map((column) => (column as PgColumn).name),
        partial: ix.where !== undefined,
      })),
    ).toEqual([
      { name: "things_owner_idx", unique: false, columns: ["owner_id", "id"], partial: false },
      { name: "things_open_idx", unique: true, columns: ["owner_id", "kind"], partial: true },
    ]);
    const [foreignKey] = config.foreignKeys;
    expect(foreignKey?.onDelete).toBe("cascade");
    expect(foreignKey?.reference().foreignTable).toBe(twins.owners);
    expect(foreignKey?.getName()).toBe("things_owner_id_owners_id_fk");
    expect(getTableConfig(twins.links).primaryKeys.map((pk) => pk.getName())).toEqual(["links_a_b_pk"]);
  });

  test("only tables are converted", () => {
    expect(Object.keys(twins).sort()).toEqual(["links", "owners", "things"]);
  });

  test("an index PostgreSQL reads otherwise takes its own columns, or is left out; its predicate stays", () => {
    const indexes = pgTwinsOf(
      { owners, things },
      { bigintColumn: () => false, indexes: { things_owner_idx: null, things_open_idx: ["kind", "owner_id", "id"] } },
    );
    const config = getTableConfig(indexes.things);
    expect(
      config.indexes.map(({ config: ix }) => ({
        name: ix.name,
        columns: ix.columns.map((column) => (column as PgColumn).name),
        partial: ix.where !== undefined,
      })),
    ).toEqual([{ name: "things_open_idx", columns: ["kind", "owner_id", "id"], partial: true }]);
  });

  test("a foreign key PostgreSQL does without is left out, and the column stays", () => {
    const keyless = pgTwinsOf(
      { owners, things },
      { bigintColumn: () => false, withoutForeignKeys: ["things.owner_id"] },
    );
    const config = getTableConfig(keyless.things);
    expect(config.foreignKeys).toEqual([]);
    expect(config.columns.find((column) => column.name === "owner_id")?.notNull).toBe(true);
    expect(getTableConfig(pgSchema.deliveryAttempts).foreignKeys).toEqual([]);
    expect(getTableConfig(pgSchema.deadLetters).foreignKeys.map((key) => key.getName())).toContain(
      "dead_letters_delivery_id_deliveries_id_fk",
    );
  });

  test("a plain SQLite column can be PostgreSQL's primary key, and a unique index there a plain one", () => {
    const messages = sqliteTable(
      "messages",
      { id: text("id").notNull(), chatId: text("chat_id").notNull() },
      (table) => [uniqueIndex("messages_chat_idx").on(table.chatId, table.id)],
    );
    const keyed = pgTwinsOf(
      { messages },
      { bigintColumn: () => false, primaryKeys: { messages: "id" }, plainIndexes: ["messages_chat_idx"] },
    );
    const config = getTableConfig(keyed.messages);
    expect(config.columns.map((column) => [column.name, column.primary])).toEqual([
      ["id", true],
      ["chat_id", false],
    ]);
    expect(config.indexes.map(({ config: ix }) => [ix.name, ix.unique])).toEqual([["messages_chat_idx", false]]);
    expect(getTableConfig(pgSchema.chatMessages).columns.find((column) => column.name === "id")?.primary).toBe(true);
    expect(getTableConfig(pgSchema.chatMessages).indexes.map(({ config: ix }) => [ix.name, ix.unique])).toEqual([
      ["chat_messages_session_idx", false],
    ]);
  });

  test("a column type with no PostgreSQL twin is refused by name", () => {
    const dated = sqliteTable("dated", { at: integer("at", { mode: "timestamp" }) });
    expect(() => pgTwinsOf({ dated }, { bigintColumn: () => false })).toThrow("dated.at");
  });

  test("the store's integers are bigint where they hold times or large counts, integer elsewhere", () => {
    const types = (table: Parameters<typeof getTableConfig>[0]) =>
      Object.fromEntries(getTableConfig(table).columns.map((column) => [column.name, column.getSQLType()]));
    expect(types(pgSchema.usageCounters)).toMatchObject({
      messages: "integer",
      threshold_notified_at: "bigint",
      ai_calls: "integer",
      ai_prompt_tokens: "bigint",
      ai_completion_tokens: "bigint",
    });
    expect(types(pgSchema.knowledgeSettings)).toMatchObject({ sync_interval_ms: "bigint", updated_at: "bigint" });
    expect(types(pgSchema.knowledgeChunks)).toMatchObject({ id: "bigint", position: "integer", embedding: "bytea" });
    expect(types(pgSchema.handoffs)).toMatchObject({ within_business_hours: "boolean" });
  });
});
