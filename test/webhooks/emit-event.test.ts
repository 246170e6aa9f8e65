import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps } from "../helpers.ts";

let deps: ReturnType<typeof buildDeps>;
let tenantId: string;
let otherTenantId: string;

const rule = (tenant: string, overrides: Partial<Parameters<typeof createRule>[2]> = {}) =>
  createRule(deps, tenant, { name: "r", event: "lead.created", url: `https://hooks.example/${crypto.randomUUID()}`, secret: "s".repeat(20), active: true, ...overrides });

const emit = (input: Partial<Parameters<typeof enqueueEvent>[2]> = {}) =>
  deps.store.transaction((tx) => enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: { lead_id: "lead_1" }, ...input }));

const deliveredRules = (deliveryIds: string[]) =>
  deliveryIds.map((id) => deps.sqlite.prepare<{ rule_id: string }, [string]>("SELECT rule_id FROM deliveries WHERE id = ?").get(id)?.rule_id);

beforeEach(async () => {
  deps = buildDeps({ allowPrivateWebhooks: true });
  tenantId = (await createTenant(deps, { name: "A" })).id;
  otherTenantId = (await createTenant(deps, { name: "B" })).id;
});
afterEach(() => deps.sqlite.close());

describe("enqueueEvent matching", () => {
  test("an active rule of the tenant for the event gets one delivery", async () => {
    const matching = await rule(tenantId);
    const { deliveryIds, eventId } = await emit();
    expect(eventId).toMatch(/^evt_/);
    expect(deliveredRules(deliveryIds)).toEqual([matching.rule_id]);
  });

  test("inactive rules, other tenants' rules and other events' rules get nothing", async () => {
    await rule(tenantId, { active: false });
    await rule(otherTenantId);
    await rule(tenantId, { event: "appointment.created" });
    expect((await emit()).deliveryIds).toEqual([]);
  });

  test("min_confidence: a rule gets the event at or above its threshold, not below", async () => {
    const strict = await rule(tenantId, { conditions: { min_confidence: 0.8 } });
    const loose = await rule(tenantId, { conditions: { min_confidence: 0.5 } });
    expect(deliveredRules((await emit({ confidence: 0.6 })).deliveryIds)).toEqual([loose.rule_id]);
    expect(deliveredRules((await emit({ confidence: 0.8 })).deliveryIds).sort()).toEqual([strict.rule_id, loose.rule_id].sort());
    expect((await emit({ confidence: 0.4 })).deliveryIds).toEqual([]);
  });

  test("an event without a confidence counts as 1", async () => {
    await rule(tenantId, { conditions: { min_confidence: 1 } });
    expect((await emit()).deliveryIds).toHaveLength(1);
  });

  test("the confidence is added to the event data", async () => {
    await rule(tenantId);
    const { eventId } = await emit({ confidence: 0.75 });
    const row = deps.sqlite.prepare<{ data: string }, [string]>("SELECT data FROM events WHERE id = ?").get(eventId);
    expect(JSON.parse(row?.data ?? "{}")).toEqual({ lead_id: "lead_1", confidence: 0.75 });
  });

  test("deliveries roll back with the caller's transaction", async () => {
    await rule(tenantId);
    const failing = deps.store.transaction(async (tx) => {
      await enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: {} });
      throw new Error("the lead insert failed");
    });
    await expect(failing).rejects.toThrow("the lead insert failed");
    expect(deps.sqlite.prepare<{ n: number }, []>("SELECT count(*) AS n FROM deliveries").get()?.n).toBe(0);
    expect(deps.sqlite.prepare<{ n: number }, []>("SELECT count(*) AS n FROM events").get()?.n).toBe(0);
  });

  test("the scheduler's listener is woken after the commit, when the delivery can be read", async () => {
    await rule(tenantId);
    const seenByListener: Array<{ inTransaction: boolean; deliveries: number | undefined }> = [];
    deps.deliveriesEnqueued.subscribe(() =>
      seenByListener.push({
        inTransaction: deps.sqlite.inTransaction,
        deliveries: deps.sqlite.prepare<{ n: number }, []>("SELECT count(*) AS n FROM deliveries").get()?.n,
      }),
    );
    await emit();
    expect(seenByListener).toEqual([{ inTransaction: false, deliveries: 1 }]);
  });

  test("a rolled-back enqueue wakes nobody", async () => {
    await rule(tenantId);
    let woken = 0;
    deps.deliveriesEnqueued.subscribe(() => woken++);
    const failing = deps.store.transaction(async (tx) => {
      await enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: {} });
      throw new Error("rolled back");
    });
    await expect(failing).rejects.toThrow("rolled back");
    expect(woken).toBe(0);
  });
});
