import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps, testSql } from "../helpers.ts";
import { testPostgresUrl } from "../pg/test-store.ts";

let deps: ReturnType<typeof buildDeps>;
let tenantId: string;
let otherTenantId: string;

const rule = (tenant: string, overrides: Partial<Parameters<typeof createRule>[2]> = {}) =>
  createRule(deps, tenant, {
    name: "r",
    event: "lead.created",
    url: `https://hooks.example/${crypto.randomUUID()}`,
    secret: "s".repeat(20),
    active: true,
    ...overrides,
  });

const emit = (input: Partial<Parameters<typeof enqueueEvent>[2]> = {}) =>
  deps.store.transaction((tx) =>
    enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: { lead_id: "lead_1" }, ...input }),
  );

const deliveredRules = async (deliveryIds: string[]) => {
  const sql = await testSql(deps);
  return Promise.all(
    deliveryIds.map(
      async (id) => (await sql.get<{ rule_id: string }>("SELECT rule_id FROM deliveries WHERE id = ?", id))?.rule_id,
    ),
  );
};

const countRows = async (table: "deliveries" | "events") =>
  (await (await testSql(deps)).get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS n FROM ${table}`))?.n;

beforeEach(async () => {
  deps = buildDeps({ allowPrivateWebhooks: true });
  tenantId = (await createTenant(deps, { name: "A" })).id;
  otherTenantId = (await createTenant(deps, { name: "B" })).id;
});
afterEach(() => closeDeps(deps));

describe("enqueueEvent matching", () => {
  test("an active rule of the tenant for the event gets one delivery", async () => {
    const matching = await rule(tenantId);
    const { deliveryIds, eventId } = await emit();
    expect(eventId).toMatch(/^evt_/);
    expect(await deliveredRules(deliveryIds)).toEqual([matching.rule_id]);
  });

  test("every matching rule gets a delivery, in the rules' id order whatever order they were made in", async () => {
    const made = ["rule_c", "rule_a", "rule_b"];
    for (const id of made) {
      await deps.store.webhookRules.insertRule({
        id,
        tenantId,
        name: id,
        event: "lead.created",
        url: `https://hooks.example/${id}`,
        secret: "s".repeat(20),
        minConfidence: null,
        active: true,
        createdAt: 0,
        updatedAt: 0,
      });
    }
    const { deliveryIds } = await emit();
    expect(await deliveredRules(deliveryIds)).toEqual(["rule_a", "rule_b", "rule_c"]);
    // Delivery ids follow that order too (the log lists them by id).
    expect([...deliveryIds].sort()).toEqual(deliveryIds);
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
    expect(await deliveredRules((await emit({ confidence: 0.6 })).deliveryIds)).toEqual([loose.rule_id]);
    expect((await deliveredRules((await emit({ confidence: 0.8 })).deliveryIds)).sort()).toEqual(
      [strict.rule_id, loose.rule_id].sort(),
    );
    expect((await emit({ confidence: 0.4 })).deliveryIds).toEqual([]);
  });

  test("an event without a confidence counts as 1", async () => {
    await rule(tenantId, { conditions: { min_confidence: 1 } });
    expect((await emit()).deliveryIds).toHaveLength(1);
  });

  test("the confidence is added to the event data", async () => {
    await rule(tenantId);
    const { eventId } = await emit({ confidence: 0.75 });
    const row = await (await testSql(deps)).get<{ data: string }>(
      "SELECT CAST(data AS TEXT) AS data FROM events WHERE id = ?",
      eventId,
    );
    expect(JSON.parse(row?.data ?? "{}")).toEqual({ lead_id: "lead_1", confidence: 0.75 });
  });

  test("deliveries roll back with the caller's transaction", async () => {
    await rule(tenantId);
    const failing = deps.store.transaction(async (tx) => {
      await enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: {} });
      throw new Error("the lead insert failed");
    });
    await expect(failing).rejects.toThrow("the lead insert failed");
    expect(await countRows("deliveries")).toBe(0);
    expect(await countRows("events")).toBe(0);
  });

  test("the scheduler's listener is woken after the commit, when the delivery can be read", async () => {
    await rule(tenantId);
    const postgres = Boolean(testPostgresUrl());
    const sql = await testSql(deps);
    // Every pooled PostgreSQL connection open and idle: the listener's count goes out at once.
    await Promise.all([1, 2, 3, 4].map(() => sql.get("SELECT 1")));
    const seenByListener: Array<Promise<{ inTransaction: boolean | null; deliveries: number | undefined }>> = [];
    deps.deliveriesEnqueued.subscribe(() => {
      // SQLite: the count runs right here, on the writing connection, which sees its own
      // uncommitted rows, so it also checks that no transaction is open. PostgreSQL: the count
      // starts here on another pooled connection, which sees the delivery only once committed
      // (a wake-up before the commit races the COMMIT there: caught often, not always).
      const inTransaction = postgres ? null : deps.sqlite.inTransaction;
      seenByListener.push(
        sql
          .get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM deliveries")
          .then((row) => ({ inTransaction, deliveries: row?.n })),
      );
    });
    await emit();
    expect(await Promise.all(seenByListener)).toEqual([{ inTransaction: postgres ? null : false, deliveries: 1 }]);
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
