/**
 * Helpers for bench/chat.ts: the Parley HTTP server in a child process (so the load generator
 * does not share its event loop) and a closed-loop load generator. Run directly
 * (`bun bench/chat-lib.ts server [HOOK_URL [LOCATION [TENANT_ID]]]`) it is that child: the real
 * app over `openStore(LOCATION)` — by default a fresh WAL database file in a temp dir, or a
 * postgres:// URL (several children may share one PostgreSQL database: the second is given the
 * first's TENANT_ID instead of creating its own) — rate limits off, one dental-clinic tenant on
 * the business plan (unlimited quota), plus bench-only routes chained on the same Elysia app:
 *
 *   POST /bench/one-insert  the baseline: same stack, same JSON parsing and body schema as
 *                           POST /api/v1/chatbot/message, then one prepared INSERT (SQLite: on a
 *                           second connection to the same file; PostgreSQL: on a pool of its own);
 *   POST /bench/noop        the same without the INSERT (the stack + load generator ceiling);
 *   GET  /bench/cpu         the child's process.cpuUsage(), to split CPU time per request.
 */
// First, as in src/main.ts: the mode Elysia reads when it loads.
import "../src/cli/production-mode.ts";
import { modelAssistant } from "../src/assistant/turn-assistant.ts";
import { SQL } from "bun";
import { Elysia } from "elysia";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { isPostgresUrl, openStore } from "../src/db/open-store.ts";
import type { Deps } from "../src/deps.ts";
import { createApp } from "../src/http/app.ts";
import { createAppDeps } from "../src/http/deps.ts";
import { SERVE_OPTIONS } from "../src/http/serve-options.ts";
import { securityPlugin, tenantOf } from "../src/http/plugins/security.ts";
import { ChatModel } from "../src/http/routes/chat.ts";
import { systemClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/log.ts";
import { DeliveryScheduler } from "../src/scheduler/scheduler.ts";
import { startSendThread } from "../src/scheduler/send-thread.ts";
import { startCheckpointThread } from "../src/db/sqlite/checkpoint-thread.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { enqueueEvent } from "../src/webhooks/emit-event.ts";
import { EVENT_CATALOG } from "../src/webhooks/events.ts";
import { createRule } from "../src/webhooks/rules.ts";
import { createDeliveryHandoff } from "../src/webhooks/delivery-handoff.ts";

/** How long a server child lives at most, whatever happens to its parent. */
const SERVER_MAX_LIFETIME_MS = 5 * 60_000;
/** How long after its window a load phase waits for answers before aborting them. */
const LOAD_GRACE_MS = 30_000;
const BENCH_JWT_SECRET = "bench-secret-bench-secret-bench-secret-0123";

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes on one machine. */
export const wallClockMs = (): number => performance.timeOrigin + performance.now();

export interface ChatServer {
  base: string;
  tenantId: string;
  /** The child's user + system CPU time so far, in microseconds. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts `bun bench/chat-lib.ts server` and waits for the line it prints. `bunFlags` go before
 * the script (e.g. `--cpu-prof-md --cpu-prof-dir=DIR` to profile the server). `location` is the
 * database: "" for a fresh SQLite file in the child's temp dir, a SQLite path, or a postgres://
 * URL. `tenantId`: use this tenant (created by another server on the same database) instead of
 * creating one (and its webhook rule). `sync`: the server's PARLEY_SYNC (SQLite's flush at commit).
 */
export async function startChatServer(
  bunFlags: readonly string[] = [],
  hookUrl = "",
  location = "",
  tenantId = "",
  sync: "normal" | "full" = "normal",
): Promise<ChatServer> {
  const child = Bun.spawn([process.execPath, ...bunFlags, import.meta.path, "server", hookUrl, location, tenantId], {
    env: { ...process.env, BENCH_SERVER_SYNC: sync },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  let text = "";
  const deadline = Date.now() + 15_000;
  let ready: { port: number; tenantId: string } | undefined;
  while (ready === undefined) {
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`chat server did not start: ${text}`);
    }
    const { value, done } = await reader.read();
    if (done) throw new Error(`chat server exited: ${text}`);
    text += new TextDecoder().decode(value);
    const match = /listening on port (\d+) tenant (\S+)/.exec(text);
    if (match) ready = { port: Number(match[1]), tenantId: String(match[2]) };
  }
  reader.releaseLock();
  const base = `http://127.0.0.1:${ready.port}`;
  return {
    base,
    tenantId: ready.tenantId,
    cpuMicros: async () => Number(await (await fetch(`${base}/bench/cpu`)).text()),
    async stop() {
      child.stdin.end();
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await child.exited;
      clearTimeout(killer);
    },
  };
}

/** The child: the whole app on 127.0.0.1, an ephemeral port, until told to stop; its temp files live in `dir`. */
async function runServer(dir: string, hookUrl: string, location: string, givenTenantId: string): Promise<void> {
  const dbLocation = location || join(dir, "bench.db");
  const config = loadConfig({
    PARLEY_DB: dbLocation,
    PARLEY_RATE_LIMITS: "off",
    PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true",
    PARLEY_LOG_LEVEL: "silent",
    PARLEY_JWT_SECRET: BENCH_JWT_SECRET,
    // A SQLite side that flushes every commit (bench/chat-pg.ts's like-for-like pair).
    PARLEY_SYNC: process.env.BENCH_SERVER_SYNC ?? "normal",
  });
  const opened = openStore(dbLocation, { sync: config.sync });
  await opened.migrate(systemClock.now());
  const deps: Deps = {
    store: opened.store,
    config,
    clock: systemClock,
    log: silentLogger,
    assistant: modelAssistant,
    deliveriesEnqueued: opened.deliveriesEnqueued,
    deliveryHandoff: createDeliveryHandoff(),
  };
  const tenantId =
    givenTenantId || (await createTenant(deps, { name: "Bench Dental", sector: "dental-clinic", plan: "business" })).id;

  // The one-insert baseline's table, outside the store: a second SQLite connection, or a pool of its own.
  const postgres = isPostgresUrl(dbLocation);
  const benchSqlite = postgres ? null : openDatabase(dbLocation, { sync: config.sync }).sqlite;
  const benchPg = postgres ? new SQL({ url: dbLocation, max: 16 }) : null;
  benchSqlite?.exec(
    "CREATE TABLE IF NOT EXISTS bench_rows (id INTEGER PRIMARY KEY, tenant_id TEXT NOT NULL, message TEXT NOT NULL, created_at INTEGER NOT NULL)",
  );
  if (benchPg)
    await benchPg`CREATE TABLE IF NOT EXISTS bench_rows (id bigserial PRIMARY KEY, tenant_id text NOT NULL, message text NOT NULL, created_at bigint NOT NULL)`;
  const sqliteInsert = benchSqlite?.prepare("INSERT INTO bench_rows (tenant_id, message, created_at) VALUES (?, ?, ?)");
  const insertRow = async (tenant: string, message: string, at: number): Promise<void> => {
    if (sqliteInsert) sqliteInsert.run(tenant, message, at);
    else
      await (benchPg as SQL)`INSERT INTO bench_rows (tenant_id, message, created_at) VALUES (${tenant}, ${message}, ${at})`;
  };
  const ruleCreated =
    hookUrl !== "" &&
    (givenTenantId !== "" ||
      (await createRule(deps, tenantId, {
        name: "bench probe",
        event: "lead.created",
        url: hookUrl,
        secret: "bench-secret-0123456789abcdef",
        active: true,
      })) !== null);
  const probeData = EVENT_CATALOG["lead.created"].example;

  // As the server runs it (src/cli/serve.ts): sends on the send thread while HTTP requests wait,
  // WAL checkpoints on a thread of their own.
  let httpServer: { pendingRequests: number } | undefined;
  const sendThread = startSendThread(silentLogger, { mainThreadBusy: () => (httpServer?.pendingRequests ?? 0) > 0 });
  const checkpointThread = postgres
    ? null
    : startCheckpointThread(dbLocation, silentLogger, { finishOnServer: () => deps.store.maintenance.checkpoint() });
  const scheduler = new DeliveryScheduler(deps, {
    send: (input) => sendThread.send(input),
    checkpointElsewhere: checkpointThread !== null,
  });
  const appDeps = createAppDeps(deps, scheduler.metrics);
  const benchRoutes = new Elysia()
    .use(securityPlugin(appDeps))
    .post(
      "/bench/one-insert",
      async ({ principal, body }) => {
        await insertRow(tenantOf(principal, body.tenant_id), body.message, Date.now());
        return { ok: true };
      },
      { chatAccess: true, body: ChatModel.messageBody },
    )
    .post("/bench/noop", () => ({ ok: true }), { body: ChatModel.messageBody })
    .post("/bench/event", async () => {
      if (!ruleCreated) return { error: "no_hook", message: "start the server with a hook URL" };
      const emitted = await deps.store.transaction((tx) =>
        enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: probeData, confidence: 0.92 }),
      );
      return { webhook_id: emitted.deliveryIds[0] ?? null, committed_at: wallClockMs() };
    });
  const app = createApp(appDeps)
    .use(benchRoutes)
    .get("/bench/cpu", () => {
      const usage = process.cpuUsage();
      return String(usage.user + usage.system);
    })
    .listen({ port: 0, hostname: "127.0.0.1", ...SERVE_OPTIONS });
  httpServer = app.server ?? undefined;

  scheduler.start();
  console.log(`chat server listening on port ${app.server?.port} tenant ${tenantId}`);
  let exiting = false;
  const exit = async () => {
    if (exiting) return;
    exiting = true;
    void app.stop(true);
    await scheduler.stop().catch(() => undefined);
    await checkpointThread?.stop();
    await opened.close().catch(() => undefined);
    benchSqlite?.close();
    await benchPg?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  // Exits when the parent closes stdin (or dies), on SIGTERM, and after a hard lifetime cap.
  void (async () => {
    for await (const _ of Bun.stdin.stream()) {
      /* the parent never writes; end of stream is the signal */
    }
    await exit();
  })();
  process.once("SIGTERM", () => void exit());
  setTimeout(() => void exit(), SERVER_MAX_LIFETIME_MS).unref();
}

export interface LoadRequest {
  headers: Record<string, string>;
  body: string;
}

export interface LoadOptions {
  url: string;
  /** Spread the lanes over these URLs instead (lane i sends to urls[i mod n]): several servers. */
  urls?: readonly string[];
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  /** The next request to send; called once per request, in the order they are sent. */
  request(): LoadRequest;
  /** Sees every answer with the expected status (optional; used to tally session statuses). */
  inspect?(body: string): void;
  /** The status every answer should have (200; 404 for the not-found baseline). */
  expectedStatus?: number;
}

export interface LoadResult {
  /** Requests completed inside the measured window, per second. */
  perSecond: number;
  completed: number;
  /** Every response of the run, warm-up included. */
  total: number;
  /** Sorted latencies (ms) of the requests completed inside the window. */
  latencies: Float64Array;
  /** Responses without the expected status anywhere in the run (warm-up included), by status. */
  failures: Map<number, number>;
  /** Fetch errors (connection refused, reset) anywhere in the run. */
  errors: number;
}

/**
 * Closed loop: `concurrency` lanes, each sending its next request as soon as the previous
 * answered, for warm-up + duration. Only requests that complete inside the measured window
 * count toward the rate and the latencies; in-flight requests at the end are awaited.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const started = performance.now();
  const windowStart = started + options.warmupMs;
  const windowEnd = windowStart + options.durationMs;
  // Far more than any lane can finish in the window: 200,000/s is above loopback's ceiling here.
  const capacity = Math.ceil((options.durationMs / 1000) * 200_000);
  const latencies = new Float64Array(capacity);
  let recorded = 0;
  let errors = 0;
  let total = 0;
  const failures = new Map<number, number>();
  // A request still unanswered this long after the window is a hung server: abort it instead of hanging.
  const abort = new AbortController();
  const abortTimer = setTimeout(() => abort.abort(), options.warmupMs + options.durationMs + LOAD_GRACE_MS);

  const urls = options.urls && options.urls.length > 0 ? options.urls : [options.url];
  const lane = async (_: unknown, laneIndex: number) => {
    const url = urls[laneIndex % urls.length] as string;
    while (performance.now() < windowEnd) {
      const { headers, body } = options.request();
      const sentAt = performance.now();
      let status = 0;
      let text = "";
      try {
        const response = await fetch(url, { method: "POST", headers, body, signal: abort.signal });
        status = response.status;
        text = await response.text();
      } catch {
        errors++;
        await Bun.sleep(1);
        continue;
      }
      const doneAt = performance.now();
      total++;
      if (status !== (options.expectedStatus ?? 200)) failures.set(status, (failures.get(status) ?? 0) + 1);
      else options.inspect?.(text);
      if (doneAt >= windowStart && doneAt <= windowEnd && recorded < capacity) latencies[recorded++] = doneAt - sentAt;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  clearTimeout(abortTimer);
  const measured = latencies.subarray(0, recorded).sort();
  return {
    perSecond: recorded / (options.durationMs / 1000),
    completed: recorded,
    total,
    latencies: measured,
    failures,
    errors,
  };
}

/** Percentile of a sorted typed array (nearest rank), like lib.ts's percentile. */
export function percentileOf(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

if (import.meta.main && process.argv[2] === "server") {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-chat-"));
  try {
    await runServer(dir, process.argv[3] ?? "", process.argv[4] ?? "", process.argv[5] ?? "");
  } catch (error) {
    // A server that fails to start leaves no temp dir behind.
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
