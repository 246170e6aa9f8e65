import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A throwaway PostgreSQL cluster for the tests and benchmarks: `initdb` + `pg_ctl` from
 * Debian's postgresql package, in a temp directory, on a free loopback port, trust auth, no
 * fsync. As root the server programs run as the `postgres` user (initdb refuses root).
 */
export interface Cluster {
  readonly url: string;
  readonly dataDir: string;
  stop(): void;
}

/** initdb/pg_ctl: on PATH, else the newest /usr/lib/postgresql/<n>/bin (Debian keeps them off PATH). */
export function findServerBin(): string | null {
  const onPath = spawnSync("sh", ["-c", "command -v pg_ctl"], { encoding: "utf8" }).stdout.trim();
  if (onPath && existsSync(join(onPath, "..", "initdb"))) return join(onPath, "..");
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, "bin");
    if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"))) return bin;
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function run(bin: string, args: string[], asPostgres: boolean): void {
  const command = asPostgres ? "runuser" : bin;
  const argv = asPostgres ? ["-u", "postgres", "--", bin, ...args] : args;
  const result = spawnSync(command, argv, { encoding: "utf8", cwd: "/" });
  if (result.status !== 0)
    throw new Error(`${bin} ${args.join(" ")} failed (${result.status}): ${result.stderr || result.stdout}`);
}

export interface ClusterOptions {
  /**
   * "fast" (the default, for tests): fsync, synchronous_commit and full_page_writes off.
   * "durable": PostgreSQL's defaults for those three (fsync on every commit), for benchmarks
   * that want a durable setup.
   */
  durability?: "fast" | "durable";
  /** More server settings (`-c name=value`), e.g. shared_preload_libraries for a benchmark. */
  settings?: Readonly<Record<string, string>>;
}

export async function startCluster(clusterOptions: ClusterOptions = {}): Promise<Cluster> {
  const bin = findServerBin();
  if (!bin) throw new Error("PostgreSQL server programs not found (install Debian's postgresql)");
  const asPostgres = process.getuid?.() === 0;
  const dataDir = mkdtempSync(join(tmpdir(), "parley-pg-"));
  if (asPostgres) {
    chmodSync(dataDir, 0o777);
    run("chown", ["postgres:postgres", dataDir], false);
  }
  const pgdata = join(dataDir, "data");
  run(
    join(bin, "initdb"),
    ["-D", pgdata, "-U", "parley", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"],
    asPostgres,
  );
  const port = await freePort();
  const durability =
    clusterOptions.durability === "durable" ? "" : "-c fsync=off -c synchronous_commit=off -c full_page_writes=off ";
  const settings = Object.entries(clusterOptions.settings ?? {})
    .map(([name, value]) => ` -c ${name}=${value}`)
    .join("");
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories='' ${durability}-c max_connections=300 -c shared_buffers=128MB${settings}`;
  run(
    join(bin, "pg_ctl"),
    ["-D", pgdata, "-o", options, "-l", join(dataDir, "server.log"), "-w", "-t", "30", "start"],
    asPostgres,
  );
  let stopped = false;
  return {
    url: `postgres://parley@127.0.0.1:${port}/postgres`,
    dataDir,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(join(bin, "pg_ctl"), ["-D", pgdata, "-m", "immediate", "-w", "stop"], asPostgres);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

// `bun test/pg/cluster.ts`: start one, print its URL, stop on SIGINT/SIGTERM (for a developer's shell).
if (import.meta.main) {
  const cluster = await startCluster();
  console.log(cluster.url);
  const stop = () => {
    cluster.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  setInterval(() => {}, 1 << 30);
}
