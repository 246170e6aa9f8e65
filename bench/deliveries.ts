/**
 * Webhook delivery benchmark (DESIGN §8). Not a test: it measures and prints a table.
 *
 *   npx bun bench/deliveries.ts
 *
 * Env: BENCH_DELIVERIES (20000) for (a), BENCH_SLOW_DELIVERIES (20000) for (b),
 * BENCH_LATENCY_EVENTS (500) for (c), PARLEY_DELIVERY_CONCURRENCY (512).
 *
 * (a) and (b) drain a pre-filled outbox through the real DeliveryScheduler into a receiver
 * running in a child process; the baseline is raw signed fetch from this process to the same
 * receiver with the same signing work, without a database. (a)'s budget (DESIGN §8) compares
 * each side at its best concurrency: the scheduler's best of SCHEDULER_SWEEP and raw fetch's
 * best of RAW_SWEEP, then the two at those concurrencies in alternating rounds
 * (measurePaired), whose median ratio is the verdict. (c) measures event committed →
 * request arrived at an in-process receiver, one event at a time.
 *
 * PostgreSQL rows, after (a): the same instant-receiver drain with the scheduler in
 * ONE child process on PostgreSQL, and in TWO child processes (each its own pool and
 * DeliveryScheduler) draining the same queue; duplicates counted. Skipped with a note when
 * BENCH_PG=off or no PostgreSQL server programs are found; BENCH_PG_URL picks a server (its
 * user needs CREATEDB), else a throwaway cluster (fsync off unless BENCH_PG_FSYNC=on).
 */
import { modelAssistant } from "../src/assistant/turn-assistant.ts";
import { SQL } from "bun";
import { readFileSync } from "node:fs";
import { loadConfig } from "../src/config.ts";
import { openStore } from "../src/db/open-store.ts";
import type { Deps } from "../src/deps.ts";
import { systemClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/log.ts";
import { createSignal } from "../src/lib/signal.ts";
import { toIso } from "../src/lib/clock.ts";
import { newId } from "../src/lib/ids.ts";
import { DeliveryScheduler } from "../src/scheduler/scheduler.ts";
import { startSendThread } from "../src/scheduler/send-thread.ts";
import { startCheckpointThread } from "../src/db/sqlite/checkpoint-thread.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { enqueueEvent } from "../src/webhooks/emit-event.ts";
import { EVENT_CATALOG } from "../src/webhooks/events.ts";
import { createRule } from "../src/webhooks/rules.ts";
import { sendWebhook, type AttemptResult } from "../src/webhooks/send-webhook.ts";
import { deliveryHeaders, serializeDeliveryJson } from "../src/webhooks/sign.ts";
import {
  createBenchDeps,
  envInt,
  formatMs,
  formatRate,
  markdownTable,
  median,
  openBenchPostgres,
  percentile,
  startChildReceiver,
  type BenchDeps,
  type BenchPostgres,
} from "./lib.ts";

const DELIVERIES = envInt("BENCH_DELIVERIES", 20_000);
const SLOW_DELIVERIES = envInt("BENCH_SLOW_DELIVERIES", 20_000);
const LATENCY_EVENTS = envInt("BENCH_LATENCY_EVENTS", 500);
const CONCURRENCY = envInt("PARLEY_DELIVERY_CONCURRENCY", 512);
const SLOW_RECEIVER_MS = 50;
/** Raw signed fetch at each of these, best of two runs each: its best is (a)'s baseline. */
const RAW_SWEEP = [16, 32, 64, 128, 256, 512] as const;
/** The scheduler drained at each of these (PARLEY_DELIVERY_CONCURRENCY), best of two each: its best is (a)'s side. */
const SCHEDULER_SWEEP = [64, 128, 256, 512] as const;
// DESIGN §8's budgets for this bench, each against a baseline of the same run.
/** (a) deliveries/s ÷ raw signed fetch, each at its best concurrency. */
const BUDGET_BEST_RATIO = 0.6;
/** (b) deliveries/s ÷ raw signed fetch at the same concurrency, receiver answering in 50 ms. */
const BUDGET_SLOW_RATIO = 0.9;
/** (c) event committed → first POST, p99, idle server. */
const BUDGET_LATENCY_P99_MS = 20;
/** Alternating rounds of (a)'s verdict, each side at its best concurrency (measurePaired). */
const PAIRED_ROUNDS = 5;
const SEND_COST_CONCURRENCY = 256;
const SEND_COST_ROUNDS = 3;
const ENQUEUE_BATCH = 1_000;
/** No single phase may run longer than this: the bench reports a timeout instead of hanging. */
const PHASE_DEADLINE_MS = 60_000;
const SECRET = "bench-secret-0123456789abcdef";
const EVENT = "lead.created";
const DATA = EVENT_CATALOG[EVENT].example;
const DATA_JSON = JSON.stringify(DATA);

/**
 * One tenant, one receiver URL: this bench measures the engine's throughput, so the fairness
 * caps (per tenant 64, per URL 16 by default) are lifted to the pool size; bench/fairness.ts
 * measures the caps themselves.
 */
const poolEnv = (concurrency: number) => ({
  PARLEY_DELIVERY_CONCURRENCY: String(concurrency),
  PARLEY_TENANT_CONCURRENCY: String(concurrency),
  PARLEY_ENDPOINT_CONCURRENCY: String(concurrency),
});
const benchEnv = poolEnv(CONCURRENCY);

async function seedTenantWithRule(deps: Deps, url: string): Promise<string> {
  const tenant = await createTenant(deps, { name: "Bench" });
  await createRule(deps, tenant.id, { name: "bench", event: EVENT, url, secret: SECRET, active: true });
  return tenant.id;
}

async function enqueue(deps: Deps, tenantId: string, count: number): Promise<void> {
  for (let done = 0; done < count; done += ENQUEUE_BATCH) {
    const batch = Math.min(ENQUEUE_BATCH, count - done);
    await deps.store.transaction(async (tx) => {
      for (let i = 0; i < batch; i++)
        await enqueueEvent(deps, tx, { tenantId, event: EVENT, data: DATA, confidence: 0.92 });
    });
  }
}

interface DrainResult {
  seconds: number;
  succeeded: number;
  timedOut: boolean;
}

/** Starts the scheduler over a filled outbox and times until no delivery is pending. */
async function drainWithScheduler(
  deps: BenchDeps,
  scheduler: DeliveryScheduler,
  expected: number,
): Promise<DrainResult> {
  const countPending = deps.sqlite.prepare<{ n: number }, []>(
    "SELECT count(*) AS n FROM deliveries WHERE status = 'pending'",
  );
  const countSucceeded = deps.sqlite.prepare<{ n: number }, []>(
    "SELECT count(*) AS n FROM deliveries WHERE status = 'succeeded'",
  );
  // The outbox was filled before the clock starts, with no checkpoint thread running: its WAL
  // (tens of MB for 20,000 deliveries) is checkpointed here, untimed, as the server's checkpoint
  // thread would have done while they were enqueued. Left in place, the drain's first commits
  // crossed wal_autocheckpoint and checkpointed it on the main thread: one 75–90 ms stall
  // inside every timed drain, with the sends in flight running down meanwhile.
  deps.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const started = performance.now();
  scheduler.start();
  let timedOut = false;
  while ((countPending.get()?.n ?? 0) > 0) {
    if (performance.now() - started > PHASE_DEADLINE_MS) {
      timedOut = true;
      break;
    }
    await Bun.sleep(10);
  }
  const seconds = (performance.now() - started) / 1000;
  await scheduler.stop();
  const succeeded = countSucceeded.get()?.n ?? 0;
  if (succeeded !== expected) console.error(`warning: ${succeeded} of ${expected} deliveries succeeded`);
  return { seconds, succeeded, timedOut };
}

/** A new delivery's body and headers, signed as the scheduler signs them: the raw baselines' per-request work. */
function signedDelivery(): { body: string; headers: Record<string, string> } {
  const now = Date.now();
  const webhookId = newId("wh", now);
  const { body, signature } = serializeDeliveryJson(
    { event: EVENT, webhookId, timestamp: toIso(now), dataJson: DATA_JSON },
    SECRET,
  );
  return {
    body,
    headers: deliveryHeaders({ event: EVENT, webhookId, attempt: 1, sendTimeMs: now, body, signature, secret: SECRET }),
  };
}

/** The baseline: the scheduler's signing work and a POST, `concurrency` at a time, no database. */
async function rawSignedFetch(url: string, count: number, concurrency: number): Promise<number> {
  let next = 0;
  let failures = 0;
  const lane = async () => {
    while (next < count) {
      next++;
      const { body, headers } = signedDelivery();
      const response = await fetch(url, { method: "POST", headers, body, redirect: "manual" });
      await response.text();
      if (!response.ok) failures++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = (performance.now() - started) / 1000;
  if (failures > 0) console.error(`warning: ${failures} raw requests failed`);
  return count / seconds;
}

/**
 * Fills a fresh database with `count` deliveries and drains it with the real scheduler. The
 * server sends on the main thread while it has no HTTP request to serve, and on the send thread
 * while it has (src/scheduler/send-thread.ts): this bench serves no HTTP, so its drains send as
 * an idle server does, unless `everySendOnThread` asks for the path taken under HTTP load.
 */
async function drainOnce(receiverUrl: string, count: number, concurrency: number, everySendOnThread = false) {
  const deps = createBenchDeps(poolEnv(concurrency));
  try {
    const tenantId = await seedTenantWithRule(deps, receiverUrl);
    const enqueueStarted = performance.now();
    await enqueue(deps, tenantId, count);
    const enqueuePerSecond = count / ((performance.now() - enqueueStarted) / 1000);
    // As the server runs it (src/cli/serve.ts): the send thread (used while HTTP requests
    // wait, see above), WAL checkpoints on a thread of their own, finished on the scheduler's
    // connection once caught up.
    const sendThread = startSendThread(silentLogger, { mainThreadBusy: () => everySendOnThread });
    const checkpointThread = startCheckpointThread(deps.config.dbPath, silentLogger, {
      finishOnServer: () => deps.store.maintenance.checkpoint(),
    });
    try {
      const scheduler = new DeliveryScheduler(deps, {
        send: (input) => sendThread.send(input),
        checkpointElsewhere: true,
      });
      const drained = await drainWithScheduler(deps, scheduler, count);
      return { enqueuePerSecond, ...drained, perSecond: drained.succeeded / drained.seconds };
    } finally {
      await sendThread.stop();
      await checkpointThread.stop();
    }
  } finally {
    deps.dispose();
  }
}

/**
 * Raw fetch and the scheduler take turns, twice, and each reports its better run: loopback
 * throughput on a small machine swings by ±30 % between runs, and alternating keeps a noisy
 * moment from landing on one side only.
 */
async function measureThroughput(
  receiverDelayMs: number,
  count: number,
  concurrency = CONCURRENCY,
  everySendOnThread = false,
) {
  const receiver = await startChildReceiver(receiverDelayMs);
  try {
    await rawSignedFetch(receiver.url, Math.min(2_000, count), concurrency); // warm up connections and JIT
    const raw1 = await rawSignedFetch(receiver.url, count, concurrency);
    const drain1 = await drainOnce(receiver.url, count, concurrency, everySendOnThread);
    const raw2 = await rawSignedFetch(receiver.url, count, concurrency);
    const drain2 = await drainOnce(receiver.url, count, concurrency, everySendOnThread);
    const best = drain1.perSecond >= drain2.perSecond ? drain1 : drain2;
    return { ...best, rawPerSecond: Math.max(raw1, raw2), timedOut: drain1.timedOut || drain2.timedOut };
  } finally {
    await receiver.stop();
  }
}

/**
 * Bun's fetch runs at most BUN_CONFIG_MAX_HTTP_REQUESTS (default 256) requests at once and reads
 * that variable only at process start, so the 512-wide scheduler is capped at 256 in flight
 * (256 / 50 ms ≈ 5,100/s). This re-runs (b) in a child process with the cap raised, to show it.
 */
async function measureSlowWithRaisedFetchCap(): Promise<{
  cap: string;
  perSecond: number;
  rawPerSecond: number;
} | null> {
  if (process.env.BUN_CONFIG_MAX_HTTP_REQUESTS) return null;
  const cap = String(Math.max(1_024, CONCURRENCY * 2));
  const child = Bun.spawn([process.execPath, import.meta.path, SLOW_ONLY_FLAG], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: cap },
    stdout: "pipe",
    stderr: "inherit",
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), PHASE_DEADLINE_MS * 2);
  const out = await new Response(child.stdout).text();
  clearTimeout(killer);
  if ((await child.exited) !== 0) return null;
  const result = JSON.parse(out.trim().split("\n").at(-1) ?? "null") as {
    perSecond: number;
    rawPerSecond: number;
  } | null;
  return result && { cap, ...result };
}

interface Sweep {
  perSecond: number;
  concurrency: number;
  /** Every concurrency's rate, for the diagnostic row. */
  all: string;
}

/**
 * `run` into an instant receiver at each concurrency, best of two runs each: the best and where.
 * Connections and JIT are warmed first with raw signed fetch.
 */
async function sweepConcurrency(
  concurrencies: readonly number[],
  run: (receiverUrl: string, concurrency: number) => Promise<number>,
): Promise<Sweep> {
  const receiver = await startChildReceiver(0);
  try {
    await rawSignedFetch(receiver.url, Math.min(2_000, DELIVERIES), 64);
    let best = { perSecond: 0, concurrency: 0 };
    const all: string[] = [];
    for (const concurrency of concurrencies) {
      const perSecond = Math.max(await run(receiver.url, concurrency), await run(receiver.url, concurrency));
      all.push(`${concurrency}: ${formatRate(perSecond)}`);
      if (perSecond > best.perSecond) best = { perSecond, concurrency };
    }
    return { ...best, all: all.join(", ") };
  } finally {
    await receiver.stop();
  }
}

/**
 * (a)'s verdict: raw signed fetch at its best concurrency and the scheduler at its own (from
 * the sweeps) take turns PAIRED_ROUNDS times into one receiver. The sweeps run minutes apart,
 * and this machine's loopback moves by tens of percent in that time; each round's ratio
 * compares two runs made seconds apart, and the median round decides.
 */
async function measurePaired(
  rawConcurrency: number,
  schedulerConcurrency: number,
  count: number,
): Promise<{ ratio: number; raw: number; scheduler: number; rounds: string }> {
  const receiver = await startChildReceiver(0);
  try {
    await rawSignedFetch(receiver.url, Math.min(2_000, count), rawConcurrency);
    const rounds: { raw: number; scheduler: number }[] = [];
    for (let round = 0; round < PAIRED_ROUNDS; round++) {
      const raw = await rawSignedFetch(receiver.url, count, rawConcurrency);
      const scheduler = (await drainOnce(receiver.url, count, schedulerConcurrency)).perSecond;
      rounds.push({ raw, scheduler });
    }
    return {
      ratio: median(rounds.map((round) => round.scheduler / round.raw)),
      raw: median(rounds.map((round) => round.raw)),
      scheduler: median(rounds.map((round) => round.scheduler)),
      rounds: rounds.map((round) => `${formatRate(round.scheduler)} vs ${formatRate(round.raw)}`).join("; "),
    };
  } finally {
    await receiver.stop();
  }
}

/** Raw signed fetch at every RAW_SWEEP concurrency: (a)'s baseline. */
const measureRawSweep = (count: number): Promise<Sweep> =>
  sweepConcurrency(RAW_SWEEP, (url, concurrency) => rawSignedFetch(url, count, concurrency));

/** The scheduler's drain at every SCHEDULER_SWEEP concurrency: (a)'s other side. */
const measureSchedulerSweep = (count: number): Promise<Sweep> =>
  sweepConcurrency(SCHEDULER_SWEEP, async (url, concurrency) => (await drainOnce(url, count, concurrency)).perSecond);

/** This thread's CPU time (user + system) in microseconds, from /proc; null where there is none. */
function mainThreadCpuMicros(): number | null {
  try {
    const stat = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000; // clock ticks of 10 ms
  } catch {
    return null;
  }
}

/**
 * Diagnostic: the main thread's CPU per send, the scheduler's send (sendWebhook: SSRF check,
 * deadline, excerpt) against raw signed fetch, SEND_COST_CONCURRENCY at a time into the same
 * child receiver, alternated SEND_COST_ROUNDS times; medians. The difference is what the
 * scheduler's send adds on the thread that also claims and records.
 */
async function measureSendCost(count: number): Promise<{ raw: number; send: number } | null> {
  if (mainThreadCpuMicros() === null) return null;
  const receiver = await startChildReceiver(0);
  const ways = {
    raw: async () => {
      const { body, headers } = signedDelivery();
      await (await fetch(receiver.url, { method: "POST", headers, body, redirect: "manual" })).text();
    },
    send: async () => {
      const { body, headers } = signedDelivery();
      await sendWebhook({ url: receiver.url, headers, body, timeoutMs: 10_000, allowPrivate: true });
    },
  };
  const perSend = async (way: () => Promise<void>): Promise<number> => {
    let next = 0;
    const before = mainThreadCpuMicros() ?? 0;
    await Promise.all(
      Array.from({ length: SEND_COST_CONCURRENCY }, async () => {
        while (next < count) {
          next++;
          await way();
        }
      }),
    );
    return ((mainThreadCpuMicros() ?? 0) - before) / count;
  };
  try {
    await perSend(ways.raw); // warm up connections and JIT
    await perSend(ways.send);
    const raw: number[] = [];
    const send: number[] = [];
    for (let round = 0; round < SEND_COST_ROUNDS; round++) {
      raw.push(await perSend(ways.raw));
      send.push(await perSend(ways.send));
    }
    return { raw: median(raw), send: median(send) };
  } finally {
    await receiver.stop();
  }
}

/** Diagnostic: the same drain with a send that succeeds at once — the scheduler + SQLite ceiling. */
async function measureDatabaseCeiling(count: number): Promise<number> {
  const deps = createBenchDeps(benchEnv);
  try {
    const tenantId = await seedTenantWithRule(deps, "http://127.0.0.1:9/unused");
    await enqueue(deps, tenantId, count);
    const instant = async (): Promise<AttemptResult> => ({
      ok: true,
      statusCode: 200,
      error: null,
      durationMs: 0,
      responseExcerpt: "ok",
    });
    const drained = await drainWithScheduler(deps, new DeliveryScheduler(deps, { send: instant }), count);
    return drained.succeeded / drained.seconds;
  } finally {
    deps.dispose();
  }
}

/** An in-process receiver that resolves the waiter of each request at the moment it arrives. */
function startLatencyReceiver() {
  let onArrival: ((at: number) => void) | null = null;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // As the app serves (src/http/serve-options.ts): Bun.serve is in development mode unless NODE_ENV=production.
    development: false,
    fetch() {
      const at = performance.now();
      onArrival?.(at);
      onArrival = null;
      return new Response("ok");
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    nextArrival: () =>
      new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no request arrived within 10 s")), 10_000);
        onArrival = (at) => {
          clearTimeout(timer);
          resolve(at);
        };
      }),
    stop: () => server.stop(true),
  };
}

const summarize = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};

async function measureLatency(events: number) {
  const receiver = startLatencyReceiver();
  try {
    // Baseline: one raw signed fetch at a time, call → arrival.
    const raw: number[] = [];
    for (let i = 0; i < events + 20; i++) {
      const { body, headers } = signedDelivery();
      const arrival = receiver.nextArrival();
      const sentAt = performance.now();
      const response = await fetch(receiver.url, { method: "POST", headers, body, redirect: "manual" });
      await response.text();
      if (i >= 20) raw.push((await arrival) - sentAt);
    }

    // Parley: commit one event, time until its POST arrives; the poll interval is the default
    // 250 ms, so anything faster than that is the hand-over at COMMIT (delivery-handoff.ts).
    const deps = createBenchDeps(benchEnv);
    const sendThread = startSendThread(silentLogger, { mainThreadBusy: () => false }); // an idle server
    const scheduler = new DeliveryScheduler(deps, { send: (input) => sendThread.send(input) });
    try {
      const tenantId = await seedTenantWithRule(deps, receiver.url);
      scheduler.start();
      const samples: number[] = [];
      for (let i = 0; i < events + 20; i++) {
        const arrival = receiver.nextArrival();
        await deps.store.transaction((tx) =>
          enqueueEvent(deps, tx, { tenantId, event: EVENT, data: DATA, confidence: 0.92 }),
        );
        const committedAt = performance.now();
        const arrivedAt = await arrival;
        if (i >= 20) samples.push(arrivedAt - committedAt);
        // Let the attempt be recorded before the next event, like independent events would.
        await Bun.sleep(1);
      }
      return { parley: summarize(samples), raw: summarize(raw) };
    } finally {
      await scheduler.stop();
      await sendThread.stop();
      deps.dispose();
    }
  } finally {
    await receiver.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: the same instant-receiver drain, scheduler(s) in child processes.

const PG_DRAINER_FLAG = "--pg-drainer";
/** One and two scheduler processes take turns this many times; each reports its better run. */
const PG_ROUNDS = 2;
/** A drainer child lives at most this long, whatever happens to its parent. */
const DRAINER_MAX_LIFETIME_MS = 5 * 60_000;

const pgConfig = (url: string, concurrency: number) =>
  loadConfig({
    PARLEY_DB: url,
    PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true",
    PARLEY_LOG_LEVEL: "error",
    ...poolEnv(concurrency),
  });

/**
 * The child (`bun bench/deliveries.ts --pg-drainer URL CONCURRENCY`): its own pool and
 * DeliveryScheduler on the database; prints "ready", starts the scheduler on a "go" line on
 * stdin, stops it, closes the pool and exits on "stop", at end of stdin, on SIGTERM, or after
 * DRAINER_MAX_LIFETIME_MS.
 */
async function runPgDrainer(url: string, concurrency: number): Promise<void> {
  const opened = openStore(url);
  const deps: Deps = {
    store: opened.store,
    config: pgConfig(url, concurrency),
    clock: systemClock,
    log: silentLogger,
    assistant: modelAssistant,
    deliveriesEnqueued: opened.deliveriesEnqueued,
  };
  const scheduler = new DeliveryScheduler(deps);
  let exiting = false;
  const exit = async () => {
    if (exiting) return;
    exiting = true;
    await scheduler.stop();
    await opened.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void exit());
  setTimeout(() => void exit(), DRAINER_MAX_LIFETIME_MS).unref();
  // One query so the pool's first connection is open before the clock starts.
  await opened.store.webhookRules.listRules("none", null, 1);
  console.log("ready");
  let text = "";
  for await (const chunk of Bun.stdin.stream()) {
    text += new TextDecoder().decode(chunk);
    if (text.includes("go\n") && !text.includes("stop\n")) {
      text = text.replace("go\n", "");
      scheduler.start();
    }
    if (text.includes("stop\n")) break;
  }
  await exit();
}

interface Drainer {
  go(): void;
  stop(): Promise<void>;
}

async function startPgDrainer(url: string, concurrency: number): Promise<Drainer> {
  const child = Bun.spawn([process.execPath, import.meta.path, PG_DRAINER_FLAG, url, String(concurrency)], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  let text = "";
  const deadline = Date.now() + 15_000;
  while (!text.includes("ready")) {
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`drainer did not start: ${text}`);
    }
    const { value, done } = await reader.read();
    if (done) throw new Error(`drainer exited: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    go() {
      child.stdin.write("go\n");
      child.stdin.flush();
    },
    async stop() {
      child.stdin.write("stop\n");
      child.stdin.end();
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await child.exited;
      clearTimeout(killer);
    },
  };
}

interface PgDrain {
  processes: number;
  perSecond: number;
  enqueuePerSecond: number;
  succeeded: number;
  attempts: number;
  /** Requests the receiver got during the drain. */
  received: number;
  timedOut: boolean;
}

/** A fresh database with `count` deliveries, drained by `processes` scheduler children at once. */
async function drainPostgres(
  pg: BenchPostgres,
  receiver: { url: string; count(): Promise<number> },
  count: number,
  processes: number,
): Promise<PgDrain> {
  const url = await pg.createDatabase();
  const opened = openStore(url);
  const counter = new SQL({ url, max: 1 });
  const drainers: Drainer[] = [];
  try {
    await opened.migrate(systemClock.now());
    // A local signal: the drainers are not listening yet, and this process has no scheduler.
    const deps: Deps = {
      store: opened.store,
      config: pgConfig(url, CONCURRENCY),
      clock: systemClock,
      log: silentLogger,
      assistant: modelAssistant,
      deliveriesEnqueued: createSignal(),
    };
    const tenantId = await seedTenantWithRule(deps, receiver.url);
    const enqueueStarted = performance.now();
    await enqueue(deps, tenantId, count);
    const enqueuePerSecond = count / ((performance.now() - enqueueStarted) / 1000);
    for (let i = 0; i < processes; i++) drainers.push(await startPgDrainer(url, CONCURRENCY));
    const pending = async () =>
      Number(
        ((await counter`SELECT count(*)::int AS n FROM deliveries WHERE status = 'pending'`) as { n: number }[])[0]
          ?.n ?? 0,
      );
    const receivedBefore = await receiver.count();
    const started = performance.now();
    for (const drainer of drainers) drainer.go();
    let timedOut = false;
    while ((await pending()) > 0) {
      if (performance.now() - started > PHASE_DEADLINE_MS) {
        timedOut = true;
        break;
      }
      await Bun.sleep(10);
    }
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(drainers.splice(0).map((drainer) => drainer.stop()));
    const received = (await receiver.count()) - receivedBefore;
    const [row] =
      (await counter`SELECT (SELECT count(*)::int FROM deliveries WHERE status = 'succeeded') AS succeeded, (SELECT count(*)::int FROM delivery_attempts) AS attempts`) as {
        succeeded: number;
        attempts: number;
      }[];
    const succeeded = row?.succeeded ?? 0;
    if (succeeded !== count)
      console.error(`warning: PostgreSQL, ${processes} process(es): ${succeeded} of ${count} deliveries succeeded`);
    return {
      processes,
      perSecond: succeeded / seconds,
      enqueuePerSecond,
      succeeded,
      attempts: row?.attempts ?? 0,
      received,
      timedOut,
    };
  } finally {
    await Promise.all(drainers.map((drainer) => drainer.stop()));
    await counter.close();
    await opened.close();
    await pg.dropDatabase(url);
  }
}

/** Diagnostic: one in-process scheduler on PostgreSQL with a send that succeeds at once — the scheduler + PostgreSQL ceiling. */
async function measurePostgresCeiling(pg: BenchPostgres, count: number): Promise<number> {
  const url = await pg.createDatabase();
  const opened = openStore(url);
  const counter = new SQL({ url, max: 1 });
  try {
    await opened.migrate(systemClock.now());
    const deps: Deps = {
      store: opened.store,
      config: pgConfig(url, CONCURRENCY),
      clock: systemClock,
      log: silentLogger,
      assistant: modelAssistant,
      deliveriesEnqueued: createSignal(),
    };
    const tenantId = await seedTenantWithRule(deps, "http://127.0.0.1:9/unused");
    await enqueue(deps, tenantId, count);
    const instant = async (): Promise<AttemptResult> => ({
      ok: true,
      statusCode: 200,
      error: null,
      durationMs: 0,
      responseExcerpt: "ok",
    });
    const scheduler = new DeliveryScheduler(deps, { send: instant });
    const pending = async () =>
      Number(
        ((await counter`SELECT count(*)::int AS n FROM deliveries WHERE status = 'pending'`) as { n: number }[])[0]
          ?.n ?? 0,
      );
    const started = performance.now();
    scheduler.start();
    while ((await pending()) > 0 && performance.now() - started < PHASE_DEADLINE_MS) await Bun.sleep(10);
    const seconds = (performance.now() - started) / 1000;
    await scheduler.stop();
    const [row] = (await counter`SELECT count(*)::int AS n FROM deliveries WHERE status = 'succeeded'`) as {
      n: number;
    }[];
    return (row?.n ?? 0) / seconds;
  } finally {
    await counter.close();
    await opened.close();
    await pg.dropDatabase(url);
  }
}

/** One and two scheduler processes, alternating PG_ROUNDS times; each reports its better run. */
async function measurePostgres(
  count: number,
): Promise<{ description: string; one: PgDrain; two: PgDrain; ceiling: number } | null> {
  const pg = await openBenchPostgres();
  if (!pg) return null;
  const receiver = await startChildReceiver(0);
  try {
    console.error(`PostgreSQL: ${pg.description}`);
    const runs: PgDrain[] = [];
    for (let round = 0; round < PG_ROUNDS; round++) {
      for (const processes of [1, 2]) {
        const run = await drainPostgres(pg, receiver, count, processes);
        console.error(
          `(a) PostgreSQL, ${processes} scheduler process(es): ${formatRate(run.perSecond)}, ${run.attempts} attempts, ${run.received} received`,
        );
        runs.push(run);
      }
    }
    const best = (processes: number) =>
      runs.filter((run) => run.processes === processes).reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
    // Duplicates are summed over every run, not only the best.
    const sum = (processes: number) => {
      const all = runs.filter((run) => run.processes === processes);
      return {
        ...best(processes),
        succeeded: all.reduce((n, run) => n + run.succeeded, 0),
        attempts: all.reduce((n, run) => n + run.attempts, 0),
        received: all.reduce((n, run) => n + run.received, 0),
        timedOut: all.some((run) => run.timedOut),
      };
    };
    const ceiling = await measurePostgresCeiling(pg, count);
    console.error(`(a) PostgreSQL no-op send ${formatRate(ceiling)}`);
    return { description: pg.description, one: sum(1), two: sum(2), ceiling };
  } finally {
    await receiver.stop();
    await pg.stop();
  }
}

const SLOW_ONLY_FLAG = "--slow-only";

const verdict = (ok: boolean) => (ok ? "✅ met" : "❌ missed");
// Rounded down: a ratio just under a "≥" budget never prints as the budget (0.396 is "39 %", not a missed "40 %").
const percent = (ratio: number) => `${Math.floor(ratio * 100 + 1e-9)} %`;

async function main(): Promise<void> {
  console.error(
    `bench: ${DELIVERIES} instant, ${SLOW_DELIVERIES} slow, ${LATENCY_EVENTS} latency events, concurrency ${CONCURRENCY}, Bun ${Bun.version}`,
  );
  const instant = await measureThroughput(0, DELIVERIES);
  console.error(`(a) ${formatRate(instant.perSecond)} vs raw ${formatRate(instant.rawPerSecond)}`);
  const postgres = await measurePostgres(DELIVERIES);
  const ceiling = await measureDatabaseCeiling(DELIVERIES);
  console.error(`(a) no-op send ${formatRate(ceiling)}`);
  const sendCost = await measureSendCost(DELIVERIES);
  console.error(
    `(a) main-thread CPU per send: ${sendCost ? `raw ${sendCost.raw.toFixed(1)} µs, sendWebhook ${sendCost.send.toFixed(1)} µs` : "skipped (no /proc)"}`,
  );
  const schedulerBest = await measureSchedulerSweep(DELIVERIES);
  console.error(`(a) scheduler sweep: ${schedulerBest.all}`);
  const threaded = await measureThroughput(0, DELIVERIES, CONCURRENCY, true);
  console.error(
    `(a) every send on the send thread: ${formatRate(threaded.perSecond)} vs raw ${formatRate(threaded.rawPerSecond)}`,
  );
  const rawBest = await measureRawSweep(DELIVERIES);
  console.error(`(a) raw sweep: ${rawBest.all}`);
  const paired = await measurePaired(rawBest.concurrency, schedulerBest.concurrency, DELIVERIES);
  console.error(`(a) paired rounds (scheduler vs raw): ${paired.rounds}`);
  const slow = await measureThroughput(SLOW_RECEIVER_MS, SLOW_DELIVERIES);
  console.error(`(b) ${formatRate(slow.perSecond)} vs raw ${formatRate(slow.rawPerSecond)}`);
  const slowRaised = await measureSlowWithRaisedFetchCap();
  console.error(`(b) raised fetch cap: ${slowRaised ? formatRate(slowRaised.perSecond) : "skipped"}`);
  const latency = await measureLatency(LATENCY_EVENTS);
  console.error("(c) done");

  const ratio = instant.perSecond / instant.rawPerSecond;
  const timedOut = (result: { timedOut: boolean }) => (result.timedOut ? " (TIMED OUT)" : "");
  const rows = [
    [
      `(a) deliveries/s, instant receiver, ${DELIVERIES.toLocaleString("en-US")} queued`,
      formatRate(instant.perSecond) + timedOut(instant),
      `raw signed fetch ${formatRate(instant.rawPerSecond)}`,
      "—",
      instant.timedOut ? verdict(false) : "info",
    ],
    [`(a) ratio to raw signed fetch, both at ${CONCURRENCY}`, percent(ratio), "100 %", "—", "info"],
    [
      `**(a) deliveries/s ÷ raw signed fetch, each at its best concurrency** (scheduler at ${schedulerBest.concurrency}, raw at ${rawBest.concurrency}; median of ${PAIRED_ROUNDS} alternating rounds)`,
      `${percent(paired.ratio)} (${formatRate(paired.scheduler)})`,
      `raw signed fetch ${formatRate(paired.raw)}`,
      `≥ ${BUDGET_BEST_RATIO * 100} %`,
      verdict(paired.ratio >= BUDGET_BEST_RATIO),
    ],
    [`(a) diagnostic: those rounds, scheduler vs raw signed fetch`, paired.rounds, "—", "—", "info"],
    [
      `(a) diagnostic: the sweeps' bests, minutes apart`,
      `${percent(schedulerBest.perSecond / rawBest.perSecond)} (${formatRate(schedulerBest.perSecond)})`,
      `raw signed fetch ${formatRate(rawBest.perSecond)}`,
      "—",
      "info",
    ],
    [`(a) diagnostic: raw signed fetch by concurrency (best of 2 each)`, rawBest.all, "—", "—", "info"],
    ["(a) diagnostic: scheduler + SQLite with a no-op send", formatRate(ceiling), "—", "—", "info"],
    ...(sendCost
      ? [
          [
            `(a) diagnostic: main-thread CPU per send, ${SEND_COST_CONCURRENCY} at a time (median of ${SEND_COST_ROUNDS}, alternated)`,
            `sendWebhook ${sendCost.send.toFixed(1)} µs`,
            `raw signed fetch ${sendCost.raw.toFixed(1)} µs`,
            "—",
            "info",
          ],
        ]
      : []),
    [
      `(a) diagnostic: every send through the send thread, as under HTTP load (above: on the main thread, as an idle server sends)`,
      formatRate(threaded.perSecond) + timedOut(threaded),
      `raw signed fetch ${formatRate(threaded.rawPerSecond)}`,
      "—",
      "info",
    ],
    [`(a) diagnostic: the scheduler by concurrency (best of 2 each)`, schedulerBest.all, "—", "—", "info"],
    [
      "(a) diagnostic: enqueue via enqueueEvent, 1,000 per transaction",
      formatRate(instant.enqueuePerSecond),
      "—",
      "—",
      "info",
    ],
    [
      `**(b) deliveries/s ÷ raw signed fetch, both at ${CONCURRENCY}**, receiver answers after ${SLOW_RECEIVER_MS} ms (Bun's default fetch limit)`,
      `${percent(slow.perSecond / slow.rawPerSecond)} (${formatRate(slow.perSecond)})${timedOut(slow)}`,
      `raw signed fetch ${formatRate(slow.rawPerSecond)}`,
      `≥ ${BUDGET_SLOW_RATIO * 100} %`,
      verdict(slow.perSecond >= BUDGET_SLOW_RATIO * slow.rawPerSecond && !slow.timedOut),
    ],
    ...(slowRaised
      ? [
          [
            `**(b) same, started with BUN_CONFIG_MAX_HTTP_REQUESTS=${slowRaised.cap}** (as \`npm start\` runs the server)`,
            `${percent(slowRaised.perSecond / slowRaised.rawPerSecond)} (${formatRate(slowRaised.perSecond)})`,
            `raw signed fetch ${formatRate(slowRaised.rawPerSecond)}`,
            `≥ ${BUDGET_SLOW_RATIO * 100} %`,
            verdict(slowRaised.perSecond >= BUDGET_SLOW_RATIO * slowRaised.rawPerSecond),
          ],
        ]
      : []),
    [
      `(c) event committed → POST arrived, p50 (${LATENCY_EVENTS} events)`,
      formatMs(latency.parley.p50),
      `raw fetch call → arrival ${formatMs(latency.raw.p50)}`,
      "—",
      "info",
    ],
    [
      `**(c) event committed → POST arrived, p99**, idle server`,
      formatMs(latency.parley.p99),
      `raw fetch call → arrival ${formatMs(latency.raw.p99)}`,
      `≤ ${BUDGET_LATENCY_P99_MS} ms`,
      verdict(latency.parley.p99 <= BUDGET_LATENCY_P99_MS),
    ],
  ];
  if (postgres) {
    const expected = DELIVERIES * PG_ROUNDS;
    const checked = (run: PgDrain) =>
      `${run.succeeded === expected ? "all succeeded" : `${run.succeeded} of ${expected} succeeded`}; duplicates: ${run.attempts - expected} extra attempts, ${run.received - expected} extra POSTs`;
    const baseline = `SQLite (same run) ${formatRate(instant.perSecond)}; raw signed fetch ${formatRate(instant.rawPerSecond)}`;
    rows.push(
      [
        `(a) PostgreSQL, one scheduler process, ${DELIVERIES.toLocaleString("en-US")} queued — ${postgres.description}`,
        formatRate(postgres.one.perSecond) + timedOut(postgres.one),
        baseline,
        "—",
        "info",
      ],
      [
        `(a) PostgreSQL, two scheduler processes (each its own pool and scheduler, ${CONCURRENCY} in flight each) on one queue`,
        formatRate(postgres.two.perSecond) + timedOut(postgres.two),
        baseline,
        "—",
        "info",
      ],
      [
        `(a) PostgreSQL: checks over ${PG_ROUNDS} runs each (one / two processes)`,
        `${checked(postgres.one)} / ${checked(postgres.two)}`,
        "—",
        "—",
        "info",
      ],
      [
        `(a) PostgreSQL diagnostic: scheduler + PostgreSQL with a no-op send (one scheduler, in this process)`,
        formatRate(postgres.ceiling),
        `SQLite ${formatRate(ceiling)}`,
        "—",
        "info",
      ],
      [
        `(a) PostgreSQL: enqueue via enqueueEvent, 1,000 per transaction`,
        formatRate(Math.max(postgres.one.enqueuePerSecond, postgres.two.enqueuePerSecond)),
        `SQLite ${formatRate(instant.enqueuePerSecond)}`,
        "—",
        "info",
      ],
    );
  }
  console.log(markdownTable(["measure", "result", "baseline (same run)", "budget", "verdict"], rows));
  if (!postgres) console.log("\nPostgreSQL rows skipped (BENCH_PG=off, or no PostgreSQL server programs found).");
}

if (process.argv[2] === PG_DRAINER_FLAG) {
  await runPgDrainer(String(process.argv[3]), Number(process.argv[4]));
} else if (process.argv.includes(SLOW_ONLY_FLAG)) {
  const slow = await measureThroughput(SLOW_RECEIVER_MS, SLOW_DELIVERIES);
  console.log(JSON.stringify({ perSecond: slow.perSecond, rawPerSecond: slow.rawPerSecond }));
} else {
  await main();
}
process.exit(0);
