/**
 * POST /api/v1/chatbot/message throughput and latency (DESIGN §8). Not a test: it measures and
 * prints a table.
 *
 *   npx bun bench/chat.ts
 *
 * Env: BENCH_CHAT_SESSIONS (2000) visitor sessions, BENCH_CHAT_CONCURRENCY ("64,256") requests
 * in flight, BENCH_CHAT_SECONDS (10) measured per phase after BENCH_CHAT_WARMUP_SECONDS (2),
 * BENCH_CHAT_SLICES (5) alternating slices the chat load and its 404 baseline are each measured
 * in, BENCH_CHAT_CPU_PROF=DIR to write a markdown CPU profile of the server child into DIR.
 *
 * The server (the real app, rate limits off, a file database) runs in a child process; this
 * process opens the visitor sessions and keeps C requests in flight, round-robin over the
 * sessions with a mix of FAQ questions, greetings and the odd lead sentence. Two baselines on
 * the same server, under the same load shape, in the same run (DESIGN §8's budgets are ratios
 * to them): (a) the chat request itself — same body, same Authorization header, same number in
 * flight — sent to a path that answers 404 (the HTTP stack without the work), and (b) a
 * bench-only route with the chat route's auth, JSON parsing and body schema and one INSERT.
 * The chat load and baseline (a) alternate in slices (SLICES) and the budget's ratio is the
 * median of the adjacent pairs' ratios, so that the machine's drift between phases cannot move it.
 *
 * A last phase runs the chat load again at the first concurrency while this process commits a
 * lead.created event on the server every PROBE_INTERVAL_MS (a bench route); the server's own
 * delivery scheduler sends each to a receiver child, which notes when each webhook id arrived:
 * event committed → first POST p99 against the chat p99 of the same window.
 *
 * PostgreSQL phases, after those: the same chat load (and its 404 baseline) against
 * a server child on PostgreSQL, then spread over two server children on the same database.
 * Skipped with a note when BENCH_PG=off or no PostgreSQL server programs are found; BENCH_PG_URL
 * picks a server (its user needs CREATEDB), else a throwaway cluster (fsync off unless
 * BENCH_PG_FSYNC=on).
 */
import {
  envInt,
  formatMs,
  formatRate,
  markdownTable,
  median,
  openBenchPostgres,
  startChildReceiver,
  type ChildReceiver,
} from "./lib.ts";
import {
  percentileOf,
  runLoad,
  startChatServer,
  type ChatServer,
  type LoadRequest,
  type LoadResult,
} from "./chat-lib.ts";
import { measureEventsUnderLoad } from "./chat-probe.ts";
import { buildSchedule, openSessions, requestMaker, SESSION_CONCURRENCY } from "./chat-mix.ts";

const SESSIONS = envInt("BENCH_CHAT_SESSIONS", 2_000);
const SECONDS = envInt("BENCH_CHAT_SECONDS", 10);
const WARMUP_SECONDS = envInt("BENCH_CHAT_WARMUP_SECONDS", 2);
const CONCURRENCIES = (process.env.BENCH_CHAT_CONCURRENCY ?? "64,256")
  .split(",")
  .map(Number)
  .filter((value) => Number.isInteger(value) && value > 0 && value <= 256);
const CPU_PROF_DIR = process.env.BENCH_CHAT_CPU_PROF;
/**
 * The chat load and its 404 baseline run in this many alternating slices each (404, chat, 404,
 * chat, …), BENCH_CHAT_SECONDS split between them: this machine's speed drifts by tens of
 * percent within minutes, and two phases run one after the other can land in two different
 * speeds. Alternating, both sides of the ratio sample the same ones.
 */
const SLICES = envInt("BENCH_CHAT_SLICES", 5);
/** Each slice after a route's first starts with this much unmeasured load (the switch settles). */
const SLICE_WARMUP_SECONDS = 0.5;
/** The diagnostic phases (no-op route, raw Bun.serve) are shorter. */
const DIAG_SECONDS = Math.max(1, Math.round(SECONDS / 2));
const DIAG_WARMUP_SECONDS = 1;

/**
 * The budgets (DESIGN §8): chat ÷ the 404 baseline (same request, same server, same run), judged at
 * 64 in flight as DESIGN §8 sets them; at any other concurrency the same ratios print as info.
 */
const BUDGET_CONCURRENCY = 64;
const BUDGET_RATE_RATIO = 0.4;
const BUDGET_P99_RATIO = 2;
const BUDGET_EVENT_P99_RATIO = 0.5;
/** A path on the same server that answers 404 to the same request. */
const NOT_FOUND_ROUTE = "/api/v1/chatbot/bench-not-found";

interface Phase {
  route: string;
  /** Warm-up included. */
  seconds: number;
  /** The window the rate and latencies are taken over. */
  measuredSeconds: number;
  concurrency: number;
  load: LoadResult;
  p50: number;
  p99: number;
  serverCpuMicros: number;
  clientCpuMicros: number;
}

interface Tally {
  statuses: Map<string, number>;
  silent: number;
}

interface PhaseOptions {
  tally?: Tally;
  /** Spread the load over these servers (the route on each), CPU summed over them. */
  servers?: readonly ChatServer[];
  /** Another URL than server.base + route (the raw receiver, or a labelled phase). */
  url?: string;
  expectedStatus?: number;
  seconds?: number;
  warmupSeconds?: number;
  /** Not printed: a slice of a phase printed whole. */
  quiet?: boolean;
}

async function measure(
  server: ChatServer,
  route: string,
  concurrency: number,
  request: () => LoadRequest,
  options: PhaseOptions = {},
): Promise<Phase> {
  const { tally, seconds = SECONDS, warmupSeconds = WARMUP_SECONDS } = options;
  const servers = options.servers ?? [server];
  const serversCpu = async () =>
    (await Promise.all(servers.map((each) => each.cpuMicros()))).reduce((sum, n) => sum + n, 0);
  const cpuBefore = await serversCpu();
  const clientBefore = process.cpuUsage();
  const load = await runLoad({
    url: options.url ?? `${server.base}${route}`,
    urls: options.servers ? options.servers.map((each) => `${each.base}${route}`) : undefined,
    concurrency,
    warmupMs: warmupSeconds * 1000,
    durationMs: seconds * 1000,
    request,
    expectedStatus: options.expectedStatus,
    inspect: tally
      ? (body) => {
          const parsed = JSON.parse(body) as { status: string; reply: unknown };
          tally.statuses.set(parsed.status, (tally.statuses.get(parsed.status) ?? 0) + 1);
          if (parsed.reply === null) tally.silent++;
        }
      : undefined,
  });
  const clientCpu = process.cpuUsage(clientBefore);
  const serverCpuMicros = (await serversCpu()) - cpuBefore;
  const phase = {
    route,
    seconds: seconds + warmupSeconds,
    measuredSeconds: seconds,
    concurrency,
    load,
    p50: percentileOf(load.latencies, 50),
    p99: percentileOf(load.latencies, 99),
    serverCpuMicros,
    clientCpuMicros: clientCpu.user + clientCpu.system,
  };
  if (!options.quiet) printPhase(phase, options.servers);
  return phase;
}

function printPhase(phase: Phase, servers?: readonly ChatServer[], note = ""): void {
  const failed = [...phase.load.failures.values()].reduce((sum, n) => sum + n, 0);
  console.error(
    `${servers ? `${servers.length} servers ` : ""}${phase.route} @${phase.concurrency}: ${formatRate(phase.load.perSecond)} p50 ${formatMs(phase.p50)} p99 ${formatMs(phase.p99)} non-200 ${failed} errors ${phase.load.errors}${note}`,
  );
}

/** One phase made of slices of the same route: rates over the measured windows, latencies and CPU over all of them. */
function mergeSlices(slices: readonly Phase[]): Phase {
  const first = slices[0] as Phase;
  const completed = slices.reduce((sum, slice) => sum + slice.load.completed, 0);
  const measuredSeconds = slices.reduce((sum, slice) => sum + slice.measuredSeconds, 0);
  const latencies = new Float64Array(completed);
  let offset = 0;
  const failures = new Map<number, number>();
  for (const slice of slices) {
    latencies.set(slice.load.latencies, offset);
    offset += slice.load.latencies.length;
    for (const [status, n] of slice.load.failures) failures.set(status, (failures.get(status) ?? 0) + n);
  }
  latencies.sort();
  const sum = (pick: (slice: Phase) => number) => slices.reduce((total, slice) => total + pick(slice), 0);
  return {
    route: first.route,
    concurrency: first.concurrency,
    seconds: sum((slice) => slice.seconds),
    measuredSeconds,
    load: {
      perSecond: completed / measuredSeconds,
      completed,
      total: sum((slice) => slice.load.total),
      latencies,
      failures,
      errors: sum((slice) => slice.load.errors),
    },
    p50: percentileOf(latencies, 50),
    p99: percentileOf(latencies, 99),
    serverCpuMicros: sum((slice) => slice.serverCpuMicros),
    clientCpuMicros: sum((slice) => slice.clientCpuMicros),
  };
}

/**
 * The 404 baseline and the chat load at `concurrency`, in SLICES alternating slices each (see
 * SLICES): each route's first slice after the full warm-up, every later one after
 * SLICE_WARMUP_SECONDS; BENCH_CHAT_SECONDS of measured load per route in all.
 */
async function measureChatAndBaseline(
  server: ChatServer,
  concurrency: number,
  requests: { notFound: () => LoadRequest; chat: () => LoadRequest },
  options: { tally: Tally; servers?: readonly ChatServer[] },
): Promise<{ notFound: Phase; chat: Phase; rateRatio: number }> {
  const notFoundSlices: Phase[] = [];
  const chatSlices: Phase[] = [];
  const seconds = SECONDS / SLICES;
  for (let slice = 0; slice < SLICES; slice++) {
    const warmupSeconds = slice === 0 ? WARMUP_SECONDS : SLICE_WARMUP_SECONDS;
    const common = { servers: options.servers, seconds, warmupSeconds, quiet: true };
    notFoundSlices.push(
      await measure(server, NOT_FOUND_ROUTE, concurrency, requests.notFound, { ...common, expectedStatus: 404 }),
    );
    chatSlices.push(
      await measure(server, "/api/v1/chatbot/message", concurrency, requests.chat, { ...common, tally: options.tally }),
    );
  }
  const notFound = mergeSlices(notFoundSlices);
  const chat = mergeSlices(chatSlices);
  const note = (slices: readonly Phase[]) =>
    SLICES > 1
      ? ` (${SLICES} alternating slices: ${slices.map((slice) => formatRate(slice.load.perSecond)).join(", ")})`
      : "";
  printPhase(notFound, options.servers, note(notFoundSlices));
  printPhase(chat, options.servers, note(chatSlices));
  // Each chat slice against the 404 slice just before it, the median pair deciding: a slice
  // caught in one of the machine's fast or slow spells moves one pair, not the verdict.
  const pairs = chatSlices.map(
    (slice, index) => slice.load.perSecond / (notFoundSlices[index] as Phase).load.perSecond,
  );
  return { notFound, chat, rateRatio: median(pairs) };
}

const verdict = (ok: boolean) => (ok ? "✅ met" : "❌ missed");
// Rounded down: a ratio just under a "≥" budget never prints as the budget (0.396 is "39 %", not a missed "40 %").
const percent = (ratio: number) => `${Math.floor(ratio * 100 + 1e-9)} %`;
const times = (ratio: number) => `${ratio.toFixed(2)}×`;
const nonOk = (phase: Phase) => [...phase.load.failures.values()].reduce((sum, n) => sum + n, 0) + phase.load.errors;
const describeFailures = (phase: Phase) =>
  nonOk(phase) === 0
    ? "0"
    : [
        ...[...phase.load.failures].map(([status, n]) => `${n}× ${status}`),
        ...(phase.load.errors ? [`${phase.load.errors} fetch errors`] : []),
      ].join(", ");
/** CPU per request over the whole phase, warm-up included. */
const cpuPerRequest = (phase: Phase, micros: number) => `${Math.round(micros / phase.load.total)} µs`;
const coreShare = (phase: Phase, micros: number) => `${Math.round((micros / (phase.seconds * 1e6)) * 100)} %`;

async function main(): Promise<void> {
  if (CONCURRENCIES.length === 0)
    throw new Error("BENCH_CHAT_CONCURRENCY must list concurrencies between 1 and 256 (Bun's fetch limit)");
  console.error(
    `bench: ${SESSIONS} sessions, concurrency ${CONCURRENCIES.join(" and ")}, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per phase, Bun ${Bun.version}`,
  );
  const flags = CPU_PROF_DIR ? ["--cpu-prof-md", `--cpu-prof-dir=${CPU_PROF_DIR}`] : [];
  // The receiver runs first: the server's webhook rule (lead.created) points at it.
  const receiver = await startChildReceiver(0);
  const server = await startChatServer(flags, receiver.url);
  try {
    const sessionsStarted = performance.now();
    const tokens = await openSessions(server, SESSIONS);
    const sessionsPerSecond = SESSIONS / ((performance.now() - sessionsStarted) / 1000);
    console.error(`opened ${tokens.length} sessions (${formatRate(sessionsPerSecond)})`);

    const schedule = buildSchedule();
    const requestsFor = requestMaker(server, tokens, schedule);
    const chatRequest = requestsFor();

    const tally: Tally = { statuses: new Map(), silent: 0 };
    const results: {
      concurrency: number;
      chat: Phase;
      notFound: Phase;
      rateRatio: number;
      insert: Phase;
      noop: Phase;
      raw: Phase;
    }[] = [];
    const short = { seconds: DIAG_SECONDS, warmupSeconds: DIAG_WARMUP_SECONDS };
    for (const concurrency of CONCURRENCIES) {
      const { notFound, chat, rateRatio } = await measureChatAndBaseline(
        server,
        concurrency,
        { notFound: requestsFor(), chat: chatRequest },
        { tally },
      );
      const insert = await measure(server, "/bench/one-insert", concurrency, requestsFor());
      const noop = await measure(server, "/bench/noop", concurrency, requestsFor(), short);
      const raw = await measure(server, "raw Bun.serve", concurrency, requestsFor(), { ...short, url: receiver.url });
      results.push({ concurrency, chat, notFound, rateRatio, insert, noop, raw });
    }
    const probeConcurrency = CONCURRENCIES[0] as number;
    const probed = await measureEventsUnderLoad(
      server,
      receiver,
      { warmupMs: WARMUP_SECONDS * 1000, durationMs: SECONDS * 1000 },
      () =>
        measure(server, "chat + events", probeConcurrency, chatRequest, {
          tally,
          url: `${server.base}/api/v1/chatbot/message`,
        }),
    );
    const { events } = probed;
    console.error(
      `events under load: ${events.arrived}/${events.sent} arrived, p50 ${formatMs(events.p50)} p99 ${formatMs(events.p99)}`,
    );
    const postgres = await measurePostgres(receiver, schedule);

    const rows: string[][] = [];
    for (const { concurrency, chat, notFound, rateRatio, insert } of results) {
      const at = `${concurrency} in flight`;
      // Only the budget's own concurrency is judged: another one is a diagnostic, not a verdict.
      const judged = (ok: boolean) => (concurrency === BUDGET_CONCURRENCY ? verdict(ok) : "info");
      const bold = (label: string) => (concurrency === BUDGET_CONCURRENCY ? `**${label}**` : label);
      const p99Ratio = chat.p99 / notFound.p99;
      rows.push(
        [
          `chat req/s, ${at}`,
          formatRate(chat.load.perSecond),
          `404 path ${formatRate(notFound.load.perSecond)}; one-insert ${formatRate(insert.load.perSecond)}`,
          "—",
          "info",
        ],
        [
          `chat p50 / p99, ${at}`,
          `${formatMs(chat.p50)} / ${formatMs(chat.p99)}`,
          `404 path ${formatMs(notFound.p50)} / ${formatMs(notFound.p99)}; one-insert ${formatMs(insert.p50)} / ${formatMs(insert.p99)}`,
          "—",
          "info",
        ],
        [
          `chat server CPU per request, ${at}`,
          cpuPerRequest(chat, chat.serverCpuMicros),
          `404 path ${cpuPerRequest(notFound, notFound.serverCpuMicros)}; one-insert ${cpuPerRequest(insert, insert.serverCpuMicros)}`,
          "—",
          "info",
        ],
        [
          `${bold("chat req/s ÷ 404 baseline req/s")}, ${at}${SLICES > 1 ? ` (median of ${SLICES} alternating pairs)` : ""}`,
          percent(rateRatio),
          "100 %",
          `≥ ${percent(BUDGET_RATE_RATIO)}`,
          judged(rateRatio >= BUDGET_RATE_RATIO),
        ],
        [
          `${bold("chat p99 ÷ 404 baseline p99")}, ${at}`,
          times(p99Ratio),
          "1.0×",
          `≤ ${times(BUDGET_P99_RATIO)}`,
          judged(p99Ratio <= BUDGET_P99_RATIO),
        ],
        [
          `chat req/s ÷ one-insert req/s, ${at}`,
          percent(chat.load.perSecond / insert.load.perSecond),
          "100 %",
          "—",
          "info",
        ],
      );
    }
    const chatUnderProbe = probed.load;
    const eventRatio = events.p99 / chatUnderProbe.p99;
    rows.push(
      [
        `event committed → first POST p50 / p99, chat at ${probeConcurrency} in flight (${events.arrived} of ${events.sent} events arrived)`,
        `${formatMs(events.p50)} / ${formatMs(events.p99)}`,
        `chat in the same window: ${formatRate(chatUnderProbe.load.perSecond)}, p50 ${formatMs(chatUnderProbe.p50)}, p99 ${formatMs(chatUnderProbe.p99)}`,
        "—",
        "info",
      ],
      [
        `**event → first POST p99 ÷ chat p99 in the same window**`,
        times(eventRatio),
        "1.0×",
        `≤ ${times(BUDGET_EVENT_P99_RATIO)}`,
        verdict(eventRatio <= BUDGET_EVENT_P99_RATIO && events.arrived === events.sent),
      ],
    );
    for (const { concurrency, chat, insert, noop, raw } of results) {
      rows.push(
        [
          `diagnostic: no-op route (same stack and schema, no DB), ${concurrency} in flight`,
          `${formatRate(noop.load.perSecond)}, p99 ${formatMs(noop.p99)}`,
          `raw Bun.serve answering "ok" ${formatRate(raw.load.perSecond)}, p99 ${formatMs(raw.p99)}`,
          "—",
          "info",
        ],
        [
          `diagnostic: server CPU per request, ${concurrency} in flight`,
          `chat ${cpuPerRequest(chat, chat.serverCpuMicros)}`,
          `one-insert ${cpuPerRequest(insert, insert.serverCpuMicros)}, no-op ${cpuPerRequest(noop, noop.serverCpuMicros)}`,
          "—",
          "info",
        ],
        [
          `diagnostic: CPU used during the chat phase, ${concurrency} in flight (of 2 cores)`,
          `server ${coreShare(chat, chat.serverCpuMicros)} of a core`,
          `load generator ${coreShare(chat, chat.clientCpuMicros)} of a core`,
          "—",
          "info",
        ],
      );
    }
    const all = [
      ...results.flatMap(({ chat, notFound, insert, noop, raw }) => [chat, notFound, insert, noop, raw]),
      chatUnderProbe,
    ];
    const chatFailures = [...results.map(({ chat }) => chat), chatUnderProbe].map(describeFailures).join(" / ");
    const baselineFailures = results
      .flatMap(({ notFound, insert, noop, raw }) => [
        describeFailures(notFound),
        describeFailures(insert),
        describeFailures(noop),
        describeFailures(raw),
      ])
      .join(" / ");
    rows.push(
      [
        "non-200 responses or errors, chat (per concurrency)",
        chatFailures,
        `baselines ${baselineFailures}`,
        "0",
        verdict(all.every((phase) => nonOk(phase) === 0)),
      ],
      [
        "chat answers by session status",
        [...tally.statuses].map(([status, n]) => `${status} ${n.toLocaleString("en-US")}`).join(", "),
        `silent (no bot reply) ${tally.silent.toLocaleString("en-US")}`,
        "—",
        "info",
      ],
      [
        `diagnostic: POST /widget/session, ${SESSION_CONCURRENCY} in flight`,
        formatRate(sessionsPerSecond),
        "—",
        "—",
        "info",
      ],
    );
    if (postgres) {
      for (const { concurrency, one, two } of postgres.results) {
        const sqlite = results.find((result) => result.concurrency === concurrency);
        if (!sqlite) continue;
        const at = `${concurrency} in flight`;
        for (const [label, phases] of [
          [`one server on PostgreSQL`, one],
          [`two servers on one PostgreSQL database, load spread over both`, two],
        ] as const) {
          rows.push(
            [
              `PostgreSQL: chat req/s, ${label}, ${at}`,
              formatRate(phases.chat.load.perSecond),
              `SQLite chat ${formatRate(sqlite.chat.load.perSecond)}; 404 path on PostgreSQL ${formatRate(phases.notFound.load.perSecond)}, on SQLite ${formatRate(sqlite.notFound.load.perSecond)}`,
              "—",
              "info",
            ],
            [
              `PostgreSQL: chat p50 / p99, ${label}, ${at}`,
              `${formatMs(phases.chat.p50)} / ${formatMs(phases.chat.p99)}`,
              `SQLite chat ${formatMs(sqlite.chat.p50)} / ${formatMs(sqlite.chat.p99)}; 404 path on PostgreSQL ${formatMs(phases.notFound.p50)} / ${formatMs(phases.notFound.p99)}`,
              "—",
              "info",
            ],
            [
              `PostgreSQL: chat server CPU per request (all servers), ${label}, ${at}`,
              cpuPerRequest(phases.chat, phases.chat.serverCpuMicros),
              `SQLite chat ${cpuPerRequest(sqlite.chat, sqlite.chat.serverCpuMicros)}; 404 path on PostgreSQL ${cpuPerRequest(phases.notFound, phases.notFound.serverCpuMicros)}`,
              "—",
              "info",
            ],
          );
        }
      }
      const pgPhases = postgres.results.flatMap(({ one, two }) => [one.chat, one.notFound, two.chat, two.notFound]);
      rows.push(
        [
          `PostgreSQL: non-200 responses or errors (chat and 404 phases) — ${postgres.description}`,
          pgPhases.map(describeFailures).join(" / "),
          "—",
          "—",
          "info",
        ],
        [
          "PostgreSQL: chat answers by session status",
          [...postgres.tally.statuses].map(([status, n]) => `${status} ${n.toLocaleString("en-US")}`).join(", "),
          `silent (no bot reply) ${postgres.tally.silent.toLocaleString("en-US")}`,
          "—",
          "info",
        ],
        [
          `PostgreSQL: POST /widget/session, ${SESSION_CONCURRENCY} in flight`,
          formatRate(postgres.sessionsPerSecond),
          `SQLite ${formatRate(sessionsPerSecond)}`,
          "—",
          "info",
        ],
      );
    }
    console.log(markdownTable(["measure", "result", "baseline (same run)", "budget", "verdict"], rows));
    if (!postgres) console.log("\nPostgreSQL rows skipped (BENCH_PG=off, or no PostgreSQL server programs found).");
  } finally {
    await server.stop();
    await receiver.stop();
  }
}

interface PgPhases {
  notFound: Phase;
  chat: Phase;
}

/**
 * Two server children on one fresh PostgreSQL database (the second uses the first's tenant);
 * sessions opened on the first. For each concurrency: the 404 baseline and the chat load
 * against the first server alone, then both spread over the two (lane i → server i mod 2). The
 * second server is idle during the one-server phases (its scheduler polls every 250 ms).
 */
async function measurePostgres(receiver: ChildReceiver, schedule: readonly string[]) {
  const pg = await openBenchPostgres();
  if (!pg) return null;
  const servers: ChatServer[] = [];
  let url: string | null = null;
  try {
    console.error(`PostgreSQL: ${pg.description}`);
    url = await pg.createDatabase();
    const first = await startChatServer([], receiver.url, url);
    servers.push(first);
    servers.push(await startChatServer([], receiver.url, url, first.tenantId));
    const sessionsStarted = performance.now();
    const tokens = await openSessions(first, SESSIONS);
    const sessionsPerSecond = SESSIONS / ((performance.now() - sessionsStarted) / 1000);
    const requestsFor = requestMaker(first, tokens, schedule);
    const chatRequest = requestsFor();
    const tally: Tally = { statuses: new Map(), silent: 0 };
    const results: { concurrency: number; one: PgPhases; two: PgPhases }[] = [];
    for (const concurrency of CONCURRENCIES) {
      const one = await measureChatAndBaseline(
        first,
        concurrency,
        { notFound: requestsFor(), chat: chatRequest },
        { tally },
      );
      const two = await measureChatAndBaseline(
        first,
        concurrency,
        { notFound: requestsFor(), chat: chatRequest },
        { tally, servers },
      );
      results.push({ concurrency, one, two });
    }
    return { description: pg.description, sessionsPerSecond, tally, results };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    if (url) await pg.dropDatabase(url).catch((error) => console.error(`could not drop ${url}: ${error}`));
    await pg.stop();
  }
}

await main();
process.exit(0);
