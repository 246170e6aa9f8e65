/**
 * POST /api/v1/chatbot/message on PostgreSQL against SQLite, in the same run. Not a test: it
 * measures and prints a table.
 *
 *   npx bun bench/chat-pg.ts
 *
 * Four server children (bench/chat-lib.ts: the real app, rate limits off, a business-plan tenant
 * whose every message is counted): SQLite as shipped (`PARLEY_SYNC=normal`, no flush at commit),
 * SQLite with `PARLEY_SYNC=full` (a flush per commit), and PostgreSQL on a throwaway cluster with
 * fsync on (unless BENCH_PG_FSYNC=off) and pg_stat_statements preloaded, once on a database with
 * `synchronous_commit` on (a flush per commit) and once on one with it off (BENCH_PG_URL: a
 * server of yours, which must preload pg_stat_statements itself). The same chat load
 * (bench/chat-mix.ts) runs against each in alternated rounds — in order, then the other way
 * round — so the machine's drift reaches all sides; each ratio is the median of the rounds'
 * ratios. The budget compares PostgreSQL durable at each commit with SQLite as shipped; the two
 * like-for-like pairs compare flush with flush and no flush with no flush. For PostgreSQL with
 * `synchronous_commit` on it also reads what the server did per message: statements executed
 * (each a round trip: Bun's client does not pipeline), the turns each turn-end statement carried
 * (concurrent turns share one: group commit), their execution time, and the CPU time of the
 * cluster's processes.
 *
 * Env: BENCH_CHAT_SESSIONS (2000) sessions per server, BENCH_CHAT_PG_CONCURRENCY (64) requests in
 * flight, BENCH_CHAT_PG_ROUNDS (3), BENCH_CHAT_PG_SECONDS (4) measured per side and round after
 * BENCH_CHAT_PG_WARMUP_SECONDS (1); BENCH_CHAT_PG_PROFILE (a directory): the PostgreSQL
 * (synchronous_commit on) server runs with `--cpu-prof-md`, its profile written there at exit.
 */
import { SQL } from "bun";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { envInt, formatMs, formatRate, markdownTable, median, openBenchPostgres } from "./lib.ts";
import { percentileOf, runLoad, startChatServer, type ChatServer, type LoadResult } from "./chat-lib.ts";
import { buildSchedule, openSessions, requestMaker } from "./chat-mix.ts";

const SESSIONS = envInt("BENCH_CHAT_SESSIONS", 2_000);
const CONCURRENCY = envInt("BENCH_CHAT_PG_CONCURRENCY", 64);
const ROUNDS = envInt("BENCH_CHAT_PG_ROUNDS", 3);
const SECONDS = envInt("BENCH_CHAT_PG_SECONDS", 4);
const WARMUP_SECONDS = envInt("BENCH_CHAT_PG_WARMUP_SECONDS", 1);
const PROFILE_DIR = process.env.BENCH_CHAT_PG_PROFILE ?? "";
const ROUTE = "/api/v1/chatbot/message";
/** docs/scale-out.md's budgets: PostgreSQL chat at least half of SQLite's, p99 at most 3× SQLite's. */
const BUDGET_RATE_RATIO = 0.5;
const BUDGET_P99_RATIO = 3;

interface Side {
  name: string;
  server: ChatServer;
  next: () => () => import("./chat-lib.ts").LoadRequest;
  slices: LoadResult[];
  serverCpuMicros: number;
}

/** What PostgreSQL did during the PostgreSQL slices: statements by queryid, and its processes' CPU. */
interface PgWork {
  statements: Map<string, { query: string; calls: number; ms: number; rows: number }>;
  cpuMicros: number | null;
}

/** CPU time (µs) of the cluster's postmaster and its children, the exited ones included (cutime). */
function clusterCpuMicros(dataDir: string | null): number | null {
  if (dataDir === null) return null;
  const ticks = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
  const postmaster = Number(readFileSync(join(dataDir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
  const fields = (pid: string | number): string[] | null => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    } catch {
      return null; // exited meanwhile: its time is in the postmaster's cutime once reaped
    }
  };
  // After ")": state is field 3, so ppid is index 1, utime 11, stime 12, cutime 13, cstime 14.
  const own = fields(postmaster);
  if (!own) return null;
  let total = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const child = fields(pid);
    if (child && Number(child[1]) === postmaster) total += Number(child[11]) + Number(child[12]);
  }
  return (total / ticks) * 1e6;
}

/**
 * The statements the clients sent (`toplevel`): a SQL function an index calls may be listed as a
 * statement of its own, which is no round trip and whose time is already in the statement that
 * called it. Keyed by queryid: after a reset, an entry made by executing an already prepared
 * statement keeps its constants in its text, one made at parse time has them as `$n`.
 */
async function readStatements(
  stats: SQL,
): Promise<Array<{ queryid: string; query: string; calls: number; ms: number; rows: number }>> {
  return (await stats`SELECT queryid::text AS queryid, query, calls::float8 AS calls, total_exec_time AS ms, rows::float8 AS rows FROM pg_stat_statements
    WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND toplevel
      AND query NOT LIKE '%pg_stat_statements%'`) as Array<{
    queryid: string;
    query: string;
    calls: number;
    ms: number;
    rows: number;
  }>;
}

async function runSlice(side: Side, request: () => import("./chat-lib.ts").LoadRequest): Promise<void> {
  const before = await side.server.cpuMicros();
  side.slices.push(
    await runLoad({
      url: `${side.server.base}${ROUTE}`,
      concurrency: CONCURRENCY,
      warmupMs: WARMUP_SECONDS * 1000,
      durationMs: SECONDS * 1000,
      request,
    }),
  );
  side.serverCpuMicros += (await side.server.cpuMicros()) - before;
}

const allLatencies = (side: Side): Float64Array => {
  const merged = new Float64Array(side.slices.reduce((sum, slice) => sum + slice.latencies.length, 0));
  let offset = 0;
  for (const slice of side.slices) {
    merged.set(slice.latencies, offset);
    offset += slice.latencies.length;
  }
  return merged.sort();
};
const totalOf = (side: Side): number => side.slices.reduce((sum, slice) => sum + slice.total, 0);
const nonOk = (side: Side): number =>
  side.slices.reduce((sum, slice) => sum + slice.errors + [...slice.failures.values()].reduce((a, b) => a + b, 0), 0);
const verdict = (ok: boolean) => (ok ? "✅ met" : "❌ missed");
const micros = (value: number) => `${Math.round(value).toLocaleString("en-US")} µs`;

async function main(): Promise<void> {
  // The budget is PostgreSQL durable at each commit: fsync on unless asked otherwise.
  process.env.BENCH_PG_FSYNC ??= "on";
  const pg = await openBenchPostgres({ shared_preload_libraries: "pg_stat_statements" });
  if (!pg) return;
  const servers: ChatServer[] = [];
  const urls: string[] = [];
  let url: string | null = null;
  let stats: SQL | null = null;
  try {
    url = await pg.createDatabase();
    urls.push(url);
    stats = new SQL({ url, max: 1 });
    await stats`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
    console.error(
      `bench: ${SESSIONS} sessions per server, ${CONCURRENCY} in flight, ${ROUNDS} rounds of ${WARMUP_SECONDS} s + ${SECONDS} s per side; ${pg.description}; Bun ${Bun.version}`,
    );
    const schedule = buildSchedule();
    const unflushedUrl = await pg.createDatabase();
    urls.push(unflushedUrl);
    await stats.unsafe(`ALTER DATABASE ${new URL(unflushedUrl).pathname.slice(1)} SET synchronous_commit = off`);
    const sides: Side[] = [];
    for (const [name, location, sync] of [
      ["PostgreSQL", url, "normal"],
      ["SQLite", "", "normal"],
      ["SQLite full", "", "full"],
      ["PostgreSQL unflushed", unflushedUrl, "normal"],
    ] as const) {
      const profile = PROFILE_DIR && location === url ? ["--cpu-prof-md", `--cpu-prof-dir=${PROFILE_DIR}`] : [];
      const server = await startChatServer(profile, "", location, "", sync);
      servers.push(server);
      const tokens = await openSessions(server, SESSIONS);
      const requests = requestMaker(server, tokens, schedule);
      sides.push({ name, server, next: requests, slices: [], serverCpuMicros: 0 });
    }
    const postgres = sides[0] as Side;
    const requestsOf = new Map(sides.map((side) => [side, side.next()]));
    const work: PgWork = { statements: new Map(), cpuMicros: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const isPg = side === postgres;
        if (isPg) await stats`SELECT pg_stat_statements_reset()`;
        const cpuBefore = isPg ? clusterCpuMicros(pg.dataDir) : null;
        await runSlice(side, requestsOf.get(side) as () => import("./chat-lib.ts").LoadRequest);
        if (isPg) {
          const cpuAfter = clusterCpuMicros(pg.dataDir);
          work.cpuMicros =
            cpuBefore === null || cpuAfter === null || work.cpuMicros === null
              ? null
              : work.cpuMicros + cpuAfter - cpuBefore;
          for (const row of await readStatements(stats)) {
            const seen = work.statements.get(row.queryid) ?? { query: row.query, calls: 0, ms: 0, rows: 0 };
            work.statements.set(row.queryid, {
              ...seen,
              calls: seen.calls + Number(row.calls),
              ms: seen.ms + Number(row.ms),
              rows: seen.rows + Number(row.rows),
            });
          }
        }
        console.error(`round ${round + 1} ${side.name}: ${formatRate((side.slices.at(-1) as LoadResult).perSecond)}`);
      }
    }
    printTable(sides, work, pg.description);
  } finally {
    await stats?.close();
    await Promise.all(servers.map((server) => server.stop()));
    for (const each of urls)
      await pg.dropDatabase(each).catch((error) => console.error(`could not drop ${each}: ${error}`));
    await pg.stop();
  }
}

/** The median of the rounds' ratios of `a`'s rate to `b`'s, with the ratios themselves. */
function ratioOf(a: Side, b: Side): { median: number; each: string } {
  const ratios = a.slices.map((slice, index) => slice.perSecond / (b.slices[index] as LoadResult).perSecond);
  return { median: median(ratios), each: ratios.map((r) => `${Math.round(r * 100)} %`).join(", ") };
}

function printTable(sides: Side[], work: PgWork, description: string): void {
  const [postgres, sqlite, sqliteFull, unflushed] = sides as [Side, Side, Side, Side];
  const ratio = ratioOf(postgres, sqlite);
  const flushed = ratioOf(postgres, sqliteFull);
  const neither = ratioOf(unflushed, sqlite);
  const [liteLatencies, pgLatencies] = [allLatencies(sqlite), allLatencies(postgres)];
  const p99Ratio = percentileOf(pgLatencies, 99) / percentileOf(liteLatencies, 99);
  const messages = totalOf(postgres);
  const statements = [...work.statements.entries()].sort((a, b) => b[1].calls - a[1].calls);
  const calls = statements.reduce((sum, [, each]) => sum + each.calls, 0);
  const statementMs = statements.reduce((sum, [, each]) => sum + each.ms, 0);
  // A turn's end updates its session: the sessions updated per call are the turns it carried.
  const turnEnds = statements.filter(([, each]) =>
    /INSERT INTO chat_messages[\s\S]*UPDATE chat_sessions/.test(each.query),
  );
  const turnsPerEnd =
    turnEnds.reduce((sum, [, each]) => sum + each.rows, 0) / turnEnds.reduce((sum, [, each]) => sum + each.calls, 0);
  const cells = (of: (side: Side) => string) => sides.map(of);
  const latency = (side: Side) => {
    const sorted = allLatencies(side);
    return `${formatMs(percentileOf(sorted, 50))} / ${formatMs(percentileOf(sorted, 99))}`;
  };
  const pgOnly = (value: string) => [value, "—", "—", "—"];
  const rows: string[][] = [
    [
      `chat messages/s, ${CONCURRENCY} in flight (median of ${ROUNDS} rounds)`,
      ...cells((side) => formatRate(median(side.slices.map((s) => s.perSecond)))),
      "—",
      "info",
    ],
    ["per round", ...cells((side) => side.slices.map((slice) => formatRate(slice.perSecond)).join(", ")), "—", "info"],
    [
      `**PostgreSQL ÷ SQLite messages/s**, each commit flushed ÷ as shipped (rounds: ${ratio.each})`,
      `${Math.floor(ratio.median * 100)} %`,
      "100 %",
      "—",
      "—",
      `≥ ${BUDGET_RATE_RATIO * 100} %`,
      verdict(ratio.median >= BUDGET_RATE_RATIO),
    ],
    [
      `like for like, flushed: PostgreSQL ÷ SQLite full (rounds: ${flushed.each})`,
      `${Math.floor(flushed.median * 100)} %`,
      "—",
      "100 %",
      "—",
      "—",
      "info",
    ],
    [
      `like for like, unflushed: PostgreSQL synchronous_commit off ÷ SQLite as shipped (rounds: ${neither.each})`,
      "—",
      "100 %",
      "—",
      `${Math.floor(neither.median * 100)} %`,
      "—",
      "info",
    ],
    ["chat p50 / p99", ...cells(latency), "—", "info"],
    [
      "**PostgreSQL p99 ÷ SQLite p99** (flushed ÷ as shipped)",
      `${p99Ratio.toFixed(2)}×`,
      "1.00×",
      "—",
      "—",
      `≤ ${BUDGET_P99_RATIO}×`,
      verdict(p99Ratio <= BUDGET_P99_RATIO),
    ],
    [
      "statements (round trips) per message, PostgreSQL (pg_stat_statements calls ÷ messages)",
      ...pgOnly((calls / messages).toFixed(2)),
      "≤ 3",
      verdict(calls / messages <= 3),
    ],
    [
      "turns per turn-end statement, PostgreSQL (sessions updated ÷ calls: concurrent turns share one, src/db/postgres/chat-batch.ts)",
      ...pgOnly(Number.isFinite(turnsPerEnd) ? turnsPerEnd.toFixed(1) : "n/a"),
      "—",
      "info",
    ],
    [
      "PostgreSQL statement time per message (execution, lock waits included)",
      ...pgOnly(micros((statementMs * 1000) / messages)),
      "—",
      "info",
    ],
    [
      "PostgreSQL processes' CPU per message",
      ...pgOnly(work.cpuMicros === null ? "n/a (BENCH_PG_URL)" : micros(work.cpuMicros / messages)),
      "—",
      "info",
    ],
    ["Parley server CPU per message", ...cells((side) => micros(side.serverCpuMicros / totalOf(side))), "—", "info"],
    [
      "non-200 responses or errors",
      ...cells((side) => String(nonOk(side))),
      "0",
      verdict(sides.every((side) => nonOk(side) === 0)),
    ],
  ];
  console.log(`${description}\n`);
  console.log(
    markdownTable(
      [
        "measure",
        "PostgreSQL, synchronous_commit on",
        "SQLite as shipped (normal)",
        "SQLite PARLEY_SYNC=full",
        "PostgreSQL, synchronous_commit off",
        "budget",
        "verdict",
      ],
      rows,
    ),
  );
  const top = statements
    .slice(0, 12)
    .map(([, each]) => [
      `\`${each.query.replace(/\s+/g, " ").slice(0, 90)}\``,
      (each.calls / messages).toFixed(3),
      micros((each.ms * 1000) / each.calls),
      (each.rows / each.calls).toFixed(1),
    ]);
  console.log(`\nPostgreSQL statements by calls (${messages.toLocaleString("en-US")} messages)\n`);
  console.log(markdownTable(["statement", "calls per message", "mean time", "rows per call"], top));
}

await main();
process.exit(0);
