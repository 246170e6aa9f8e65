import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { DeliveryScheduler, type SendFn } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { getDelivery } from "../../src/webhooks/deliveries.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps } from "../helpers.ts";

let deps: ReturnType<typeof buildDeps>;
let tenantId: string;

beforeEach(async () => {
  // A poll interval of an hour: anything sent sooner was sent because the enqueue woke the loop.
  deps = buildDeps({ allowPrivateWebhooks: true, pollIntervalMs: 3_600_000, deliveryConcurrency: 4 });
  tenantId = (await createTenant(deps, { name: "Loop" })).id;
  await createRule(deps, tenantId, { name: "r", event: "lead.created", url: "https://hooks.example/x", secret: "s".repeat(16), active: true });
});
afterEach(() => closeDeps(deps));

const emit = async () => (await deps.store.transaction((tx) => enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: {} }))).deliveryIds[0] ?? "";

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
      await eventually(async () => (await Promise.all(ids.map((id) => getDelivery(deps, tenantId, id)))).every((delivery) => delivery.status === "succeeded"));
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
