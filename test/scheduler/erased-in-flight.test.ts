import { afterEach, beforeEach, expect, test } from "bun:test";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps, testSql } from "../helpers.ts";
import { decideFinishedAttempts } from "../../src/webhooks/retry-policy.ts";

let deps: ReturnType<typeof buildDeps>;
let tenantId: string;

beforeEach(async () => {
  deps = buildDeps({ allowPrivateWebhooks: true });
  tenantId = (await createTenant(deps, { name: "Clinic" })).id;
  await createRule(deps, tenantId, {
    name: "crm",
    event: "lead.created",
    url: "https://crm.example/hook",
    secret: "s".repeat(32),
    active: true,
  });
});
afterEach(() => closeDeps(deps));

test("a delivery erased while its send is in flight is dropped; the rest of the batch is still recorded", async () => {
  const emit = () =>
    deps.store.transaction((tx) =>
      enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: { email: "ana@example.com" }, confidence: 1 }),
    );
  const erased = await emit();
  const kept = await emit();
  const claimed = await deps.store.deliveryQueue.claimDueDeliveries(deps.clock.now(), 10, 60_000);
  expect(claimed).toHaveLength(2);
  // The erasure (src/chat/erase-person.ts) deletes the event; its delivery goes with it.
  const sql = await testSql(deps);
  await sql.run("DELETE FROM events WHERE id = ?", erased.eventId);
  const ok = { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "echo ana@example.com" };
  const now = deps.clock.now();
  const outcomes = await deps.store.deliveryQueue.recordAttempts(
    decideFinishedAttempts(
      { retryDelaysMs: [1000], dlqRetentionMs: 1000 },
      claimed.map((delivery) => ({ delivery, result: ok, startedAt: now, finishedAt: now })),
    ),
  );
  const byId = Object.fromEntries(claimed.map((delivery, index) => [delivery.id, outcomes[index]]));
  expect(byId[erased.deliveryIds[0] ?? ""]).toBe("stale");
  expect(byId[kept.deliveryIds[0] ?? ""]).toBe("succeeded");
  const attempts = await sql.all<{ delivery_id: string }>("SELECT delivery_id FROM delivery_attempts");
  expect(attempts.map((row) => row.delivery_id)).toEqual([kept.deliveryIds[0] ?? ""]);
});
