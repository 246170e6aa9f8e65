// @sqlite-only: SQLite's WAL and its checkpoints, on a thread of their own
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/client.ts";
import { startCheckpointThread, walMetrics } from "../../src/db/sqlite/checkpoint-thread.ts";
import {
  MIN_CHECKPOINT_DELAY_MS,
  nextCheckpointDelayMs,
  runPasses,
  type PassResult,
} from "../../src/db/sqlite/checkpoint-schedule.ts";
import { buildTestApp } from "../helpers.ts";
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

/** A value of /metrics' WAL lines (process-wide: compare before and after). */
function walMetric(name: string, text = walMetrics()): number {
  return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? "NaN");
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
  const thread = startCheckpointThread(path, silentLogger, { intervalMs: 20 });
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

test("a cycle whose WAL reached fastFrames brings the next forward, in proportion, never below the floor", () => {
  expect(nextCheckpointDelayMs(0, 500, 20_000)).toBe(500);
  expect(nextCheckpointDelayMs(19_999, 500, 20_000)).toBe(500);
  expect(nextCheckpointDelayMs(20_000, 500, 20_000)).toBe(500);
  expect(nextCheckpointDelayMs(40_000, 500, 20_000)).toBe(250);
  expect(nextCheckpointDelayMs(100_000, 500, 20_000)).toBe(100);
  expect(nextCheckpointDelayMs(10_000_000, 500, 20_000)).toBe(MIN_CHECKPOINT_DELAY_MS);
  // An interval shorter than the floor is kept as it is.
  expect(nextCheckpointDelayMs(1_000, 20, 10)).toBe(20);
});

/** A pass that answers the given results in turn, counting its calls. */
function scriptedPass(results: PassResult[]) {
  let calls = 0;
  return {
    pass: (): PassResult => results[calls++] ?? "busy",
    calls: () => calls,
  };
}

test("a cycle's passes repeat until one sees fewer than catchUpFrames arrive, at most maxPasses", () => {
  const converging = scriptedPass([
    { log: 10_000, checkpointed: 10_000 },
    { log: 11_000, checkpointed: 11_000 },
    { log: 11_100, checkpointed: 11_100 },
    { log: 11_101, checkpointed: 11_101 },
  ]);
  expect(runPasses(converging.pass, 5, 256)).toEqual({ log: 11_100, checkpointed: 11_100 });
  expect(converging.calls()).toBe(3);
  const behind = scriptedPass([
    { log: 10_000, checkpointed: 10_000 },
    { log: 11_000, checkpointed: 11_000 },
    { log: 12_000, checkpointed: 12_000 },
  ]);
  expect(runPasses(behind.pass, 2, 256)).toEqual({ log: 11_000, checkpointed: 11_000 });
  expect(behind.calls()).toBe(2);
});

test("a busy pass (another connection checkpointing, SQLite's -1 frames) is never the cycle's report", () => {
  // The first pass busy: nothing to report, and no second pass.
  const busyFirst = scriptedPass(["busy", { log: 5, checkpointed: 5 }]);
  expect(runPasses(busyFirst.pass, 3, 256)).toBeNull();
  expect(busyFirst.calls()).toBe(1);
  // A later pass busy: the cycle ends on the last pass that ran.
  const busyLater = scriptedPass([
    { log: 10_000, checkpointed: 10_000 },
    "busy",
    { log: 10_001, checkpointed: 10_001 },
  ]);
  expect(runPasses(busyLater.pass, 3, 256)).toEqual({ log: 10_000, checkpointed: 10_000 });
  expect(busyLater.calls()).toBe(2);
});

test("the thread runs its next pass sooner after a WAL past fastFrames, not an interval later", async () => {
  const { path, write } = database();
  write(2_000);
  // A minute between passes, unless the WAL passed fastFrames: the second report comes within
  // the test's bounded wait only through the fast path.
  const thread = startCheckpointThread(path, silentLogger, { intervalMs: 60_000, fastFrames: 1 });
  cleanups.push(() => thread.stop());
  const first = await nextReport(thread, 0);
  expect((first.last as { log: number }).log).toBeGreaterThan(1);
  write(100);
  const second = await nextReport(thread, first.count);
  expect(second.count).toBe(first.count + 1);
});

test("a database the thread cannot open is logged, once, and stop() still ends the thread", async () => {
  const errors: Array<{ msg: string; error?: string }> = [];
  const log = { ...silentLogger, error: (entry: { msg: string; error?: string }) => void errors.push(entry) } as Logger;
  const thread = startCheckpointThread(join(tmpdir(), "parley-no-such-dir", "missing.db"), log, { intervalMs: 20 });
  for (let waited = 0; waited < 5_000 && errors.length === 0; waited += 10) await Bun.sleep(10);
  expect(errors).toHaveLength(1);
  expect(errors[0]?.msg).toBe("WAL checkpoint failed");
  expect(errors[0]?.error).toContain("missing.db");
  expect(walMetric("parley_wal_checkpoint_failures_total")).toBeGreaterThanOrEqual(1);
  await thread.stop();
});

test("GET /metrics reports the WAL: its size at the last checkpoint, checkpoints, failures and the server's own", async () => {
  const { path, write } = database();
  write(500);
  const thread = startCheckpointThread(path, silentLogger, { intervalMs: 20 });
  cleanups.push(() => thread.stop());
  const passesBefore = walMetric("parley_wal_checkpoints_total");
  const { last } = await nextReport(thread, 0);
  const context = buildTestApp();
  const text = await (await context.request("GET", "/metrics")).text();
  expect(walMetric("parley_wal_frames", text)).toBe((last as { log: number }).log);
  expect(walMetric("parley_wal_checkpoints_total", text)).toBeGreaterThan(passesBefore);
  for (const name of [
    "parley_wal_checkpoint_failures_total",
    "parley_wal_server_checkpoints_total",
    "parley_wal_server_checkpoint_seconds_total",
  ]) {
    expect(walMetric(name, text)).toBeGreaterThanOrEqual(0);
  }
});

/** Frames in the WAL now, read with a PASSIVE checkpoint on `sqlite` (it copies them too). */
function walFrames(sqlite: ReturnType<typeof database>["sqlite"]): number {
  const [, log] = (sqlite.query("PRAGMA wal_checkpoint(PASSIVE)").values()[0] ?? []) as number[];
  return Number(log);
}

test("a caught-up checkpoint of a large WAL is finished on the server's connection, one at a time, and the next write starts the WAL over", async () => {
  const { path, sqlite, write } = database();
  write(2_000);
  let calls = 0;
  let release: () => void = () => {};
  const thread = startCheckpointThread(path, silentLogger, {
    intervalMs: 20,
    restartFrames: 50,
    finishOnServer: () => {
      calls++;
      sqlite.exec("PRAGMA wal_checkpoint(PASSIVE)");
      // Held open: no second call while this one runs, whatever the thread reports meanwhile.
      return new Promise<void>((resolve) => (release = resolve));
    },
  });
  cleanups.push(() => thread.stop());
  // stop() waits for a catch-up under way: a failed expectation must not leave it held.
  cleanups.push(() => release());
  const finishedBefore = walMetric("parley_wal_server_checkpoints_total");
  const first = await nextReport(thread, 0);
  const report = first.last as { log: number; checkpointed: number };
  expect(report.log).toBeGreaterThanOrEqual(50);
  expect(report.checkpointed).toBe(report.log);
  expect(calls).toBe(1);
  const later = await nextReport(thread, first.count + 2);
  expect(calls).toBe(1);
  expect(walMetric("parley_wal_server_checkpoints_total")).toBe(finishedBefore);
  release();
  await Bun.sleep(0);
  expect(walMetric("parley_wal_server_checkpoints_total")).toBe(finishedBefore + 1);
  expect(walMetric("parley_wal_server_checkpoint_seconds_total")).toBeGreaterThan(0);
  // Every frame was copied when the write began: it starts the WAL over instead of appending.
  write(1);
  expect(walFrames(sqlite)).toBeLessThan(report.log);
  write(2_000);
  await nextReport(thread, later.count + 1);
  expect(calls).toBe(2);
});

test("a WAL under the restart size is left to grow: the server's connection does no checkpoint of its own", async () => {
  const { path, write } = database();
  write(2_000);
  let calls = 0;
  const thread = startCheckpointThread(path, silentLogger, {
    intervalMs: 20,
    restartFrames: 1_000_000,
    finishOnServer: async () => void calls++,
  });
  cleanups.push(() => thread.stop());
  const first = await nextReport(thread, 0);
  await nextReport(thread, first.count + 1);
  expect(calls).toBe(0);
});
