/**
 * How a store operation's SQL is written once for both stores, measured on the SQLite hot path.
 * Not a test: it measures and prints a table.
 *
 *   npx bun bench/statements.ts
 *
 * Env: BENCH_STATEMENT_CALLS (200000) calls per measure, BENCH_STATEMENT_ROUNDS (5) rounds,
 * each starting with the next measure, the median round reported.
 *
 * One file database with 1,000 users; each measure reads a user by id, the shape of the
 * per-request lookups (tenant, API key, session). Baseline: the raw bun:sqlite prepared
 * statement, as the store used before statements were shared. Candidates: the shared statement
 * table (src/db/statements.ts: the same prepared statement behind the operation's bind and read
 * functions), drizzle's query builder prepared once with a placeholder, drizzle's query builder
 * per call, and drizzle's dialect-aware `sql` template per call.
 */
import { eq, sql } from "drizzle-orm";
import { users } from "../src/db/schema.ts";
import { USER_OPS } from "../src/db/sql/accounts.ts";
import { selectColumns } from "../src/db/sqlite/columns.ts";
import { sqliteOps } from "../src/db/sqlite/statements.ts";
import { createBenchDeps, envInt, markdownTable, median } from "./lib.ts";

const CALLS = envInt("BENCH_STATEMENT_CALLS", 200_000);
const ROUNDS = envInt("BENCH_STATEMENT_ROUNDS", 5);
const USERS = 1_000;

const deps = createBenchDeps();
const { sqlite, db } = deps.handle;
const insert = sqlite.prepare(
  "INSERT INTO users (id, email, password_hash, display_name, created_at) VALUES (?, ?, ?, ?, ?)",
);
sqlite.transaction(() => {
  for (let i = 0; i < USERS; i++) insert.run(`usr_${String(i).padStart(6, "0")}`, `u${i}@example.com`, "hash", null, i);
})();
const ids = Array.from({ length: USERS }, (_, i) => `usr_${String(i).padStart(6, "0")}`);

const raw = sqlite.prepare(`SELECT ${selectColumns(users)} FROM users WHERE id = ?`);
const shared = sqliteOps(sqlite, USER_OPS);
const builderPrepared = db
  .select()
  .from(users)
  .where(eq(users.id, sql.placeholder("id")))
  .prepare();

const measures: Array<[string, (id: string) => unknown]> = [
  ["raw prepared statement (baseline)", (id) => raw.get(id)],
  ["shared statement table", (id) => shared.findUser(id)],
  ["drizzle query builder, prepared once", (id) => builderPrepared.get({ id })],
  ["drizzle query builder, per call", (id) => db.select().from(users).where(eq(users.id, id)).get()],
  [
    "drizzle sql template, per call",
    (id) => db.get(sql`SELECT ${users.id}, ${users.email} FROM ${users} WHERE ${users.id} = ${id}`),
  ],
];

const perCallNs = new Map<string, number[]>(measures.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  // Each round starts with the next measure, so none always runs first (or last) in a round.
  const order = measures.map((_, index) => measures[(index + round) % measures.length]!);
  for (const [name, call] of order) {
    for (let i = 0; i < 2_000; i++) call(ids[i % USERS]!); // warm-up
    const started = Bun.nanoseconds();
    for (let i = 0; i < CALLS; i++) call(ids[i % USERS]!);
    perCallNs.get(name)!.push((Bun.nanoseconds() - started) / CALLS);
  }
  process.stderr.write(`round ${round + 1} of ${ROUNDS}\n`);
}

const baseline = median(perCallNs.get(measures[0]![0])!);
console.log(
  markdownTable(
    ["read one user by id (SQLite file, 1,000 rows)", "per call (median of rounds)", "÷ raw prepared statement"],
    measures.map(([name]) => {
      const ns = median(perCallNs.get(name)!);
      return [name, `${(ns / 1000).toFixed(2)} µs`, `${(ns / baseline).toFixed(2)}×`];
    }),
  ),
);
deps.dispose();
