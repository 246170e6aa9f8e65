import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { modelAssistant } from "../../src/assistant/turn-assistant.ts";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import type { Store } from "../../src/db/store.ts";
import type { Deps } from "../../src/deps.ts";
import { createFakeClock } from "../../src/lib/clock.ts";
import { silentLogger } from "../../src/lib/log.ts";
import { createSignal } from "../../src/lib/signal.ts";
import { DeliveryScheduler } from "../../src/scheduler/scheduler.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { openTestPgStore, testPostgresUrl } from "../pg/test-store.ts";

// kill -9 in the middle of two ordered streams, on whichever store the run uses: a child
// process sends (test/webhooks/fixtures/ordered-sender.ts) and is killed while the receiver
// holds one request; this process then finishes the queue. Nothing is lost, and no delivery
// of a stream reaches the receiver before the one ahead of it was answered 2xx.

const SESSIONS = ["ses_a", "ses_b"];
const EVENTS_PER_SESSION = 12;
const KILL_AT_SUCCESS = 9;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openStore(): Promise<{ store: Store; env: Record<string, string> }> {
  const postgres = testPostgresUrl();
  if (postgres) {
    const opened = await openTestPgStore(postgres, Date.now());
    cleanups.push(() => opened.close());
    return { store: opened.store, env: { ORDERED_DB: postgres, ORDERED_SCHEMA: opened.schema } };
  }
  const dir = mkdtempSync(join(tmpdir(), "parley-ordered-"));
  const handle = openDatabase(join(dir, "parley.db"));
  applyMigrations(handle.sqlite, Date.now());
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => handle.close());
  return { store: handle.store, env: { ORDERED_DB: join(dir, "parley.db") } };
}

interface Arrival {
  webhookId: string;
  /** Answered 2xx to a sender that was alive to hear it. */
  ok: boolean;
}

/**
 * Refuses every third webhook's first attempt; `hold` decides whether to keep a request
 * unanswered (the sender is killed meanwhile), and `heard` whether a sender is alive to take
 * an answer at all.
 */
function startReceiver(hold: (successes: number) => Promise<boolean>, heard: () => boolean) {
  const arrivals: Arrival[] = [];
  const seen = new Set<string>();
  let firstAttempts = 0;
  let successes = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const webhookId = request.headers.get("webhook-id") ?? "";
      if (!seen.has(webhookId)) {
        seen.add(webhookId);
        if (firstAttempts++ % 3 === 2) {
          arrivals.push({ webhookId, ok: false });
          return new Response("not now", { status: 503 });
        }
      }
      if ((await hold(successes + 1)) || !heard()) {
        arrivals.push({ webhookId, ok: false });
        return new Response("too late", { status: 200 });
      }
      successes++;
      arrivals.push({ webhookId, ok: true });
      return new Response("ok");
    },
  });
  cleanups.push(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}/hook`, arrivals };
}

test("a sender killed with SIGKILL mid-stream loses nothing and keeps each session's order", async () => {
  const { store, env } = await openStore();
  const config = loadConfig({
    PARLEY_JWT_SECRET: "x".repeat(40),
    PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true",
    PARLEY_RETRY_DELAYS: "50ms,50ms,50ms",
    PARLEY_DELIVERY_TIMEOUT: "2s",
  });
  const clock = createFakeClock(Date.now());
  const deps: Deps = {
    store,
    config,
    clock,
    log: silentLogger,
    assistant: modelAssistant,
    deliveriesEnqueued: createSignal(),
  };

  let child: Subprocess | null = null;
  /** Set once the child is killed; resolves when it is gone. */
  let killed: Promise<unknown> | null = null;
  let restarted = false;
  const receiver = startReceiver(
    async (success) => {
      if (killed || success !== KILL_AT_SUCCESS || child === null) return false;
      // This request is in flight when its sender dies: its answer reaches no one.
      child.kill("SIGKILL");
      killed = child.exited;
      await killed;
      return true;
    },
    () => killed === null || restarted,
  );

  const tenantId = (await createTenant(deps, { name: "Crash Clinic" })).id;
  await createRule(deps, tenantId, {
    name: "crm",
    event: "lead.created",
    url: receiver.url,
    secret: "s".repeat(32),
    active: true,
    ordering: "per_session",
  });
  const streams = new Map<string, string[]>(SESSIONS.map((session) => [session, []]));
  for (let index = 0; index < EVENTS_PER_SESSION; index++) {
    for (const session of SESSIONS) {
      const { deliveryIds } = await store.transaction((tx) =>
        enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: { session_id: session, index } }),
      );
      streams.get(session)?.push(...deliveryIds);
    }
  }

  child = Bun.spawn([process.execPath, join(import.meta.dir, "fixtures/ordered-sender.ts")], {
    env: { ...process.env, ...env },
    stdout: "ignore",
    stderr: "pipe",
  });
  const spawned = child;
  cleanups.push(() => {
    if (spawned.exitCode === null && spawned.signalCode === null) spawned.kill("SIGKILL");
  });
  for (let waited = 0; !killed && waited < 300; waited++) await Bun.sleep(50);
  expect(killed).not.toBeNull();
  await killed;
  expect(child.signalCode).toBe("SIGKILL");
  const beforeRestart = receiver.arrivals.filter((arrival) => arrival.ok).length;
  expect(beforeRestart).toBe(KILL_AT_SUCCESS - 1);

  // Another sender takes over once the dead one's leases have run out.
  const scheduler = new DeliveryScheduler(deps);
  restarted = true;
  clock.set(Date.now() + config.deliveryTimeoutMs * 2 + 2_000);
  const total = SESSIONS.length * EVENTS_PER_SESSION;
  for (
    let round = 0;
    round < 200 && new Set(receiver.arrivals.filter((a) => a.ok).map((a) => a.webhookId)).size < total;
    round++
  ) {
    await scheduler.runOnce();
    clock.advance(100);
  }

  for (const [session, ids] of streams) {
    expect(ids).toHaveLength(EVENTS_PER_SESSION);
    ids.forEach((id, position) => {
      const arrivals = receiver.arrivals.flatMap((arrival, at) =>
        arrival.webhookId === id ? [{ ...arrival, at }] : [],
      );
      expect({ session, position, answered: arrivals.some((arrival) => arrival.ok) }).toEqual({
        session,
        position,
        answered: true,
      });
      const previous = ids[position - 1];
      if (previous === undefined) return;
      const previousOkAt = receiver.arrivals.findIndex((arrival) => arrival.webhookId === previous && arrival.ok);
      // Every attempt of this delivery came after the one ahead of it was taken.
      expect({ session, position, before: arrivals.filter((arrival) => arrival.at < previousOkAt).length }).toEqual({
        session,
        position,
        before: 0,
      });
    });
  }
  const gauges = await store.deliveryQueue.queueGauges(clock.now());
  expect(gauges).toEqual({ due: 0, pending: 0, waiting: 0, deadLetters: 0 });
  expect(await store.deliveries.listDeliveries(tenantId, { status: "waiting" }, null, 10)).toEqual([]);
  expect(await store.deliveries.listDeliveries(tenantId, { status: "succeeded" }, null, 100)).toHaveLength(total);
}, 60_000);
