// @sqlite-only: SQLite's WAL and its checkpoints, on a thread of their own
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/client.ts";
import { startCheckpointThread } from "../../src/db/sqlite/checkpoint-thread.ts";
import type { Logger } from "../../src/lib/log.ts";
import { silentLogger } from "../../src/lib/log.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function database() {
  const dir = mkdtempSync(join(tmpdir(), "parley-checkpoint-"));
  const path = join(dir, "parley.db");
  const { sqlite } = openDatabase(path);
  sqlite.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => sqlite.close());
  const write = (rows: number) => {
    const insert = sqlite.prepare("INSERT INTO notes (body) VALUES (?)");
    sqlite.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run("x".repeat(500));
    })();
  };
  return { path, sqlite, write };
}

/** Waits (bounded) for the thread's next report. */
async function nextReport(thread: ReturnType<typeof startCheckpointThread>, after: number) {
  for (let waited = 0; waited < 5_000; waited += 10) {
    const { count, last } = thread.reports();
    if (count > after && last !== null) return { count, last };
    await Bun.sleep(10);
  }
  throw new Error("no checkpoint report within 5 s");
}

test("the thread copies the server connection's WAL into the file while that connection keeps writing", async () => {
  const { path, sqlite, write } = database();
  const sizeBefore = statSync(path).size;
  write(2_000);
  const thread = startCheckpointThread(path, silentLogger, 20);
  cleanups.push(() => thread.stop());
  const first = await nextReport(thread, 0);
  const report = first.last as { log: number; checkpointed: number };
  // Every frame in the WAL was copied: nothing held it back.
  expect(report.log).toBeGreaterThan(0);
  expect(report.checkpointed).toBe(report.log);
  // The copy is in the database file itself, not only in the WAL.
  expect(statSync(path).size).toBeGreaterThan(sizeBefore + 500_000);
  // The server's connection writes on meanwhile, and the next checkpoint takes those pages too.
  write(100);
  const later = await nextReport(thread, first.count);
  expect(typeof (later.last as { checkpointed: number }).checkpointed).toBe("number");
  expect((sqlite.query("SELECT count(*) AS n FROM notes").get() as { n: number }).n).toBe(2_100);
});

test("a database the thread cannot open is logged, once, and stop() still ends the thread", async () => {
  const errors: Array<{ msg: string; error?: string }> = [];
  const log = { ...silentLogger, error: (entry: { msg: string; error?: string }) => void errors.push(entry) } as Logger;
  const thread = startCheckpointThread(join(tmpdir(), "parley-no-such-dir", "missing.db"), log, 20);
  for (let waited = 0; waited < 5_000 && errors.length === 0; waited += 10) await Bun.sleep(10);
  expect(errors).toHaveLength(1);
  expect(errors[0]?.msg).toBe("WAL checkpoint failed");
  expect(errors[0]?.error).toContain("missing.db");
  await thread.stop();
});
