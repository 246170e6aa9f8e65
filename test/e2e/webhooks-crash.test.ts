import { afterEach, describe, expect, test } from "bun:test";
import { verifyServiceSignature } from "../../src/webhooks/sign.ts";
import { createSandbox, startServer, type RunningBinary, type Sandbox } from "./binary.ts";

// Short retry delays so a whole 4-attempt cycle takes about a second; a 3 s timeout, since a
// timed-out send on a loaded CI machine would be a retry or a dead letter these tests do not expect.
// Concurrency 4 keeps the 1,000-delivery queue draining for a few seconds, long enough to be killed
// mid-way.
const CONCURRENCY = 4;
const ENV = {
  PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true",
  PARLEY_RATE_LIMITS: "off",
  PARLEY_RETRY_DELAYS: "200ms,200ms,200ms",
  PARLEY_DELIVERY_TIMEOUT: "3s",
  PARLEY_LOG_LEVEL: "error",
  PARLEY_DELIVERY_CONCURRENCY: String(CONCURRENCY),
};
const SECRET = "e2e-receiver-secret-0123456789";

/** Receivers, servers and sandboxes to stop after each test, last started first stopped. */
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Arrival {
  webhookId: string;
  attempt: string | null;
  signature: string | null;
  body: string;
  answered: number;
}

/** A loopback receiver that records every request and answers `status` after 5–20 ms. */
function startReceiver() {
  const arrivals: Arrival[] = [];
  let status = 200;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const body = await request.text();
      const answered = status;
      arrivals.push({
        webhookId: request.headers.get("webhook-id") ?? "",
        attempt: request.headers.get("x-service-attempt"),
        signature: request.headers.get("x-service-signature"),
        body,
        answered,
      });
      await Bun.sleep(5 + Math.random() * 15);
      return new Response(answered === 200 ? "ok" : "receiver says no", { status: answered });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hooks/parley`,
    arrivals,
    distinctIds: () => new Set(arrivals.map((arrival) => arrival.webhookId)),
    answerWith: (next: number) => {
      status = next;
    },
    stop: () => server.stop(true),
  };
}

async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => T | null | false | Promise<T | null | false>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** A sandboxed binary with a tenant and an API key made through its own CLI. */
function provision(): { sandbox: Sandbox; tenantId: string; apiKey: string } {
  const sandbox = createSandbox(ENV);
  cleanups.push(() => sandbox.cleanup());
  const tenant = sandbox.run(["tenant", "create", "--name", "Crash Clinic", "--json"]);
  expect(tenant.code).toBe(0);
  const tenantId = JSON.parse(tenant.out).tenant_id as string;
  const key = sandbox.run(["apikey", "create", "--tenant", tenantId, "--json"]);
  expect(key.code).toBe(0);
  return { sandbox, tenantId, apiKey: JSON.parse(key.out).key as string };
}

async function start(sandbox: Sandbox): Promise<RunningBinary> {
  const server = await startServer(sandbox);
  cleanups.push(async () => {
    if (server.process.exitCode === null && server.process.signalCode === null) {
      server.process.kill("SIGTERM");
      await server.process.exited;
    }
  });
  return server;
}

function api(server: RunningBinary, apiKey: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}/api/v1/webhooks${path}`, {
      method,
      headers: { "x-api-key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
}

async function createRuleTo(call: ReturnType<typeof api>, url: string): Promise<string> {
  const created = await call("POST", "/rules-engine/rules", {
    name: "crash receiver",
    event: "lead.created",
    url,
    secret: SECRET,
    active: true,
  });
  expect(created.status).toBe(201);
  return created.json.rule_id as string;
}

describe("webhook deliveries of the compiled binary", () => {
  test("a server killed with SIGKILL mid-queue delivers every enqueued webhook after a restart on the same database", async () => {
    const receiver = startReceiver();
    cleanups.push(() => receiver.stop());
    const { sandbox, apiKey } = provision();
    const first = await start(sandbox);
    const call = api(first, apiKey);
    const ruleId = await createRuleTo(call, receiver.url);

    const enqueued: string[] = [];
    for (let batch = 0; batch < 20; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => call("POST", `/rules-engine/rules/${ruleId}/test`)),
      );
      for (const response of responses) {
        expect(response.status).toBe(202);
        enqueued.push(response.json.webhook_id as string);
      }
    }
    expect(new Set(enqueued).size).toBe(1_000);

    // Kill once a fifth has arrived: some deliveries recorded, some in flight, most still queued.
    await waitFor("200 deliveries to arrive", 15_000, () => receiver.distinctIds().size >= 200);
    const arrivedBeforeKill = receiver.distinctIds().size;
    first.process.kill("SIGKILL");
    expect(await first.process.exited).not.toBe(0);
    // Killed mid-queue, not after it drained (otherwise this test proves nothing).
    expect(arrivedBeforeKill).toBeLessThan(1_000);

    const second = await start(sandbox);
    const callAgain = api(second, apiKey);
    // In-flight deliveries come back once their lease (2 × timeout + 1 s) runs out.
    await waitFor("all 1,000 webhook ids at the receiver", 45_000, () => receiver.distinctIds().size >= 1_000);
    await waitFor(
      "no pending deliveries",
      15_000,
      async () => ((await callAgain("GET", "/deliveries?status=pending")).json.data as unknown[]).length === 0,
    );

    const seen = receiver.distinctIds();
    const missing = enqueued.filter((id) => !seen.has(id));
    expect(missing).toEqual([]);
    expect((await callAgain("GET", "/dead-letters")).json.data).toEqual([]);
    // At least once, not "many times": only what was in flight (or sent but not yet recorded)
    // when the process died may arrive twice.
    const duplicates = receiver.arrivals.length - seen.size;
    expect(duplicates).toBeLessThanOrEqual(4 * CONCURRENCY);
    for (const id of enqueued.slice(0, 5)) {
      expect((await callAgain("GET", `/deliveries/${id}`)).json.status).toBe("succeeded");
    }
    // The sends and the WAL checkpoints ran on their own threads: a worker the binary cannot load
    // is only logged (the work falls back to the main thread), so nothing else here would fail.
    for (const server of [first, second]) expect(server.output()).not.toContain("thread failed");
  }, 60_000);

  test("a delivery that fails four times is dead-lettered, and re-triggered from the CLI it arrives with the same webhook_id as attempt 1 of cycle 2", async () => {
    const receiver = startReceiver();
    cleanups.push(() => receiver.stop());
    receiver.answerWith(500);
    const { sandbox, tenantId, apiKey } = provision();
    const server = await start(sandbox);
    const call = api(server, apiKey);
    const ruleId = await createRuleTo(call, receiver.url);

    const enqueued = await call("POST", `/rules-engine/rules/${ruleId}/test`);
    expect(enqueued.status).toBe(202);
    const webhookId = enqueued.json.webhook_id as string;

    const deadLetter = await waitFor("the dead letter in `parley dlq list`", 15_000, () => {
      const listed = sandbox.run(["dlq", "list", "--json"]);
      expect(listed.code).toBe(0);
      return (
        (JSON.parse(listed.out) as Array<Record<string, unknown>>).find((row) => row.webhook_id === webhookId) ?? null
      );
    });
    expect(deadLetter).toMatchObject({
      tenant_id: tenantId,
      rule_id: ruleId,
      event: "lead.created",
      attempts: 4,
      last_status_code: 500,
    });
    expect(deadLetter.dead_letter_id).toMatch(/^dlq_/);
    expect(
      receiver.arrivals.filter((arrival) => arrival.webhookId === webhookId).map((arrival) => arrival.attempt),
    ).toEqual(["1", "2", "3", "4"]);

    receiver.answerWith(200);
    const retriggered = sandbox.run(["dlq", "retrigger", deadLetter.dead_letter_id as string]);
    expect(retriggered.code).toBe(0);
    expect(retriggered.out).toContain(webhookId);

    const redelivered = await waitFor(
      "the re-triggered delivery",
      10_000,
      () => receiver.arrivals.find((arrival) => arrival.answered === 200) ?? null,
    );
    expect(redelivered.webhookId).toBe(webhookId);
    expect(redelivered.attempt).toBe("1");
    expect(JSON.parse(redelivered.body).webhook_id).toBe(webhookId);
    expect(verifyServiceSignature(SECRET, redelivered.body, redelivered.signature ?? "")).toBe(true);

    const delivery = await waitFor("the delivery to be recorded as succeeded", 10_000, async () => {
      const shown = await call("GET", `/deliveries/${webhookId}`);
      return shown.json.status === "succeeded" ? shown.json : null;
    });
    expect(delivery.cycle).toBe(2);
    expect(
      (delivery.attempt_log as Array<Record<string, unknown>>).map((row: Record<string, unknown>) => [
        row.cycle,
        row.attempt,
        row.ok,
        row.status_code,
      ]),
    ).toEqual([
      [1, 1, false, 500],
      [1, 2, false, 500],
      [1, 3, false, 500],
      [1, 4, false, 500],
      [2, 1, true, 200],
    ]);
    expect(JSON.parse(sandbox.run(["dlq", "list", "--json"]).out)).toEqual([]);
  }, 30_000);
});
