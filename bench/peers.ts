/**
 * Parley's delivery queue against PostgreSQL job queues. Not a test: it measures and prints a table.
 *
 *   npx bun bench/peers.ts
 *
 * The same drain — BENCH_PEER_JOBS (20,000) signed POSTs (Parley's signing, Standard Webhooks
 * headers) queued before the clock starts, into one instant receiver on 127.0.0.1 — by Parley on
 * PostgreSQL with one scheduler process and with two, by graphile-worker (its local queue and
 * batched completions) and pg-boss (batched fetch), each peer over a keep-alive `node:http`
 * agent, and by Parley on SQLite. Every drain is a child process on a fresh database that was
 * never analysed, with a receiver child of its own (one lives 5 minutes at most); the sides take turns BENCH_PEER_ROUNDS (4) times, rotating who goes first,
 * and the table gives medians and ratios. On PostgreSQL each drain also reports statement time,
 * statements and WAL per job (pg_stat_statements, the bench's own polling left out) and the CPU
 * the server's processes used per job and the CPU of the side's own worker processes per job (/proc); WAL bytes do not move with the machine's load. The cluster is a throwaway one on 127.0.0.1 with
 * pg_stat_statements preloaded, fsync on unless BENCH_PG_FSYNC=off. BENCH_PEER_TOP=1 prints
 * each PostgreSQL drain's costliest statements (time, planning time and WAL per job) to stderr; BENCH_PEER_SIDES
 * picks sides; BENCH_PEER_CPU_PROF=<dir> has each Parley drainer write a CPU profile there;
 * BENCH_PEER_DROP_INDEXES=a,b drops those indexes of Parley's PostgreSQL tables after the fill.
 */
import { SQL } from "bun";
import { readdirSync, readFileSync } from "node:fs";
import { makeWorkerUtils, runMigrations } from "graphile-worker";
import PgBoss from "pg-boss";
import { loadConfig } from "../src/config.ts";
import { openStore } from "../src/db/open-store.ts";
import type { Deps } from "../src/deps.ts";
import { systemClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/log.ts";
import { createSignal } from "../src/lib/signal.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { enqueueEvent } from "../src/webhooks/emit-event.ts";
import { createRule } from "../src/webhooks/rules.ts";
import { modelAssistant } from "../src/assistant/turn-assistant.ts";
import {
  envInt,
  formatRate,
  markdownTable,
  median,
  openBenchPostgres,
  startChildReceiver,
  type BenchPostgres,
} from "./lib.ts";
import { DATA, EVENT, PEER_CONCURRENCY, PG_BOSS_QUEUE, SECRET } from "./peers-workers.ts";

const JOBS = envInt("BENCH_PEER_JOBS", 20_000);
const ROUNDS = envInt("BENCH_PEER_ROUNDS", 4);
/** The budget: Parley on PostgreSQL, one process, against each PostgreSQL peer. */
const BUDGET_RATIO = 1.5;
const DRAIN_DEADLINE_MS = 120_000;
/** BENCH_PEER_CPU_PROF=<dir>: each Parley drainer writes a CPU profile (markdown) there on exit. */
const profileFlags = process.env.BENCH_PEER_CPU_PROF
  ? ["--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_PEER_CPU_PROF}`, "--cpu-prof-interval=250"]
  : [];
const BATCH = 1_000;
/** How often the bench counts what is left: each count is a read of the queue on the server under test. */
const POLL_MS = 25;
if (!process.env.BENCH_PG_FSYNC) process.env.BENCH_PG_FSYNC = "on";

type Side = "parley-pg-1" | "parley-pg-2" | "graphile-worker" | "pg-boss" | "parley-sqlite";
const ALL_SIDES: readonly Side[] = ["parley-pg-1", "graphile-worker", "pg-boss", "parley-pg-2", "parley-sqlite"];
/** BENCH_PEER_SIDES (comma-separated) runs some of them, e.g. `parley-pg-1` to compare two trees. */
const SIDES = ALL_SIDES.filter(
  (side) => !process.env.BENCH_PEER_SIDES || process.env.BENCH_PEER_SIDES.split(",").includes(side),
);

interface Drain {
  perSecond: number;
  /** pg_stat_statements: execution time of every statement of the drain, per job (µs). */
  statementUs: number | null;
  /** Statements executed per job. */
  callsPerJob: number | null;
  /** WAL the statements wrote per job (bytes): what a job writes, whatever the machine's load. */
  walBytes: number | null;
  /** CPU time of the PostgreSQL server's processes per job (µs). */
  serverCpuUs: number | null;
  /** CPU time of the side's own worker processes per job (µs): HTTP client, signing, bookkeeping. */
  workerCpuUs: number | null;
}

interface Child {
  proc: ReturnType<typeof Bun.spawn<"pipe", "pipe", "inherit">>;
  /** Resolves with the first stdout line that starts with `prefix`. */
  line(prefix: string): Promise<string>;
  send(line: string): void;
  stop(): Promise<void>;
}

function spawnChild(args: string[]): Child {
  const proc = Bun.spawn([process.execPath, ...args], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let text = "";
  return {
    proc,
    async line(prefix) {
      const deadline = Date.now() + DRAIN_DEADLINE_MS;
      for (;;) {
        const found = text.split("\n").find((line) => line.startsWith(prefix));
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`child ${args.join(" ")}: no "${prefix}" line (${text})`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`child ${args.join(" ")} exited: ${text}`);
        text += new TextDecoder().decode(value);
      }
    },
    send(line) {
      proc.stdin.write(`${line}\n`);
      proc.stdin.flush();
    },
    async stop() {
      try {
        proc.stdin.write("stop\n");
        proc.stdin.end();
      } catch {
        // already gone
      }
      const killer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
      await proc.exited;
      clearTimeout(killer);
    },
  };
}

const parleyConfig = (url: string) =>
  loadConfig({
    PARLEY_DB: url,
    PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true",
    PARLEY_LOG_LEVEL: "error",
    PARLEY_DELIVERY_CONCURRENCY: String(PEER_CONCURRENCY),
    PARLEY_TENANT_CONCURRENCY: String(PEER_CONCURRENCY),
    PARLEY_ENDPOINT_CONCURRENCY: String(PEER_CONCURRENCY),
  });

/**
 * Fills a fresh database for `side` and returns how to ask whether anything is left to do (the
 * bench's own polling: is there one job left, not how many — counting them every 25 ms cost the
 * server under test 65–80 µs a job).
 */
async function fill(side: Side, url: string, receiverUrl: string): Promise<string> {
  if (side === "graphile-worker") {
    await runMigrations({ connectionString: url, logger: undefined });
    const utils = await makeWorkerUtils({ connectionString: url });
    for (let done = 0; done < JOBS; done += BATCH) {
      await utils.addJobs(
        Array.from({ length: Math.min(BATCH, JOBS - done) }, () => ({
          identifier: "deliver",
          payload: { data: DATA },
        })),
      );
    }
    await utils.release();
    return "SELECT count(*)::int AS n FROM (SELECT 1 FROM graphile_worker._private_jobs LIMIT 1) AS left_ /* bench-poll */";
  }
  if (side === "pg-boss") {
    const boss = new PgBoss({ connectionString: url, max: 4, supervise: false, schedule: false });
    boss.on("error", () => undefined);
    await boss.start();
    await boss.createQueue(PG_BOSS_QUEUE);
    for (let done = 0; done < JOBS; done += BATCH) {
      await boss.insert(
        Array.from({ length: Math.min(BATCH, JOBS - done) }, () => ({ name: PG_BOSS_QUEUE, data: { data: DATA } })),
      );
    }
    await boss.stop({ graceful: false, wait: true });
    return `SELECT count(*)::int AS n FROM (SELECT 1 FROM pgboss.job WHERE state < 'completed' LIMIT 1) AS left_ /* bench-poll */`;
  }
  const opened = openStore(url);
  try {
    await opened.migrate(systemClock.now());
    const deps: Deps = {
      store: opened.store,
      config: parleyConfig(url),
      clock: systemClock,
      log: silentLogger,
      assistant: modelAssistant,
      deliveriesEnqueued: createSignal(),
    };
    const tenant = await createTenant(deps, { name: "Bench" });
    await createRule(deps, tenant.id, { name: "bench", event: EVENT, url: receiverUrl, secret: SECRET, active: true });
    for (let done = 0; done < JOBS; done += BATCH) {
      await deps.store.transaction(async (tx) => {
        for (let i = 0; i < Math.min(BATCH, JOBS - done); i++)
          await enqueueEvent(deps, tx, { tenantId: tenant.id, event: EVENT, data: DATA, confidence: 0.92 });
      });
    }
    // What the delivery log's indexes cost: drop some after the fill (docs/scale-out.md, PostgreSQL's floor).
    const dropped = process.env.BENCH_PEER_DROP_INDEXES;
    if (dropped && url.startsWith("postgres")) {
      const sql = new SQL(url);
      for (const index of dropped.split(",")) await sql.unsafe(`DROP INDEX IF EXISTS "${index.replaceAll('"', "")}"`);
      await sql.close();
    }
  } finally {
    await opened.close();
  }
  return "SELECT count(*)::int AS n FROM (SELECT 1 FROM deliveries WHERE status = 'pending' LIMIT 1) AS left_ /* bench-poll */";
}

/** CPU (user + system, µs) of the processes `pick` accepts (by pid and parent pid), from /proc. */
function cpuMicros(pick: (pid: number, parent: number) => boolean): number | null {
  try {
    let ticks = 0;
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (pick(Number(name), Number(fields[1]))) ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // gone meanwhile
      }
    }
    return ticks * 10_000;
  } catch {
    return null;
  }
}

/** The PostgreSQL server: the postmaster and every process it started. */
const serverCpuMicros = (postmasterPid: number) =>
  cpuMicros((pid, parent) => pid === postmasterPid || parent === postmasterPid);
/** The side's worker children. */
const workerCpuMicros = (children: readonly Child[]) => {
  const pids = new Set(children.map((child) => child.proc.pid));
  return cpuMicros((pid) => pids.has(pid));
};

async function drainPostgres(pg: BenchPostgres, side: Side): Promise<Drain> {
  const url = await pg.createDatabase();
  const receiver = await startChildReceiver(0);
  const admin = new SQL({ url, max: 1 });
  const children: Child[] = [];
  try {
    await admin.unsafe("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    const remainingSql = await fill(side, url, receiver.url);
    const [checkpointer] = (await admin.unsafe(
      "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'",
    )) as Array<{ pid: number }>;
    const postmaster = Number(
      /PPid:\s+(\d+)/.exec(readFileSync(`/proc/${checkpointer?.pid}/status`, "utf8"))?.[1] ?? 0,
    );
    const processes = side === "parley-pg-2" ? 2 : 1;
    for (let i = 0; i < processes; i++) {
      const child = side.startsWith("parley")
        ? spawnChild([
            ...profileFlags,
            `${import.meta.dir}/deliveries.ts`,
            "--pg-drainer",
            url,
            String(PEER_CONCURRENCY),
          ])
        : spawnChild([`${import.meta.dir}/peers-workers.ts`, side, url, receiver.url]);
      children.push(child);
      await child.line("ready");
    }
    const remaining = async () => Number(((await admin.unsafe(remainingSql)) as Array<{ n: number }>)[0]?.n ?? 0);
    await admin.unsafe("SELECT pg_stat_statements_reset()");
    const cpuBefore = serverCpuMicros(postmaster);
    const workerBefore = workerCpuMicros(children);
    const started = performance.now();
    for (const child of children) child.send("go");
    while ((await remaining()) > 0) {
      if (performance.now() - started > DRAIN_DEADLINE_MS)
        throw new Error(`${side}: not drained in ${DRAIN_DEADLINE_MS} ms`);
      await Bun.sleep(POLL_MS);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = serverCpuMicros(postmaster);
    const workerAfter = workerCpuMicros(children);
    const [stats] = (await admin.unsafe(
      `SELECT coalesce(sum(total_exec_time), 0)::float8 AS ms, coalesce(sum(calls), 0)::float8 AS calls, coalesce(sum(wal_bytes), 0)::float8 AS wal FROM pg_stat_statements
       WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%bench-poll%' AND query NOT LIKE '%pg_stat_statements%'`,
    )) as Array<{ ms: number; calls: number; wal: number }>;
    if (process.env.BENCH_PEER_TOP) {
      const top = (await admin.unsafe(
        `SELECT round((total_exec_time * 1000 / ${JOBS})::numeric, 1)::float8 AS us_per_job, round((total_plan_time * 1000 / ${JOBS})::numeric, 1)::float8 AS plan_us, calls, round(wal_bytes / ${JOBS}, 0)::int AS wal_per_job, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query FROM pg_stat_statements
         WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC LIMIT 8`,
      )) as Array<{ us_per_job: number; plan_us: number; calls: number; wal_per_job: number; query: string }>;
      for (const row of top)
        console.error(
          `  ${side}: ${row.us_per_job} µs/job (+${row.plan_us} planning), ${row.wal_per_job} B WAL/job, ${row.calls} calls — ${row.query}`,
        );
      const updates = await admin.unsafe(
        "SELECT relname, n_tup_upd::int AS updated, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables WHERE n_tup_upd > 0 ORDER BY n_tup_upd DESC LIMIT 3",
      );
      console.error(
        `  ${side}: row updates (HOT): ${(updates as Array<{ relname: string; updated: number; hot: number }>).map((row) => `${row.relname} ${row.updated} (${row.hot})`).join(", ")}`,
      );
    }
    return {
      perSecond: JOBS / seconds,
      statementUs: stats ? (stats.ms * 1000) / JOBS : null,
      callsPerJob: stats ? stats.calls / JOBS : null,
      walBytes: stats ? stats.wal / JOBS : null,
      serverCpuUs: cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / JOBS : null,
      workerCpuUs: workerBefore !== null && workerAfter !== null ? (workerAfter - workerBefore) / JOBS : null,
    };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await receiver.stop();
    await admin.close();
    await pg.dropDatabase(url);
  }
}

async function drainSqlite(): Promise<Drain> {
  const receiver = await startChildReceiver(0);
  const child = spawnChild([
    `${import.meta.dir}/peers-workers.ts`,
    "sqlite",
    receiver.url,
    String(JOBS),
    String(PEER_CONCURRENCY),
  ]);
  try {
    await child.line("ready");
    child.send("go");
    const seconds = Number((await child.line("done")).split(" ")[1]);
    return {
      perSecond: JOBS / seconds,
      statementUs: null,
      callsPerJob: null,
      walBytes: null,
      serverCpuUs: null,
      workerCpuUs: null,
    };
  } finally {
    await child.stop();
    await receiver.stop();
  }
}

async function main(): Promise<void> {
  const pg = await openBenchPostgres({
    shared_preload_libraries: "pg_stat_statements",
    "pg_stat_statements.track": "all",
    // Planning is timed only for BENCH_PEER_TOP's list: the headline figures stay as they were measured.
    ...(process.env.BENCH_PEER_TOP ? { "pg_stat_statements.track_planning": "on" } : {}),
  });
  if (!pg) return;
  const runs = new Map<Side, Drain[]>(SIDES.map((side) => [side, []]));
  try {
    console.error(
      `bench: ${JOBS} jobs, ${ROUNDS} rounds, ${PEER_CONCURRENCY} in flight per process, ${pg.description}, Bun ${Bun.version}`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < SIDES.length; i++) {
        const side = SIDES[(i + round) % SIDES.length] as Side;
        const drain = side === "parley-sqlite" ? await drainSqlite() : await drainPostgres(pg, side);
        runs.get(side)?.push(drain);
        console.error(
          `round ${round + 1}: ${side} ${formatRate(drain.perSecond)}${drain.statementUs === null ? "" : `, per job: ${drain.statementUs.toFixed(0)} µs statements, ${drain.walBytes?.toFixed(0)} B WAL, ${drain.serverCpuUs?.toFixed(0)} µs server CPU, ${drain.workerCpuUs?.toFixed(0)} µs worker CPU`}`,
        );
      }
    }
  } finally {
    await pg.stop();
  }
  const med = (side: Side, pick: (drain: Drain) => number | null) => {
    const values = (runs.get(side) ?? []).map(pick).filter((value): value is number => value !== null);
    return values.length > 0 ? median(values) : null;
  };
  /** The median over rounds of this side's rate ÷ the other's in the same round. */
  const ratio = (side: Side, other: Side) =>
    median(
      (runs.get(side) ?? []).map(
        (drain, round) => drain.perSecond / (runs.get(other)?.[round]?.perSecond ?? Number.NaN),
      ),
    );
  const us = (value: number | null) => (value === null ? "—" : `${value.toFixed(0)} µs`);
  const label: Record<Side, string> = {
    "parley-pg-1": "Parley, PostgreSQL, one scheduler process",
    "parley-pg-2": "Parley, PostgreSQL, two scheduler processes",
    "graphile-worker": `graphile-worker (local queue, batched completions)`,
    "pg-boss": "pg-boss (batched fetch)",
    "parley-sqlite": "Parley, SQLite",
  };
  const budgeted = (side: Side) => (side === "graphile-worker" || side === "pg-boss") && SIDES.includes("parley-pg-1");
  const rows = SIDES.map((side) => [
    label[side],
    formatRate(med(side, (drain) => drain.perSecond) ?? 0),
    side === "parley-pg-1" || !SIDES.includes("parley-pg-1") ? "—" : `${ratio("parley-pg-1", side).toFixed(2)}×`,
    us(med(side, (drain) => drain.statementUs)),
    med(side, (drain) => drain.callsPerJob)?.toFixed(2) ?? "—",
    `${med(side, (drain) => drain.walBytes)?.toFixed(0) ?? "—"} B`,
    us(med(side, (drain) => drain.serverCpuUs)),
    us(med(side, (drain) => drain.workerCpuUs)),
    budgeted(side) ? `≥ ${BUDGET_RATIO}×` : "—",
    budgeted(side) ? (ratio("parley-pg-1", side) >= BUDGET_RATIO ? "✅ met" : "❌ missed") : "info",
  ]);
  console.log(
    `${JOBS.toLocaleString("en-US")} signed POSTs to an instant receiver, median of ${ROUNDS} rounds, ${PEER_CONCURRENCY} in flight per process — ${pg.description}\n`,
  );
  console.log(
    markdownTable(
      [
        "side",
        "jobs/s",
        "Parley PG (one process) ÷ this",
        "statement time / job",
        "statements / job",
        "WAL / job",
        "PostgreSQL CPU / job",
        "worker process CPU / job",
        "budget",
        "verdict",
      ],
      rows,
    ),
  );
}

await main();
process.exit(0);
