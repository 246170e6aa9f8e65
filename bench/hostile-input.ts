/**
 * Chat latency while hostile bodies arrive at full speed (DESIGN §8: "any body up to the size
 * limit, however nested: answered < 500 within 1 s; chat p99 under such an attack ≤ 1.5×
 * without"). Not a test: it measures and prints tables.
 *
 *   npx bun bench/hostile-input.ts
 *
 * Env: BENCH_HOSTILE_SECONDS (10) measured per side, split into BENCH_HOSTILE_SLICES (5)
 * alternating slices; BENCH_HOSTILE_CONCURRENCY (64) chat requests in flight;
 * BENCH_HOSTILE_ATTACKERS (4) attacking clients.
 *
 * 1. Calibration: each candidate body (nested arrays or objects at the depth limit and far past
 *    it, up to the 64 KiB body limit, on the two routes that need no login) is sent 40 times in
 *    a row; the one that costs the server most per request is the attack.
 * 2. The chat load (the real app in a child process, 64 visitor messages in flight) runs in
 *    alternating slices without and with the attack; the attack comes from a second child
 *    process (so its own work does not slow this process's load generator), 4 closed loops
 *    sending the worst body as fast as the server answers. The verdict is the median of the
 *    adjacent pairs' p99 ratios.
 */
import { percentileOf, runLoad, startChatServer, type ChatServer, type LoadResult } from "./chat-lib.ts";
import { envInt, formatMs, formatRate, markdownTable, median } from "./lib.ts";

const SECONDS = envInt("BENCH_HOSTILE_SECONDS", 10);
const SLICES = envInt("BENCH_HOSTILE_SLICES", 5);
const CONCURRENCY = envInt("BENCH_HOSTILE_CONCURRENCY", 64);
const ATTACKERS = envInt("BENCH_HOSTILE_ATTACKERS", 4);
const SESSIONS = 500;
const BUDGET_P99_RATIO = 1.5;
const CALIBRATION_REQUESTS = 40;
const BODY_LIMIT = 64 * 1024;

const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

interface Attack {
  name: string;
  path: string;
  body: string;
}

function candidates(tenantId: string): Attack[] {
  const head = `{"tenant_id":"${tenantId}"`;
  const fill = (unit: string) =>
    Array.from({ length: Math.floor((BODY_LIMIT - 200) / (unit.length + 1)) }, () => unit).join(",");
  const bodies: Array<[string, string]> = [
    ["arrays 30,000 deep in an unknown key", `${head},"x":${arrays(30_000)}}`],
    ["objects 12,000 deep in an unknown key", `${head},"x":${objects(12_000)}}`],
    ["arrays 5,000 deep in a string field", `${head},"message":${arrays(5_000)}}`],
    ["arrays 31 deep, repeated to 64 KiB", `${head},"x":[${fill(arrays(30))}]}`],
    ["objects 31 deep, repeated to 64 KiB", `${head},"x":[${fill(objects(30))}]}`],
    ["3,000 unknown keys", `${head},${Array.from({ length: 3_000 }, (_, i) => `"k${i}":[[1]]`).join(",")}}`],
  ];
  return bodies.flatMap(([name, body]) => [
    { name: `${name} → /widget/session`, path: "/api/v1/widget/session", body },
    {
      name: `${name} → /auth/token`,
      path: "/api/v1/auth/token",
      body: body.replace(head, '{"email":"a@b.test","password":"x"'),
    },
  ]);
}

async function calibrate(server: ChatServer, attack: Attack): Promise<{ msPerRequest: number; statuses: string }> {
  const statuses = new Map<number, number>();
  const started = performance.now();
  for (let i = 0; i < CALIBRATION_REQUESTS; i++) {
    const response = await fetch(`${server.base}${attack.path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: attack.body,
    });
    await response.arrayBuffer();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  }
  return {
    msPerRequest: (performance.now() - started) / CALIBRATION_REQUESTS,
    statuses: [...statuses].map(([status, n]) => `${status}×${n}`).join(" "),
  };
}

export async function openSessions(server: ChatServer): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const response = await fetch(`${server.base}/api/v1/widget/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tenant_id: server.tenantId }),
    });
    if (response.status !== 201) throw new Error(`widget session: ${response.status} ${await response.text()}`);
    tokens.push(((await response.json()) as { access_token: string }).access_token);
  }
  return tokens;
}

const QUESTIONS = [
  "What are your opening hours?",
  "Do you take insurance?",
  "Hi there!",
  "Where can I park?",
  "How much does a cleaning cost?",
];

export function chatLoad(server: ChatServer, tokens: readonly string[], seconds: number): Promise<LoadResult> {
  let sent = 0;
  return runLoad({
    url: `${server.base}/api/v1/chatbot/message`,
    concurrency: CONCURRENCY,
    warmupMs: 500,
    durationMs: seconds * 1000,
    request: () => {
      const k = sent++;
      return {
        headers: { "content-type": "application/json", authorization: `Bearer ${tokens[k % tokens.length]}` },
        body: JSON.stringify({ tenant_id: server.tenantId, message: QUESTIONS[k % QUESTIONS.length] }),
      };
    },
  });
}

export interface LoopChild {
  stop(): Promise<{ sent: number; statuses: string }>;
}

/** A child process of `script` with `args` (its closed loops, runClientLoops), fed `stdin`; stopping it gives its report. */
export function startLoopChild(script: string, args: readonly string[], stdin = ""): LoopChild {
  const child = Bun.spawn([process.execPath, script, ...args], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  child.stdin.write(stdin);
  child.stdin.end();
  return {
    async stop() {
      child.kill("SIGTERM");
      const report = await new Response(child.stdout).text();
      await child.exited;
      return JSON.parse(report || '{"sent":0,"statuses":""}') as { sent: number; statuses: string };
    },
  };
}

/** `lanes` closed loops of `send` (which answers a status) until SIGTERM; prints what they sent on stdout. */
export async function runClientLoops(lanes: number, send: () => Promise<number>): Promise<void> {
  let stopping = false;
  let sent = 0;
  const statuses = new Map<number, number>();
  process.once("SIGTERM", () => {
    stopping = true;
  });
  // Bounded: a child whose parent died stops by itself.
  const deadline = performance.now() + 10 * 60_000;
  const lane = async () => {
    while (!stopping && performance.now() < deadline) {
      try {
        const status = await send();
        sent++;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      } catch {
        await Bun.sleep(1);
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  process.stdout.write(
    JSON.stringify({ sent, statuses: [...statuses].map(([status, n]) => `${status}×${n}`).join(" ") }),
  );
}

/** The attack in a child process: ATTACKERS closed loops until stopped; it reports what it sent. */
const startAttacker = (server: ChatServer, attack: Attack): LoopChild =>
  startLoopChild(import.meta.path, ["attack", `${server.base}${attack.path}`, String(ATTACKERS)], attack.body);

async function runAttackChild(url: string, lanes: number): Promise<void> {
  const body = await Bun.stdin.text();
  await runClientLoops(lanes, async () => {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    await response.arrayBuffer();
    return response.status;
  });
}

async function main(): Promise<void> {
  const server = await startChatServer();
  try {
    console.log("Calibration: each candidate sent alone, one at a time\n");
    const rows: string[][] = [];
    let worst: { attack: Attack; ms: number } | null = null;
    for (const attack of candidates(server.tenantId)) {
      const { msPerRequest, statuses } = await calibrate(server, attack);
      rows.push([attack.name, `${(attack.body.length / 1024).toFixed(1)} KiB`, formatMs(msPerRequest), statuses]);
      if (!worst || msPerRequest > worst.ms) worst = { attack, ms: msPerRequest };
    }
    console.log(markdownTable(["body", "size", "time a request", "statuses"], rows));
    if (!worst) return;
    console.log(`\nThe attack: ${worst.attack.name}, ${ATTACKERS} clients at full speed\n`);

    const tokens = await openSessions(server);
    const sliceSeconds = Math.max(1, SECONDS / SLICES);
    const pairs: Array<{ calm: LoadResult; attacked: LoadResult; attack: { sent: number; statuses: string } }> = [];
    for (let slice = 0; slice < SLICES; slice++) {
      const calm = await chatLoad(server, tokens, sliceSeconds);
      const attacker = startAttacker(server, worst.attack);
      await Bun.sleep(200);
      const attacked = await chatLoad(server, tokens, sliceSeconds);
      pairs.push({ calm, attacked, attack: await attacker.stop() });
    }
    const ratios = pairs.map(
      ({ calm, attacked }) => percentileOf(attacked.latencies, 99) / percentileOf(calm.latencies, 99),
    );
    console.log(
      markdownTable(
        [
          "slice",
          "chat alone",
          "p99 alone",
          "chat attacked",
          "p99 attacked",
          "p99 ratio",
          "attack requests",
          "attack statuses",
        ],
        pairs.map(({ calm, attacked, attack }, i) => [
          String(i + 1),
          formatRate(calm.perSecond),
          formatMs(percentileOf(calm.latencies, 99)),
          formatRate(attacked.perSecond),
          formatMs(percentileOf(attacked.latencies, 99)),
          `${(ratios[i] ?? Number.NaN).toFixed(2)}×`,
          `${Math.round(attack.sent / (sliceSeconds + 0.7))}/s`,
          attack.statuses,
        ]),
      ),
    );
    const verdict = median(ratios);
    console.log(
      `\nChat p99 under attack ÷ without (median of ${SLICES} pairs): ${verdict.toFixed(2)}× — budget ≤ ${BUDGET_P99_RATIO}×: ${verdict <= BUDGET_P99_RATIO ? "met" : "MISSED"}`,
    );
    const failed = pairs
      .flatMap(({ calm, attacked }) => [...calm.failures, ...attacked.failures])
      .filter(([status]) => status >= 500);
    if (failed.length > 0)
      console.log(`Chat answers ≥ 500 during the run: ${failed.map(([status, n]) => `${status}×${n}`).join(" ")}`);
  } finally {
    await server.stop();
  }
}

if (import.meta.main) {
  if (process.argv[2] === "attack") await runAttackChild(process.argv[3] ?? "", Number(process.argv[4] ?? "4"));
  else await main();
}
