import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { startCluster, findServerBin, type Cluster } from "./pg/cluster.ts";
import { testPostgresUrl } from "./pg/test-store.ts";

/**
 * `npm test`: the whole suite over SQLite, then the domain and HTTP suites again over
 * PostgreSQL — against PARLEY_TEST_DB when it names a server, else a throwaway
 * cluster started here from Debian's postgresql (test/pg/cluster.ts) and stopped at the end.
 * Without PostgreSQL the second run is skipped with a notice, except in CI (CI=true), where
 * that is a failure. Arguments go to both `bun test` runs (a file filter, say).
 *
 * Bun 1.4.5 ignores bunfig's [test] timeout; --timeout is where it reads one.
 */
const root = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const bun = process.execPath;

function bunTest(files: string[], env: Record<string, string>): number {
  const result = spawnSync(bun, ["test", "--timeout", "60000", ...files, ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return /\.test\.ts$/.test(name) ? [relative(root, path)] : [];
  });
}

/**
 * What the PostgreSQL run leaves out, and why: a test file that tests SQLite itself (file
 * locks, PRAGMAs, WAL, query plans, group commit, backup) says so in a comment —
 * `@sqlite-only: <reason>` — and the end-to-end files start the binary or a browser over a
 * file of their own (test/e2e/postgres-cluster.test.ts is the PostgreSQL end-to-end test).
 * Every other file runs over both stores.
 */
function sqliteOnly(file: string): string | null {
  if (file.startsWith("test/e2e/") && !file.endsWith("postgres-cluster.test.ts"))
    return "starts the binary over a SQLite file";
  const marker = /@sqlite-only: ([^\n]+)/.exec(readFileSync(join(root, file), "utf8"));
  return marker ? (marker[1] ?? "").trim() : null;
}

const sqliteStatus = bunTest([], { PARLEY_TEST_DB: "" });

let url = testPostgresUrl();
let cluster: Cluster | null = null;
if (!url) {
  if (!findServerBin()) {
    const message =
      "PostgreSQL server programs not found (Debian package postgresql): the PostgreSQL run did not happen";
    if (process.env.CI === "true") {
      console.error(`FAIL: ${message}`);
      process.exit(1);
    }
    console.warn(`NOTE: ${message}.`);
    process.exit(sqliteStatus);
  }
  cluster = await startCluster();
  url = cluster.url;
}

let pgStatus = 1;
try {
  const files = testFiles(join(root, "test"));
  const left = files.filter((file) => sqliteOnly(file) === null);
  const out = files.filter((file) => sqliteOnly(file) !== null);
  console.log(
    `\n== PostgreSQL run (${cluster ? "throwaway cluster" : "PARLEY_TEST_DB"}): ${left.length} files; ${out.length} SQLite-only files left out:`,
  );
  for (const file of out) console.log(`   ${file} — ${sqliteOnly(file)}`);
  pgStatus = bunTest(
    left.map((file) => `./${file}`),
    { PARLEY_TEST_DB: url },
  );
} finally {
  cluster?.stop();
}
if (sqliteStatus !== 0) console.error("the SQLite run failed");
if (pgStatus !== 0) console.error("the PostgreSQL run failed");
process.exit(sqliteStatus || pgStatus);
