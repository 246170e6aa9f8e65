/**
 * Helpers for bench/deliveries.ts: deps over a file database in a temp dir, a receiver in a
 * child process (so the scheduler under test keeps the main process's event loop to itself),
 * and table formatting. Run directly (`bun bench/lib.ts receiver DELAY_MS`) it is that child.
 */
import { modelAssistant } from "../src/assistant/turn-assistant.ts";
import { SQL } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { openDatabase, type DatabaseHandle } from "../src/db/client.ts";
import { applyMigrations } from "../src/db/migrate.ts";
import type { Deps } from "../src/deps.ts";
import { systemClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/log.ts";
import { createSignal } from "../src/lib/signal.ts";
import { findServerBin, startCluster, type ClusterOptions } from "../test/pg/cluster.ts";
import { createDeliveryHandoff } from "../src/webhooks/delivery-handoff.ts";

export interface BenchDeps extends Deps {
  readonly handle: DatabaseHandle;
  /** The SQLite connection under the store, for what a benchmark measures directly. */
  readonly sqlite: DatabaseHandle["sqlite"];
  /** Closes the database and deletes its temp directory. */
  dispose(): void;
}

/** Real clock, a fresh WAL database file in its own temp dir, private webhooks allowed. */
export function createBenchDeps(env: Record<string, string> = {}): BenchDeps {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-"));
  const dbPath = join(dir, "bench.db");
  const config = loadConfig({
    PARLEY_DB: dbPath,
    PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true",
    PARLEY_LOG_LEVEL: "error",
    ...env,
  });
  const handle = openDatabase(dbPath, { sync: config.sync });
  applyMigrations(handle.sqlite, systemClock.now());
  return {
    store: handle.store,
    sqlite: handle.sqlite,
    config,
    clock: systemClock,
    log: silentLogger,
    assistant: modelAssistant,
    deliveriesEnqueued: createSignal(),
    // As in the server: deliveries enqueued while a scheduler runs are handed to it at COMMIT.
    deliveryHandoff: createDeliveryHandoff(),
    handle,
    dispose() {
      handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ChildReceiver {
  url: string;
  /** Requests answered so far (asks the child over HTTP). */
  count(): Promise<number>;
  /** Wall-clock time (ms) each webhook id first arrived. */
  arrivals(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** How long a receiver child lives at most, whatever happens to its parent. */
const RECEIVER_MAX_LIFETIME_MS = 5 * 60_000;

/** Starts `bun bench/lib.ts receiver DELAY_MS` and waits for the port it prints. */
export async function startChildReceiver(delayMs: number): Promise<ChildReceiver> {
  const child = Bun.spawn([process.execPath, import.meta.path, "receiver", String(delayMs)], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  let text = "";
  const deadline = Date.now() + 10_000;
  let port: string | undefined;
  while (port === undefined) {
    if (Date.now() > deadline) throw new Error(`receiver did not start: ${text}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`receiver exited: ${text}`);
    text += new TextDecoder().decode(value);
    port = /port (\d+)/.exec(text)?.[1];
  }
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/hook`,
    count: async () => Number(await (await fetch(`${base}/count`)).text()),
    arrivals: async () => (await (await fetch(`${base}/arrivals`)).json()) as Record<string, number>,
    async stop() {
      child.stdin.end();
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

/**
 * The child: answers every POST 200 after `delayMs` (0 = at once), GET /count returns the tally,
 * GET /arrivals the wall-clock arrival time (ms) of each request by its `webhook-id` header.
 */
function runReceiver(delayMs: number): void {
  let count = 0;
  const arrivals: Record<string, number> = {};
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // As the app serves (src/http/serve-options.ts): Bun.serve is in development mode unless NODE_ENV=production.
    development: false,
    idleTimeout: 30,
    async fetch(request) {
      if (request.method === "GET")
        return new URL(request.url).pathname === "/arrivals" ? Response.json(arrivals) : new Response(String(count));
      const webhookId = request.headers.get("webhook-id");
      if (webhookId !== null && !(webhookId in arrivals))
        arrivals[webhookId] = performance.timeOrigin + performance.now();
      count++;
      if (delayMs > 0) await Bun.sleep(delayMs);
      return new Response("ok");
    },
  });
  console.log(`receiver listening on port ${server.port}`);
  const exit = () => {
    void server.stop(true);
    process.exit(0);
  };
  // Exits when the parent closes stdin (or dies), on SIGTERM, and after a hard lifetime cap.
  void (async () => {
    for await (const _ of Bun.stdin.stream()) {
      /* the parent never writes; end of stream is the signal */
    }
    exit();
  })();
  process.once("SIGTERM", exit);
  setTimeout(exit, RECEIVER_MAX_LIFETIME_MS).unref();
}

/** The middle value (the upper of the two middle ones for an even count); NaN for none. */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** A positive whole number from the environment, or `fallback` when unset or not one. */
export const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

export function percentile(sortedValues: readonly number[], p: number): number {
  if (sortedValues.length === 0) return Number.NaN;
  const index = Math.min(sortedValues.length - 1, Math.max(0, Math.ceil((p / 100) * sortedValues.length) - 1));
  return sortedValues[index] ?? Number.NaN;
}

export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export const formatRate = (perSecond: number): string => `${Math.round(perSecond).toLocaleString("en-US")}/s`;
export const formatMs = (ms: number): string => `${ms.toFixed(2)} ms`;

/**
 * The PostgreSQL server of a benchmark's PostgreSQL rows: BENCH_PG_URL if set (its user needs
 * CREATEDB), else a throwaway cluster (test/pg/cluster.ts) on 127.0.0.1 that `stop()` removes;
 * fsync off unless BENCH_PG_FSYNC=on. Each measurement gets a fresh database of its own.
 */
export interface BenchPostgres {
  /** For the table: version, where, fsync / synchronous_commit. */
  readonly description: string;
  /** The throwaway cluster's data directory (null on BENCH_PG_URL). */
  readonly dataDir: string | null;
  /** Creates an empty database on the server; its URL. */
  createDatabase(): Promise<string>;
  dropDatabase(url: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Null (with the reason printed to stderr) when BENCH_PG=off or no PostgreSQL server programs are
 * found. `settings` go to a throwaway cluster's start (a BENCH_PG_URL server keeps its own).
 */
export async function openBenchPostgres(settings: ClusterOptions["settings"] = {}): Promise<BenchPostgres | null> {
  if (process.env.BENCH_PG === "off") {
    console.error("PostgreSQL rows skipped: BENCH_PG=off");
    return null;
  }
  const given = process.env.BENCH_PG_URL;
  if (!given && findServerBin() === null) {
    console.error(
      "PostgreSQL rows skipped: no PostgreSQL server programs found (install Debian's postgresql, or set BENCH_PG_URL)",
    );
    return null;
  }
  const cluster = given
    ? null
    : await startCluster({ durability: process.env.BENCH_PG_FSYNC === "on" ? "durable" : "fast", settings });
  const serverUrl = given ?? (cluster as { url: string }).url;
  const admin = new SQL({ url: serverUrl, max: 1 });
  try {
    const [version] = (await admin`SHOW server_version`) as { server_version: string }[];
    const [fsync] = (await admin`SHOW fsync`) as { fsync: string }[];
    const [syncCommit] = (await admin`SHOW synchronous_commit`) as { synchronous_commit: string }[];
    const where = cluster ? "throwaway cluster on the same machine" : "BENCH_PG_URL";
    const description = `PostgreSQL ${version?.server_version ?? "?"} (${where}, fsync ${fsync?.fsync ?? "?"}, synchronous_commit ${syncCommit?.synchronous_commit ?? "?"})`;
    let made = 0;
    return {
      description,
      dataDir: cluster ? cluster.dataDir : null,
      async createDatabase() {
        const name = `parley_bench_${process.pid}_${Date.now()}_${made++}`;
        await admin.unsafe(`CREATE DATABASE ${name}`);
        const url = new URL(serverUrl);
        url.pathname = `/${name}`;
        return url.toString();
      },
      async dropDatabase(url) {
        const name = new URL(url).pathname.slice(1);
        if (!/^parley_bench_\w+$/.test(name)) throw new Error(`not a bench database: ${name}`);
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
      async stop() {
        await admin.close();
        cluster?.stop();
      },
    };
  } catch (error) {
    await admin.close().catch(() => undefined);
    cluster?.stop();
    throw error;
  }
}

if (import.meta.main && process.argv[2] === "receiver") runReceiver(Number(process.argv[3] ?? 0));

/** Median time (ms) of one call over `runs`, after `warmup` untimed calls; `check` throws if an answer is not what it should be. */
export async function medianCallMs<T>(
  call: () => Promise<T>,
  check: (result: T) => void,
  runs: number,
  warmup = 5,
): Promise<number> {
  for (let i = 0; i < warmup; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = await call();
    samples.push(performance.now() - started);
    check(result);
  }
  return median(samples);
}
