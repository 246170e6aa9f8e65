// @sqlite-only: the order of work inside one turn of the event loop; on PostgreSQL the claim itself waits for the network
import { afterEach, beforeEach, expect, test } from "bun:test";
import { DeliveryScheduler } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps } from "../helpers.ts";

let deps: ReturnType<typeof buildDeps>;
let tenantId: string;

beforeEach(async () => {
  // A poll interval of an hour: the delivery below is claimed because the enqueue woke the loop.
  deps = buildDeps({ allowPrivateWebhooks: true, pollIntervalMs: 3_600_000, deliveryConcurrency: 4 });
  tenantId = (await createTenant(deps, { name: "Wake" })).id;
  await createRule(deps, tenantId, {
    name: "r",
    event: "lead.created",
    url: "https://hooks.example/x",
    secret: "s".repeat(16),
    active: true,
  });
});
afterEach(() => closeDeps(deps));

test("an enqueue's wake claims and sends before the work this turn of the event loop has queued", async () => {
  const order: string[] = [];
  const scheduler = new DeliveryScheduler(deps, {
    send: async () => {
      order.push("send");
      return { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "" };
    },
  });
  scheduler.start();
  try {
    await Bun.sleep(20); // the first (empty) poll has happened; the next is an hour away
    await deps.store.transaction(async (tx) => {
      // Queued after the COMMIT and before the enqueue's own hook wakes the scheduler: it stands
      // for the requests the server reads in this turn. A wake on setImmediate came after them.
      tx.onCommit(() => setImmediate(() => order.push("queued work")));
      await enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: {} });
    });
    for (let waited = 0; order.length < 2 && waited < 2_000; waited += 5) await Bun.sleep(5);
    expect(order).toEqual(["send", "queued work"]);
  } finally {
    await scheduler.stop();
  }
});
