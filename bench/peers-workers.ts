/**
 * The children of bench/peers.ts, one per drain (so no side shares its event loop with the
 * bench): `bun bench/peers-workers.ts <graphile-worker|pg-boss> DB_URL RECEIVER_URL` prints
 * "ready", starts its workers on a "go" line on stdin and stops on "stop" (or end of stdin);
 * `… sqlite RECEIVER_URL COUNT CONCURRENCY` fills a fresh SQLite file, prints "ready", drains it
 * with Parley's scheduler on "go" and prints "done SECONDS". Each child exits after
 * CHILD_MAX_LIFETIME_MS whatever happens to its parent.
 */
import http from "node:http";
import { run, Logger } from "graphile-worker";
import PgBoss from "pg-boss";
import { newId } from "../src/lib/ids.ts";
import { toIso } from "../src/lib/clock.ts";
import { DeliveryScheduler } from "../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../src/webhooks/emit-event.ts";
import { createRule } from "../src/webhooks/rules.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { deliveryHeaders, serializeDeliveryJson } from "../src/webhooks/sign.ts";
import { EVENT_CATALOG } from "../src/webhooks/events.ts";
import { createBenchDeps, envInt } from "./lib.ts";

export const EVENT = "lead.created";
export const DATA = EVENT_CATALOG[EVENT].example;
export const SECRET = "bench-secret-0123456789abcdef";
export const PG_BOSS_QUEUE = "deliver";
/** Jobs each peer runs at once; every side gets the same. */
export const PEER_CONCURRENCY = envInt("BENCH_PEER_CONCURRENCY", 128);
/** graphile-worker's local queue (jobs locked and fetched at once) and pg-boss's fetch batch (PEER_CONCURRENCY / batch loops). */
const GRAPHILE_LOCAL_QUEUE = envInt("BENCH_GRAPHILE_LOCAL_QUEUE", 256);
const PG_BOSS_BATCH = envInt("BENCH_PG_BOSS_BATCH", 64);
const CHILD_MAX_LIFETIME_MS = 5 * 60_000;

const agent = new http.Agent({ keepAlive: true, maxSockets: PEER_CONCURRENCY });

/** One delivery as Parley signs it (Standard Webhooks headers), POSTed over a keep-alive agent; throws unless 2xx. */
async function postSigned(receiverUrl: string, data: unknown): Promise<void> {
  const now = Date.now();
  const webhookId = newId("wh", now);
  const { body, signature } = serializeDeliveryJson(
    { event: EVENT, webhookId, timestamp: toIso(now), dataJson: JSON.stringify(data) },
    SECRET,
  );
  const headers = deliveryHeaders({
    event: EVENT,
    webhookId,
    attempt: 1,
    sendTimeMs: now,
    body,
    signature,
    secret: SECRET,
  });
  const status = await new Promise<number>((resolve, reject) => {
    const request = http.request(
      receiverUrl,
      { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
  if (status < 200 || status >= 300) throw new Error(`receiver answered ${status}`);
}

/** Lines from stdin: calls `onLine` for each until "stop" or the end. */
async function readCommands(onLine: (line: string) => void | Promise<void>): Promise<void> {
  let text = "";
  for await (const chunk of Bun.stdin.stream()) {
    text += new TextDecoder().decode(chunk);
    let newline = text.indexOf("\n");
    while (newline >= 0) {
      const line = text.slice(0, newline).trim();
      text = text.slice(newline + 1);
      if (line === "stop") return;
      await onLine(line);
      newline = text.indexOf("\n");
    }
  }
}

async function graphileWorker(dbUrl: string, receiverUrl: string): Promise<() => Promise<void>> {
  let runner: Awaited<ReturnType<typeof run>> | null = null;
  await readCommands(async (line) => {
    if (line !== "go" || runner) return;
    runner = await run({
      connectionString: dbUrl,
      concurrency: PEER_CONCURRENCY,
      maxPoolSize: 16,
      noHandleSignals: true,
      pollInterval: 1_000,
      logger: new Logger(() => () => undefined),
      taskList: { deliver: async (payload) => postSigned(receiverUrl, (payload as { data: unknown }).data) },
      // Its documented batching: jobs locked and fetched GRAPHILE_LOCAL_QUEUE at a time, completions batched.
      preset: {
        worker: { localQueue: { size: GRAPHILE_LOCAL_QUEUE }, completeJobBatchDelay: 0, failJobBatchDelay: 0 },
      },
    });
  });
  return async () => {
    await (runner as Awaited<ReturnType<typeof run>> | null)?.stop();
  };
}

async function pgBoss(dbUrl: string, receiverUrl: string): Promise<() => Promise<void>> {
  const boss = new PgBoss({ connectionString: dbUrl, max: 16, supervise: false, schedule: false, migrate: false });
  boss.on("error", () => undefined);
  await boss.start();
  console.log("ready");
  let stopping = false;
  const loops: Promise<void>[] = [];
  // Its batch API in loops of its own: `work()` waits out its polling interval (0.5 s at least)
  // after every batch, which held it near 250 jobs/s; fetch → send → complete at once does not.
  const loop = async () => {
    while (!stopping) {
      const jobs = await boss.fetch<{ data: unknown }>(PG_BOSS_QUEUE, { batchSize: PG_BOSS_BATCH });
      if (jobs.length === 0) {
        await Bun.sleep(50);
        continue;
      }
      await Promise.all(jobs.map((job) => postSigned(receiverUrl, job.data.data)));
      await boss.complete(
        PG_BOSS_QUEUE,
        jobs.map((job) => job.id),
      );
    }
  };
  await readCommands((line) => {
    if (line !== "go" || loops.length > 0) return;
    for (let i = 0; i < Math.max(1, Math.round(PEER_CONCURRENCY / PG_BOSS_BATCH)); i++) loops.push(loop());
  });
  return async () => {
    stopping = true;
    await Promise.all(loops);
    await boss.stop({ graceful: false, wait: true });
  };
}

/** Parley on a fresh SQLite file, as bench/deliveries.ts (a) drains it: the same N, concurrency and receiver. */
async function sqlite(receiverUrl: string, count: number, concurrency: number): Promise<() => Promise<void>> {
  const deps = createBenchDeps({
    PARLEY_DELIVERY_CONCURRENCY: String(concurrency),
    PARLEY_TENANT_CONCURRENCY: String(concurrency),
    PARLEY_ENDPOINT_CONCURRENCY: String(concurrency),
  });
  const tenant = await createTenant(deps, { name: "Bench" });
  await createRule(deps, tenant.id, { name: "bench", event: EVENT, url: receiverUrl, secret: SECRET, active: true });
  for (let done = 0; done < count; done += 1_000) {
    await deps.store.transaction(async (tx) => {
      for (let i = 0; i < Math.min(1_000, count - done); i++)
        await enqueueEvent(deps, tx, { tenantId: tenant.id, event: EVENT, data: DATA, confidence: 0.92 });
    });
  }
  deps.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const pending = deps.sqlite.prepare<{ n: number }, []>(
    "SELECT count(*) AS n FROM deliveries WHERE status = 'pending'",
  );
  const scheduler = new DeliveryScheduler(deps);
  console.log("ready");
  await readCommands(async (line) => {
    if (line !== "go") return;
    const started = performance.now();
    scheduler.start();
    while ((pending.get()?.n ?? 0) > 0 && performance.now() - started < CHILD_MAX_LIFETIME_MS) await Bun.sleep(5);
    console.log(`done ${(performance.now() - started) / 1000}`);
  });
  return async () => {
    await scheduler.stop();
    deps.dispose();
  };
}

if (import.meta.main) {
  setTimeout(() => process.exit(1), CHILD_MAX_LIFETIME_MS).unref();
  const [kind, first = "", second = "", third = ""] = process.argv.slice(2);
  if (kind === "graphile-worker") console.log("ready");
  const stop =
    kind === "graphile-worker"
      ? await graphileWorker(first, second)
      : kind === "pg-boss"
        ? await pgBoss(first, second)
        : kind === "sqlite"
          ? await sqlite(first, Number(second), Number(third))
          : null;
  if (!stop) throw new Error(`unknown peer ${kind}`);
  await stop();
  agent.destroy();
  process.exit(0);
}
