import { SQL, type Subprocess } from "bun";
import { findServerBin, startCluster } from "../pg/cluster.ts";
import { testPostgresUrl } from "../pg/test-store.ts";
import { startServer, type RunningBinary, type Sandbox } from "./binary.ts";

/**
 * Helpers for the multi-instance end-to-end test (test/e2e/postgres-cluster.test.ts): a fresh
 * PostgreSQL database, named `parley serve` children on a given port (binary.ts's startServer),
 * killing one by PID.
 */

/** Where the test gets PostgreSQL from, or why it cannot. */
export function postgresSource():
  | { kind: "url"; url: string }
  | { kind: "cluster" }
  | { kind: "none"; reason: string } {
  const url = testPostgresUrl();
  if (url) return { kind: "url", url };
  if (findServerBin()) return { kind: "cluster" };
  return {
    kind: "none",
    reason:
      "no PostgreSQL: PARLEY_TEST_DB is not a postgres:// URL and no initdb/pg_ctl was found (install Debian's postgresql)",
  };
}

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * PARLEY_TEST_DB given: a fresh database `e2e_<random>` in that server (dropped afterwards).
 * Otherwise a throwaway cluster of our own (stopped afterwards).
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const source = postgresSource();
  if (source.kind === "none") throw new Error(source.reason);
  if (source.kind === "cluster") {
    const cluster = await startCluster();
    return { url: cluster.url, drop: async () => cluster.stop() };
  }
  const name = `e2e_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new SQL({ url: source.url, max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  const url = new URL(source.url);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new SQL({ url: source.url, max: 1 });
      try {
        await dropper.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.close();
      }
    },
  };
}

export type ServerChild = RunningBinary & { readonly name: string };

/** `parley serve` on 127.0.0.1:`port` (0 = any free one), ready (test/e2e/binary.ts's startServer), named for errors. */
export async function spawnServer(
  sandbox: Sandbox,
  name: string,
  port: number,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<ServerChild> {
  return { ...(await startServer(sandbox, [], env, { port, name, timeoutMs })), name };
}

/** `kill -9 PID` and wait (bounded) until the process is gone. */
export async function killHard(child: Subprocess): Promise<void> {
  process.kill(child.pid, "SIGKILL");
  await Promise.race([child.exited, Bun.sleep(5_000)]);
  if (child.exitCode === null && child.signalCode === null)
    throw new Error(`process ${child.pid} survived SIGKILL for 5 s`);
}

export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => T | null | false | Promise<T | null | false>,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(intervalMs);
  }
}

/**
 * A loopback webhook receiver that answers 200 at once. It counts every `webhook-id` that
 * arrives (`counts`), and separately those it actually answered (`answered`): while `hold()`
 * is in force requests wait, and one whose sender went away meanwhile (killed, or its
 * delivery timeout ran out) is not answered but kept in `abandoned` — its delivery must be
 * sent again. `firstSeen` keeps when each id first arrived.
 */
export function startReceiver() {
  const counts = new Map<string, number>();
  const answered = new Map<string, number>();
  const abandoned = new Set<string>();
  const firstSeen = new Map<string, number>();
  let requests = 0;
  let gate: { promise: Promise<void>; open: () => void } | null = null;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      await request.arrayBuffer();
      requests++;
      const id = request.headers.get("webhook-id") ?? "";
      counts.set(id, (counts.get(id) ?? 0) + 1);
      if (!firstSeen.has(id)) firstSeen.set(id, Date.now());
      if (gate) await gate.promise;
      if (request.signal.aborted) {
        abandoned.add(id);
      } else {
        answered.set(id, (answered.get(id) ?? 0) + 1);
      }
      return new Response("ok");
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hooks/parley`,
    counts,
    answered,
    abandoned,
    firstSeen,
    requests: () => requests,
    /** Holds every request from now until `release()`. */
    hold() {
      if (gate) return;
      let open = () => {};
      const promise = new Promise<void>((resolve) => (open = resolve));
      gate = { promise, open };
    },
    release() {
      gate?.open();
      gate = null;
    },
    stop() {
      this.release();
      server.stop(true);
    },
  };
}
