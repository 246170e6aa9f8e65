import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli } from "./cli-helpers.ts";

// @sqlite-only: `parley backup`/`restore` copy a SQLite file (VACUUM INTO, held locks, WAL); against PostgreSQL they refuse (pg_dump), tested in test/cli/postgres.test.ts

const dir = mkdtempSync(join(tmpdir(), "parley-backup-"));
const db = join(dir, "live.db");
const MAIN = join(import.meta.dir, "../../src/main.ts");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A separate process that writes tenants with their chatbot, two rows per transaction, until the stop file appears. */
const WRITER = `
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
const db = new Database(process.argv[2]);
db.exec("PRAGMA busy_timeout = 5000");
const tenant = db.prepare("INSERT INTO tenants (id, name, plan, sector, allowed_origins, created_at, updated_at) VALUES (?, 'w', 'free', 'general', '[]', 0, 0)");
const bot = db.prepare("INSERT INTO chatbots (id, tenant_id, name, config, created_at, updated_at) VALUES (?, ?, 'w', '{}', 0, 0)");
const pair = db.transaction((n) => { tenant.run("ten_w" + n); bot.run("bot_w" + n, "ten_w" + n); });
for (let n = 0; !existsSync(process.argv[3]); n++) {
  pair.immediate(n);
  if (n === 50) console.log("writing");
}
db.close();
`;

function counts(path: string) {
  const handle = new Database(path, { readonly: true });
  try {
    const count = (table: string) =>
      handle.prepare<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? -1;
    return { tenants: count("tenants"), chatbots: count("chatbots"), migrations: count("parley_migrations") };
  } finally {
    // close(true): released now, so this test process never looks like a user of the file to restore.
    handle.close(true);
  }
}

/**
 * `parley migrate` in a child process. Databases that are restored over later are made this
 * way: an in-process command leaves its connection to be released at garbage collection, and
 * restore rightly refuses a database another connection still has open.
 */
async function migrateInChild(path: string): Promise<void> {
  const child = Bun.spawn([process.execPath, MAIN, "migrate", "--db", path], {
    stdout: "ignore",
    stderr: "inherit",
    env: { ...process.env, PARLEY_LOG_LEVEL: "silent" },
  });
  expect(await child.exited).toBe(0);
}

/** Waits until `stream` has printed `text`. */
async function waitFor(stream: ReadableStream<Uint8Array>, text: string): Promise<void> {
  const decoder = new TextDecoder();
  let seen = "";
  for await (const chunk of stream) {
    seen += decoder.decode(chunk);
    if (seen.includes(text)) return;
  }
  throw new Error(`the process ended without printing ${text}: ${seen}`);
}

beforeAll(async () => {
  expect((await cli(["migrate", "--db", db])).code).toBe(0);
  writeFileSync(join(dir, "writer.ts"), WRITER);
});

describe("parley backup and restore", () => {
  test("a backup taken while another process writes is one consistent snapshot; restoring it gives back the same counts", async () => {
    const stopFile = join(dir, "stop-writing");
    const writer = Bun.spawn([process.execPath, join(dir, "writer.ts"), db, stopFile], {
      stdout: "pipe",
      stderr: "inherit",
    });
    await waitFor(writer.stdout, "writing");
    const backup = join(dir, "snapshot.db");
    const taken = await cli(["backup", backup, "--db", db, "--json"]);
    expect(taken.code).toBe(0);
    expect(JSON.parse(taken.out)).toMatchObject({ file: backup, bytes: expect.any(Number) });
    writeFileSync(stopFile, "");
    expect(await writer.exited).toBe(0);

    const snapshot = counts(backup);
    const live = counts(db);
    // The writer was mid-stream when the backup ran (it stops only after it) and went on writing.
    expect(live.tenants).toBeGreaterThanOrEqual(snapshot.tenants);
    // Every tenant in the snapshot came with its chatbot: no transaction was cut in half.
    expect(snapshot.tenants).toBe(snapshot.chatbots);
    expect(snapshot.tenants).toBeGreaterThan(50);
    expect(snapshot.migrations).toBe(live.migrations);

    const restored = join(dir, "restored.db");
    const restore = await cli(["restore", backup, "--db", restored]);
    expect(restore.code).toBe(0);
    expect(counts(restored)).toEqual(snapshot);
    // The restored file is a working database: the CLI reads it.
    const listed = await cli(["tenant", "list", "--json", "--db", restored]);
    expect(JSON.parse(listed.out)).toHaveLength(snapshot.tenants);
  });

  test("backup refuses to overwrite an existing file unless --force, and never creates a missing database", async () => {
    const file = join(dir, "twice.db");
    expect((await cli(["backup", file, "--db", db])).code).toBe(0);
    const again = await cli(["backup", file, "--db", db]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("--force");
    expect((await cli(["backup", file, "--db", db, "--force"])).code).toBe(0);
    const missing = join(dir, "missing.db");
    expect((await cli(["backup", join(dir, "x.db"), "--db", missing])).code).toBe(1);
    expect(existsSync(missing)).toBe(false);
    expect((await cli(["backup", "--db", db])).code).toBe(2);
  });

  test("restore refuses what is not a Parley database, and an existing target without --force", async () => {
    const text = join(dir, "notes.txt");
    writeFileSync(text, "not a database at all, just some text that is long enough to have a header".repeat(20));
    const other = join(dir, "other.sqlite");
    const foreign = new Database(other, { create: true });
    foreign.exec("CREATE TABLE things (id INTEGER)");
    foreign.close();
    const target = join(dir, "target.db");
    for (const file of [text, other, join(dir, "nowhere.db")]) {
      const refused = await cli(["restore", file, "--db", target]);
      expect(refused.code).toBe(1);
      expect(existsSync(target)).toBe(false);
    }
    expect((await cli(["restore", other, "--db", target])).err).toContain("not a Parley database");
    const backup = join(dir, "for-target.db");
    expect((await cli(["backup", backup, "--db", db])).code).toBe(0);
    await migrateInChild(target);
    const exists = await cli(["restore", backup, "--db", target]);
    expect(exists.code).toBe(1);
    expect(exists.err).toContain("--force");
    expect(counts(target).tenants).toBe(0);
    expect((await cli(["restore", backup, "--db", target, "--force"])).code).toBe(0);
    expect(counts(target)).toEqual(counts(backup));
  });

  test("restore refuses while a parley server serves the database, and works once it has stopped", async () => {
    const served = join(dir, "served.db");
    await migrateInChild(served);
    const backup = join(dir, "for-served.db");
    expect((await cli(["backup", backup, "--db", db])).code).toBe(0);
    const server = Bun.spawn([process.execPath, MAIN, "serve", "--port", "0", "--host", "127.0.0.1", "--db", served], {
      stdout: "pipe",
      stderr: "inherit",
      env: { ...process.env, PARLEY_LOG_LEVEL: "error", PARLEY_JWT_SECRET: "x".repeat(40) },
    });
    try {
      await waitFor(server.stdout, "listening");
      const refused = await cli(["restore", backup, "--db", served, "--force"]);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain("server is serving");
      expect(counts(served).tenants).toBe(0);
    } finally {
      server.kill("SIGTERM");
      await server.exited;
    }
    expect((await cli(["restore", backup, "--db", served, "--force"])).code).toBe(0);
    expect(counts(served)).toEqual(counts(backup));
  });
});
