/**
 * Binary start → /readyz answers, and idle RSS (DESIGN §8: ≤ 200 ms, ≤ 120 MB), next to a
 * baseline measured in the same run: a minimal Bun.serve program compiled the way `npm run
 * build` compiles Parley (--compile --bytecode), the floor the Bun runtime itself sets. Each
 * binary starts RUNS times in a fresh empty directory.
 *
 *   npx bun bench/startup.ts
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { formatMs, markdownTable, percentile } from "./lib.ts";

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 10);

function build(entry: string, outfile: string): void {
  const result = Bun.spawnSync([process.execPath, "build", entry, "--compile", "--bytecode", "--outfile", outfile], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (result.exitCode !== 0) throw new Error(`build of ${entry} failed: ${result.stderr.toString()}`);
}

/** Starts `argv` in a fresh directory; returns ms until /readyz (or /) answers 200, and RSS after 2 s idle. */
async function measure(argv: string[], readyPath: string): Promise<{ readyMs: number; rssMb: number }> {
  const dir = mkdtempSync(join(tmpdir(), "parley-startup-"));
  const started = performance.now();
  const child = Bun.spawn(argv, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, PARLEY_LOG_LEVEL: "error" },
    stdout: "pipe",
    stderr: "ignore",
  });
  try {
    const reader = child.stdout.getReader();
    let text = "";
    let base: string | undefined;
    const deadline = started + 10_000;
    while (!base) {
      if (performance.now() > deadline) throw new Error(`no address printed: ${text}`);
      const { value, done } = await reader.read();
      if (done) throw new Error(`exited: ${text}`);
      text += new TextDecoder().decode(value);
      base = /listening on (http:\/\/\S+)/.exec(text)?.[1];
    }
    let readyMs = Number.NaN;
    for (let i = 0; i < 2000 && Number.isNaN(readyMs); i++) {
      const response = await fetch(`${base}${readyPath}`).catch(() => null);
      if (response?.status === 200) readyMs = performance.now() - started;
    }
    await Bun.sleep(2000);
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    return { readyMs, rssMb: rssKb / 1024 };
  } finally {
    child.kill("SIGTERM");
    await child.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

async function series(argv: string[], readyPath: string) {
  const ready: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { readyMs, rssMb } = await measure(argv, readyPath);
    ready.push(readyMs);
    rss.push(rssMb);
  }
  ready.sort((a, b) => a - b);
  rss.sort((a, b) => a - b);
  return { p50: percentile(ready, 50), max: ready.at(-1) ?? Number.NaN, rss: percentile(rss, 50) };
}

const work = mkdtempSync(join(tmpdir(), "parley-startup-build-"));
try {
  const parley = join(work, "parley");
  const baseline = join(work, "baseline");
  const baselineSource = join(work, "baseline.ts");
  writeFileSync(
    baselineSource,
    'const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });\nconsole.log(`listening on http://127.0.0.1:${server.port}`);\n',
  );
  build(join(ROOT, "src/main.ts"), parley);
  build(baselineSource, baseline);

  const ours = await series([parley, "serve", "--host", "127.0.0.1", "--port", "0"], "/readyz");
  const floor = await series([baseline], "/");
  const verdict = (ok: boolean) => (ok ? "✅ met" : "❌ missed");
  console.log(
    markdownTable(
      ["measure", "result", "baseline (same run)", "budget", "verdict"],
      [
        [
          `start → /readyz 200, median of ${RUNS} (empty dir: creates and migrates the database)`,
          formatMs(ours.p50),
          `minimal Bun.serve binary ${formatMs(floor.p50)}`,
          "≤ 200 ms",
          verdict(ours.p50 <= 200),
        ],
        [
          `start → /readyz 200, slowest of ${RUNS}`,
          formatMs(ours.max),
          `minimal Bun.serve binary ${formatMs(floor.max)}`,
          "≤ 200 ms",
          verdict(ours.max <= 200),
        ],
        [
          "idle RSS 2 s after ready (median)",
          `${ours.rss.toFixed(1)} MB`,
          `minimal Bun.serve binary ${floor.rss.toFixed(1)} MB`,
          "≤ 120 MB",
          verdict(ours.rss <= 120),
        ],
      ],
    ),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
