// @sqlite-only: the lookup version read from SQLite's WAL index (the -shm file)
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { openDatabase } from "../../src/db/client.ts";
import { lookupVersionReader, markLookupWrite } from "../../src/db/sqlite/lookup-version.ts";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "parley-lookup-version-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The server's connection to a file database, and a second one (the CLI, another process). */
function twoConnections(path = join(tempDir(), "parley.db")) {
  const server = openDatabase(path).sqlite;
  server.exec("CREATE TABLE things (x INTEGER)");
  const other = new Database(path);
  other.exec("PRAGMA busy_timeout = 5000");
  cleanups.push(() => other.close(), () => server.close());
  return { server, other };
}

describe("the lookup version over a WAL database", () => {
  test("read again with nothing committed, it is answered without running PRAGMA data_version", () => {
    const { server } = twoConnections();
    const reader = lookupVersionReader(server);
    const first = reader.read();
    expect(reader.dataVersionReads).toBe(1);
    for (let i = 0; i < 100; i++) expect(reader.read()).toBe(first);
    expect(reader.dataVersionReads).toBe(1);
  });

  test("another connection's commit is seen by the very next read, every time", () => {
    const { server, other } = twoConnections();
    const reader = lookupVersionReader(server);
    const seen = new Set([reader.read()]);
    for (let i = 0; i < 20; i++) {
      other.run("INSERT INTO things VALUES (?)", [i]);
      const next = reader.read();
      expect(seen.has(next)).toBe(false);
      seen.add(next);
      // Nothing more committed: the same token, without the pragma.
      const reads = reader.dataVersionReads;
      expect(reader.read()).toBe(next);
      expect(reader.dataVersionReads).toBe(reads);
    }
  });

  test("its own commits make it look again but leave the token as it was; its own lookup writes move it", () => {
    const { server } = twoConnections();
    const reader = lookupVersionReader(server);
    const first = reader.read();
    server.run("INSERT INTO things VALUES (1)");
    expect(reader.read()).toBe(first);
    expect(reader.dataVersionReads).toBe(2);
    markLookupWrite(server);
    expect(reader.read()).not.toBe(first);
  });

  test("a commit inside another connection's open transaction counts only once it commits", () => {
    const { server, other } = twoConnections();
    const reader = lookupVersionReader(server);
    const before = reader.read();
    other.exec("BEGIN IMMEDIATE");
    other.run("INSERT INTO things VALUES (1)");
    expect(reader.read()).toBe(before);
    other.exec("COMMIT");
    expect(reader.read()).not.toBe(before);
  });

  test("a database opened by a relative path or through a symbolic link is watched all the same", () => {
    const dir = tempDir();
    const real = join(dir, "real.db");
    openDatabase(real).sqlite.close();
    const link = join(dir, "link.db");
    symlinkSync(real, link);
    for (const path of [relative(process.cwd(), real), link]) {
      const { server, other } = twoConnections(path);
      const reader = lookupVersionReader(server);
      const before = reader.read();
      expect(reader.read()).toBe(before);
      expect(reader.dataVersionReads).toBe(1);
      other.run("INSERT INTO things VALUES (1)");
      expect(reader.read()).not.toBe(before);
      server.exec("DROP TABLE things");
    }
  });
});

describe("without a WAL index to watch", () => {
  test("in memory, every read runs the pragma", () => {
    const sqlite = new Database(":memory:");
    cleanups.push(() => sqlite.close());
    const reader = lookupVersionReader(sqlite);
    reader.read();
    reader.read();
    expect(reader.dataVersionReads).toBe(2);
  });

  test("in rollback-journal mode, every read runs the pragma, and another connection's commit is seen", () => {
    const path = join(tempDir(), "journal.db");
    const server = new Database(path);
    server.exec("PRAGMA journal_mode = DELETE; CREATE TABLE things (x INTEGER)");
    const other = new Database(path);
    cleanups.push(() => other.close(), () => server.close());
    const reader = lookupVersionReader(server);
    const before = reader.read();
    other.run("INSERT INTO things VALUES (1)");
    expect(reader.read()).not.toBe(before);
    expect(reader.dataVersionReads).toBe(2);
  });
});
