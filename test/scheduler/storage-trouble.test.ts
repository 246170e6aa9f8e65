import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeliveryScheduler } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { getDelivery } from "../../src/webhooks/deliveries.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { buildDeps } from "../helpers.ts";

// @sqlite-only: holds SQLite's write lock from a second connection (BEGIN IMMEDIATE) so recording hits SQLITE_BUSY

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** Resolves when `predicate` holds, polling every 5 ms for at most 2 s. */
async function eventually(predicate: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await predicate()) return;
    await Bun.sleep(5);
  }
  throw new Error("condition not met within 2 s");
}

test("results that cannot be recorded while another process holds the lock are kept and recorded once it is free, not sent again", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-sched-busy-"));
  const path = join(dir, "parley.db");
  // A real clock: the lease (2 × timeout + 1 s) must not run out while the test waits.
  const deps = {
    ...buildDeps({ allowPrivateWebhooks: true, pollIntervalMs: 3_600_000 }, {}, {}, path),
    clock: systemClock,
  };
  // No wait at all: every record attempt fails with SQLITE_BUSY at once while the lock is taken
  // (the server waits PARLEY_WRITE_WAIT first; the scheduler must cope when that runs out).
  deps.store.storage.neverWaitForLocks(0);
  const other = new Database(path, { strict: true });
  cleanups.push(() => {
    other.close();
    deps.sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const tenantId = (await createTenant(deps, { name: "Locked" })).id;
  await createRule(deps, tenantId, {
    name: "r",
    event: "lead.created",
    url: "https://hooks.example/x",
    secret: "s".repeat(16),
    active: true,
  });

  let sends = 0;
  const scheduler = new DeliveryScheduler(deps, {
    send: async () => {
      sends++;
      // A CLI command takes the write lock while the request is on the wire.
      other.exec("BEGIN IMMEDIATE");
      return { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "" };
    },
  });
  const webhookId =
    (await deps.store.transaction((tx) => enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: {} })))
      .deliveryIds[0] ?? "";
  scheduler.start();
  try {
    await eventually(() => sends === 1);
    await Bun.sleep(100); // several record attempts fail with SQLITE_BUSY meanwhile
    expect((await getDelivery(deps, tenantId, webhookId)).status).not.toBe("succeeded");
    other.exec("COMMIT");
    await eventually(async () => (await getDelivery(deps, tenantId, webhookId)).status === "succeeded");
    expect(sends).toBe(1);
  } finally {
    await scheduler.stop();
  }
});
