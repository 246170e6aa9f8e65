import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { DeliveryScheduler, type SendFn } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { getDelivery } from "../../src/webhooks/deliveries.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps, testSql } from "../helpers.ts";

let deps: ReturnType<typeof buildDeps>;
let tenantId: string;

beforeEach(async () => {
  // A poll interval of an hour: anything sent sooner was sent because the enqueue woke the loop.
  deps = buildDeps({ allowPrivateWebhooks: true, pollIntervalMs: 3_600_000, deliveryConcurrency: 4 });
  tenantId = (await createTenant(deps, { name: "Loop" })).id;
  await createRule(deps, tenantId, {
    name: "r",
    event: "lead.created",
    url: "https://hooks.example/x",
    secret: "s".repeat(16),
    active: true,
  });
});
afterEach(() => closeDeps(deps));

const emit = async () =>
  (await deps.store.transaction((tx) => enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: {} })))
    .deliveryIds[0] ?? "";

/** Resolves when `predicate` holds, polling every 5 ms for at most 2 s. */
async function eventually(predicate: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await predicate()) return;
    await Bun.sleep(5);
  }
  throw new Error("condition not met within 2 s");
}

describe("the running loop", () => {
  test("an enqueue wakes the loop at once instead of waiting for the next poll", async () => {
    const sent: string[] = [];
    const scheduler = new DeliveryScheduler(deps, {
      send: async (input) => {
        sent.push(input.headers["webhook-id"] ?? "");
        return { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "" };
      },
    });
    scheduler.start();
    try {
      await Bun.sleep(20); // the first (empty) poll has happened; the next is an hour away
      const webhookId = await emit();
      await eventually(() => sent.length === 1);
      expect(sent).toEqual([webhookId]);
      await eventually(async () => (await getDelivery(deps, tenantId, webhookId)).status === "succeeded");
    } finally {
      await scheduler.stop();
    }
  });

  test("never has more sends in flight than PARLEY_DELIVERY_CONCURRENCY, and drains the queue", async () => {
    let inFlight = 0;
    let peak = 0;
    const scheduler = new DeliveryScheduler(deps, {
      send: async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await Bun.sleep(2);
        inFlight--;
        return { ok: true, statusCode: 200, error: null, durationMs: 2, responseExcerpt: "" };
      },
    });
    const ids: string[] = [];
    for (let index = 0; index < 30; index++) ids.push(await emit());
    scheduler.start();
    try {
      await eventually(async () =>
        (await Promise.all(ids.map((id) => getDelivery(deps, tenantId, id)))).every(
          (delivery) => delivery.status === "succeeded",
        ),
      );
      expect(peak).toBe(4);
    } finally {
      await scheduler.stop();
    }
  });

  test("stop() claims nothing new, waits for the sends in flight and records them", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: string[] = [];
    const send: SendFn = async (input) => {
      started.push(input.headers["webhook-id"] ?? "");
      await gate;
      return { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "" };
    };
    const scheduler = new DeliveryScheduler(deps, { send });
    const first = await emit();
    scheduler.start();
    await eventually(() => started.length === 1);
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    const late = await emit();
    await Bun.sleep(30);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await getDelivery(deps, tenantId, first)).status).toBe("succeeded");
    expect(started).toEqual([first]);
    expect(await getDelivery(deps, tenantId, late)).toMatchObject({ status: "pending", attempts: 0 });
  });
});

describe("deliveries handed to the running loop at enqueue", () => {
  const ok = { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "" } as const;
  /** The delivery's lease as stored: the token and when the row is due. */
  const leaseOf = async (id: string) =>
    (await testSql(deps)).get<{ lease_token: string | null; next_attempt_at: number | null }>(
      "SELECT lease_token, CAST(next_attempt_at AS double precision) AS next_attempt_at FROM deliveries WHERE id = ?",
      id,
    );
  /** Wraps the store's claim so a test can count it. */
  const countClaims = () => {
    const queue = deps.store.deliveryQueue as { claimFairShare: typeof deps.store.deliveryQueue.claimFairShare };
    const claim = queue.claimFairShare.bind(queue);
    const counted = { claims: 0 };
    queue.claimFairShare = (...args) => {
      counted.claims++;
      return claim(...args);
    };
    return counted;
  };

  test("is written leased to the loop and sent after COMMIT, with no claim of its own", async () => {
    const sent: string[] = [];
    const scheduler = new DeliveryScheduler(deps, {
      send: async (input) => {
        sent.push(input.headers["webhook-id"] ?? "");
        return ok;
      },
    });
    scheduler.start();
    try {
      await Bun.sleep(20); // the first (empty) poll has happened; the next is an hour away
      const counted = countClaims();
      const before = { sent: [] as string[], row: null as { leaseToken: string | null; nextAttemptAt: number } | null };
      const webhookId = await deps.store.transaction(async (tx) => {
        const id = (await enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: {} })).deliveryIds[0] ?? "";
        before.sent = [...sent];
        const row = await tx.deliveries.findDelivery(tenantId, id);
        before.row = row && { leaseToken: row.leaseToken, nextAttemptAt: Number(row.nextAttemptAt) };
        return id;
      });
      // Nothing left before COMMIT; the row was leased for as long as a claim would lease it.
      expect(before.sent).toEqual([]);
      expect(before.row).toEqual({
        leaseToken: expect.stringMatching(/^att_/),
        nextAttemptAt: deps.clock.now() + deps.config.deliveryTimeoutMs * 2 + 1_000,
      });
      expect(sent).toEqual([webhookId]);
      expect(counted.claims).toBe(0);
      await eventually(async () => (await getDelivery(deps, tenantId, webhookId)).status === "succeeded");
      expect(await leaseOf(webhookId)).toEqual({ lease_token: null, next_attempt_at: null });
    } finally {
      await scheduler.stop();
    }
  });

  test("a rolled-back enqueue sends nothing", async () => {
    const sent: string[] = [];
    const scheduler = new DeliveryScheduler(deps, {
      send: async (input) => (sent.push(input.headers["webhook-id"] ?? ""), ok),
    });
    scheduler.start();
    try {
      await Bun.sleep(20);
      const failing = deps.store.transaction(async (tx) => {
        await enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: {} });
        throw new Error("the lead insert failed");
      });
      await expect(failing).rejects.toThrow("the lead insert failed");
      await Bun.sleep(30);
      expect(sent).toEqual([]);
    } finally {
      await scheduler.stop();
    }
  });

  test("with no room left it is given back, due at once, and claimed when a send ends", async () => {
    closeDeps(deps);
    deps = buildDeps({ allowPrivateWebhooks: true, pollIntervalMs: 3_600_000, deliveryConcurrency: 1 });
    tenantId = (await createTenant(deps, { name: "Full" })).id;
    await createRule(deps, tenantId, {
      name: "r",
      event: "lead.created",
      url: "https://hooks.example/x",
      secret: "s".repeat(16),
      active: true,
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sent: string[] = [];
    const scheduler = new DeliveryScheduler(deps, {
      send: async (input) => {
        sent.push(input.headers["webhook-id"] ?? "");
        await gate;
        return ok;
      },
    });
    scheduler.start();
    try {
      await Bun.sleep(20);
      const first = await emit();
      expect(sent).toEqual([first]);
      const second = await emit();
      await eventually(async () => (await leaseOf(second))?.lease_token === null);
      expect(await leaseOf(second)).toEqual({ lease_token: null, next_attempt_at: deps.clock.now() });
      expect(sent).toEqual([first]);
      release();
      await eventually(() => sent.length === 2);
      expect(sent).toEqual([first, second]);
      await eventually(async () => (await getDelivery(deps, tenantId, second)).status === "succeeded");
    } finally {
      release();
      await scheduler.stop();
    }
  });

  test("a handed-over delivery that was never sent (the process died) is due again when its lease runs out", async () => {
    // A receiver that takes the deliveries and never sends them: what a crash right after COMMIT leaves.
    const leaseMs = 21_000;
    const handoff = deps.deliveryHandoff;
    if (!handoff) throw new Error("buildDeps gives every test a handoff");
    handoff.receiver = { leaseMs, accept: () => {} };
    const webhookId = await emit();
    handoff.receiver = null;
    const now = deps.clock.now();
    expect(await deps.store.deliveryQueue.claimDueDeliveries(now + leaseMs - 1, 10, 60_000)).toEqual([]);
    expect(
      (await deps.store.deliveryQueue.claimDueDeliveries(now + leaseMs, 10, 60_000)).map((delivery) => delivery.id),
    ).toEqual([webhookId]);
  });

  test("a hand-over that fails does not fail the committed request: the delivery stays leased, to be sent when the lease ends", async () => {
    const scheduler = new DeliveryScheduler(deps, {
      send: () => {
        throw new Error("the sender broke before it could start");
      },
    });
    scheduler.start();
    try {
      await Bun.sleep(20);
      const webhookId = await emit();
      expect(webhookId).toMatch(/^wh_/);
      expect((await leaseOf(webhookId))?.lease_token).toMatch(/^att_/);
    } finally {
      await scheduler.stop();
    }
  });

  test("a stopped loop takes no more: the enqueue writes a due row and wakes the schedulers instead", async () => {
    const scheduler = new DeliveryScheduler(deps, { send: async () => ok });
    scheduler.start();
    await scheduler.stop();
    let woken = 0;
    deps.deliveriesEnqueued.subscribe(() => woken++);
    const webhookId = await emit();
    expect(await leaseOf(webhookId)).toEqual({ lease_token: null, next_attempt_at: deps.clock.now() });
    expect(woken).toBe(1);
  });
});
