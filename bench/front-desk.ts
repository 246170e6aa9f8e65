/**
 * The front desk's live streams (DESIGN §8): hand-off → the operator's inbox stream and
 * operator reply → the visitor's stream, p50/p99 over real HTTP, next to the same run's answer
 * time of the request that caused the event (the baseline); SQLite with one server, PostgreSQL
 * with two instances (the event committed on one, streamed by the other). Then 1,000 idle
 * inbox streams: memory, CPU and the hub's table reads at rest against the same server with
 * none open.
 *
 *   npx bun bench/front-desk.ts          # BENCH_ROUNDS=200, BENCH_STREAMS=1000, BENCH_PG=off to skip PostgreSQL
 */
import { modelAssistant } from "../src/assistant/turn-assistant.ts";
import { loadConfig } from "../src/config.ts";
import { openStore } from "../src/db/open-store.ts";
import type { Deps } from "../src/deps.ts";
import type { Store } from "../src/db/store.ts";
import { createApp } from "../src/http/app.ts";
import { createAppDeps } from "../src/http/deps.ts";
import { systemClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/log.ts";
import { createSignal } from "../src/lib/signal.ts";
import { createApiKey } from "../src/auth/api-keys.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { createBenchDeps, envInt, formatMs, markdownTable, openBenchPostgres, percentile } from "./lib.ts";
import { eventReader } from "../test/frontdesk/sse.ts";

const ROUNDS = envInt("BENCH_ROUNDS", 200);
const STREAMS = envInt("BENCH_STREAMS", 1000);
const LIFTED = {
  PARLEY_JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123",
  PARLEY_RATE_LIMITS: "off",
  PARLEY_VISITOR_SESSIONS: "100000",
  PARLEY_VISITOR_SHARE: "100%",
  PARLEY_LOG_LEVEL: "error",
};

interface Instance {
  origin: string;
  deps: Deps;
  stop(): Promise<void>;
}

function serve(deps: Deps): Instance {
  const server = createApp(createAppDeps(deps)).listen({ port: 0, hostname: "127.0.0.1" });
  return { origin: `http://127.0.0.1:${server.server?.port}`, deps, stop: async () => void (await server.stop()) };
}

const post = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** Event latencies (ms) through `streamer`, each caused by a request to `writer`, and those requests' own answer times. */
async function measure(writer: Instance, streamer: Instance) {
  const tenant = await createTenant(writer.deps, { name: "Bench Desk", sector: "dental-clinic" });
  const key = { "x-api-key": (await createApiKey(writer.deps, { tenantId: tenant.id, name: "bench" })).key };
  const inbox = eventReader(await fetch(`${streamer.origin}/api/v1/inbox/stream`, { headers: key }));
  const handoff: number[] = [];
  const reply: number[] = [];
  const answer: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const visitor = (await (
      await post(`${writer.origin}/api/v1/widget/session`, {}, { tenant_id: tenant.id })
    ).json()) as { access_token: string; session_id: string };
    const bearer = { authorization: `Bearer ${visitor.access_token}` };
    let started = performance.now();
    const sent = post(`${writer.origin}/api/v1/chatbot/message`, bearer, {
      tenant_id: tenant.id,
      message: "Can I talk to a human please?",
    }).then(() => answer.push(performance.now() - started));
    // The inbox also carries each round's reply: wait for this visitor's hand-off.
    while (
      !(await inbox.next(1, 10_000)).some(
        (event) => event.event === "handoff.requested" && event.data.session_id === visitor.session_id,
      )
    );
    handoff.push(performance.now() - started);
    await sent;
    const widget = eventReader(
      await fetch(`${streamer.origin}/api/v1/chatbot/sessions/${visitor.session_id}/stream`, { headers: bearer }),
    );
    started = performance.now();
    await post(`${writer.origin}/api/v1/sessions/${visitor.session_id}/operator-messages`, key, {
      text: "Hello, a person here.",
    });
    await widget.next(1, 10_000);
    reply.push(performance.now() - started);
    await widget.close();
  }
  await inbox.close();
  const p = (values: number[], q: number) =>
    percentile(
      [...values].sort((a, b) => a - b),
      q,
    );
  return {
    handoff: [p(handoff, 50), p(handoff, 99)],
    reply: [p(reply, 50), p(reply, 99)],
    answer: [p(answer, 50), p(answer, 99)],
  };
}

/** The store with the hub's reads of live_events counted. */
function countingLiveReads(store: Store) {
  const counted = { reads: 0 };
  const listLiveEventsAfter: Store["liveEvents"]["listLiveEventsAfter"] = (afterId, limit) => (
    counted.reads++, store.liveEvents.listLiveEventsAfter(afterId, limit)
  );
  const liveEvents = new Proxy(store.liveEvents, {
    get: (target, key) => (key === "listLiveEventsAfter" ? listLiveEventsAfter : Reflect.get(target, key)),
  });
  return {
    store: new Proxy(store, { get: (target, key) => (key === "liveEvents" ? liveEvents : Reflect.get(target, key)) }),
    counted,
  };
}

/** RSS, heap, CPU and live_events reads over 5 s at rest, with `open` streams held (in-process, so only the server's side is counted). */
async function idleCost(streams: number) {
  const deps = createBenchDeps(LIFTED);
  const { store, counted } = countingLiveReads(deps.store);
  const appDeps = createAppDeps({ ...deps, store, liveEventsWritten: createSignal() });
  const app = createApp(appDeps);
  const tenant = await createTenant(deps, { name: "Idle", sector: "general" });
  const key = (await createApiKey(deps, { tenantId: tenant.id, name: "bench" })).key;
  Bun.gc(true);
  const before = process.memoryUsage();
  const held: Response[] = [];
  for (let i = 0; i < streams; i++)
    held.push(await app.handle(new Request("http://localhost/api/v1/inbox/stream", { headers: { "x-api-key": key } })));
  const readers = held.map((response) => eventReader(response));
  Bun.gc(true);
  const after = process.memoryUsage();
  const cpu = process.cpuUsage();
  const readsBefore = counted.reads;
  await Bun.sleep(5_000);
  const used = process.cpuUsage(cpu);
  const reads = counted.reads - readsBefore;
  await Promise.all(readers.map((reader) => reader.close()));
  deps.dispose();
  return {
    rssMb: (after.rss - before.rss) / 2 ** 20,
    heapMb: (after.heapUsed - before.heapUsed) / 2 ** 20,
    cpuMsPerS: (used.user + used.system) / 1000 / 5,
    reads,
  };
}

const rows: string[][] = [];
const row = (what: string, measured: { handoff: number[]; reply: number[]; answer: number[] }) => {
  const [a50 = 0, a99 = 0] = measured.answer;
  for (const [name, values] of [
    ["hand-off → operator's stream", measured.handoff],
    ["operator reply → widget's stream", measured.reply],
  ] as const) {
    const [p50 = 0, p99 = 0] = values;
    rows.push([
      `${name}, ${what}`,
      `p50 ${formatMs(p50)} / p99 ${formatMs(p99)}`,
      `the chat request's answer p50 ${formatMs(a50)} / p99 ${formatMs(a99)}`,
      "p99 ≤ 1 s",
      p99 <= 1000 ? "✅" : "❌",
    ]);
  }
};

console.error(`SQLite, one server, ${ROUNDS} rounds…`);
const sqlite = serve({ ...createBenchDeps(LIFTED), liveEventsWritten: createSignal() });
row("SQLite", await measure(sqlite, sqlite));
await sqlite.stop();

const postgres = await openBenchPostgres();
if (postgres) {
  console.error(`PostgreSQL, two instances, ${ROUNDS} rounds…`);
  const url = await postgres.createDatabase();
  const config = loadConfig({ PARLEY_DB: url, ...LIFTED });
  const opened = [openStore(url), openStore(url)];
  await opened[0]?.migrate(systemClock.now());
  const [one, two] = opened.map((store) =>
    serve({
      store: store.store,
      config,
      clock: systemClock,
      log: silentLogger,
      assistant: modelAssistant,
      deliveriesEnqueued: store.deliveriesEnqueued,
      liveEventsWritten: store.liveEventsWritten,
    }),
  );
  if (one && two) {
    row("PostgreSQL, written on one instance, streamed by the other", await measure(one, two));
    await Promise.all([one.stop(), two.stop()]);
  }
  await Promise.all(opened.map((store) => store.close()));
  await postgres.dropDatabase(url);
  await postgres.stop();
}

console.error(`${STREAMS} idle streams…`);
const none = await idleCost(0);
const many = await idleCost(STREAMS);
rows.push([
  `${STREAMS} idle inbox streams: memory (RSS / heap)`,
  `+${many.rssMb.toFixed(1)} MB / +${many.heapMb.toFixed(1)} MB`,
  `no stream: +${none.rssMb.toFixed(1)} MB / +${none.heapMb.toFixed(1)} MB`,
  "≤ 50 MB",
  many.rssMb <= 50 ? "✅" : "❌",
]);
rows.push([
  `${STREAMS} idle inbox streams: live_events reads in 5 s at rest (SQLite)`,
  String(many.reads),
  `no stream: ${none.reads}`,
  "none at rest",
  many.reads === 0 ? "✅" : "❌",
]);
rows.push([
  `${STREAMS} idle inbox streams: CPU at rest`,
  `${many.cpuMsPerS.toFixed(2)} ms/s`,
  `no stream: ${none.cpuMsPerS.toFixed(2)} ms/s`,
  "none at rest",
  many.cpuMsPerS < 10 ? "✅" : "❌",
]);
console.log(markdownTable(["measure", "result", "baseline (same run)", "budget", "verdict"], rows));
