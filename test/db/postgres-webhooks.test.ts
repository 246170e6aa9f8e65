import { SQL } from "bun";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDatabase, type DatabaseHandle } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { createPostgresStore } from "../../src/db/postgres/store.ts";
import type {
  ClaimedDelivery,
  DeadLetterRow,
  DeliveryAttemptRow,
  DeliveryRow,
  FairSharePicker,
  Store,
} from "../../src/db/store.ts";
import { newId } from "../../src/lib/ids.ts";
import type { ClaimCandidate } from "../../src/scheduler/fair-share.ts";
import { openTestPgStore, testPostgresUrl, type TestPgStore } from "../pg/test-store.ts";
import { decideFinishedAttempts } from "../../src/webhooks/retry-policy.ts";

// The webhook aggregates and the delivery queue on PostgreSQL against SQLite: the same
// operations through both stores, every result equal (ids and lease tokens each store makes
// itself are normalised). Then two instances claiming the same queue concurrently.

const url = testPostgresUrl();
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 10, 12);
/** Headers as a send records them, with a quote, a backslash and a non-ASCII letter in a value. */
const SENT_HEADERS = { "webhook-id": "wh_03", "content-type": "application/json", "user-agent": 'Parley "bot" \\ é' };

interface Side {
  name: "sqlite" | "postgres";
  store: Store;
}

const leaseless = <T extends { leaseToken: string | null }>(row: T): T => ({
  ...row,
  leaseToken: row.leaseToken === null ? null : "<lease>",
});
const idless = <T extends { id: string }>(row: T): T => ({ ...row, id: "<id>" });
/**
 * A delivery row as both stores must agree on it. While leased, SQLite has pushed
 * next_attempt_at to the lease's end and PostgreSQL keeps the due time (its lease ends in the
 * token, so the lease rewrites no index): a leased row's next_attempt_at is left out.
 */
const compared = (row: DeliveryRow | null): DeliveryRow | null =>
  row && (row.leaseToken === null ? row : { ...leaseless(row), nextAttemptAt: null });

/** A fair share that skips one tenant and takes at most `cap` rows. */
function picker(
  skipTenant: string | null,
  cap: number,
  fullTenants: string[] = [],
  fullEndpoints: string[] = [],
): FairSharePicker {
  return {
    fullTenants: () => fullTenants,
    fullEndpoints: () => fullEndpoints,
    pick<T extends ClaimCandidate>(candidates: readonly T[], limit: number): T[] {
      return candidates.filter((candidate) => candidate.tenantId !== skipTenant).slice(0, Math.min(cap, limit));
    },
  };
}

describe.skipIf(!url)("PostgreSQL webhook aggregates match SQLite", () => {
  let handle: DatabaseHandle;
  let pg: TestPgStore;
  let sides: Side[];

  /** Runs `op` on both stores, asserts the (normalised) results are equal, returns SQLite's (normalised). */
  async function same<T>(op: (side: Side) => Promise<T>, normalise: (value: T) => T = (value) => value): Promise<T> {
    const [lite, post] = [normalise(await op(sides[0]!)), normalise(await op(sides[1]!))];
    expect(post).toEqual(lite);
    return lite;
  }

  beforeAll(async () => {
    handle = openDatabase(":memory:");
    applyMigrations(handle.sqlite, T0);
    pg = await openTestPgStore(url!, T0);
    sides = [
      { name: "sqlite", store: handle.store },
      { name: "postgres", store: pg.store },
    ];
    for (const side of sides) {
      for (const id of ["ten_a", "ten_b"]) {
        await side.store.tenants.insertTenant({
          id,
          name: id,
          plan: "free",
          sector: "general",
          allowedOrigins: [],
          createdAt: T0,
          updatedAt: T0,
        });
      }
    }
  });
  afterAll(async () => {
    handle?.sqlite.close();
    await pg?.close();
  });

  const rule = (id: string, tenantId: string, event: string, minConfidence: number | null, active = true) => ({
    id,
    tenantId,
    name: id,
    event,
    url: `https://hooks.example/${id}`,
    secret: `secret-${id}-xxxxxxxxxxxx`,
    minConfidence,
    active,
    createdAt: T0,
    updatedAt: T0,
    previousSecret: null,
    previousSecretUntil: null,
    rateLimitPerS: null,
    ordering: "none" as const,
  });
  const target = (id: string, url = `https://hooks.example/${id}`) => ({
    id,
    url,
    secret: `secret-${id}-xxxxxxxxxxxx`,
    previousSecret: null,
    previousSecretUntil: null,
    rateLimitPerS: null,
    ordering: "none" as const,
  });

  test("webhook rules", async () => {
    for (const row of [
      rule("rule_1", "ten_a", "lead.created", null),
      rule("rule_2", "ten_a", "lead.created", 0.8),
      rule("rule_3", "ten_a", "appointment.booked", null, false),
      rule("rule_4", "ten_a", "lead.created", 0.3),
      rule("rule_9", "ten_b", "lead.created", null),
    ]) {
      await same((s) => s.store.webhookRules.insertRule(row));
    }
    expect(await same((s) => s.store.webhookRules.findRule("ten_a", "rule_2"))).toEqual(
      rule("rule_2", "ten_a", "lead.created", 0.8),
    );
    expect(await same((s) => s.store.webhookRules.findRule("ten_b", "rule_2"))).toBeNull();
    expect(await same((s) => s.store.webhookRules.findRule("ten_a", "rule_3"))).toMatchObject({ active: false });
    expect(
      await same((s) =>
        s.store.webhookRules.findRuleIdByTarget("ten_a", "lead.created", "https://hooks.example/rule_1"),
      ),
    ).toBe("rule_1");
    expect(
      await same((s) =>
        s.store.webhookRules.findRuleIdByTarget("ten_a", "appointment.booked", "https://hooks.example/rule_1"),
      ),
    ).toBeNull();
    expect(await same((s) => s.store.webhookRules.countRules("ten_a"))).toBe(4);
    expect(await same((s) => s.store.webhookRules.countRules("ten_none"))).toBe(0);
    expect((await same((s) => s.store.webhookRules.listRules("ten_a", null, 10))).map((r) => r.id)).toEqual([
      "rule_1",
      "rule_2",
      "rule_3",
      "rule_4",
    ]);
    expect((await same((s) => s.store.webhookRules.listRules("ten_a", "rule_1", 2))).map((r) => r.id)).toEqual([
      "rule_2",
      "rule_3",
    ]);
    await same((s) =>
      s.store.webhookRules.updateRule("rule_4", {
        name: "renamed",
        minConfidence: null,
        active: false,
        updatedAt: T0 + 5,
      }),
    );
    await same((s) =>
      s.store.webhookRules.updateRule("rule_4", {
        active: true,
        minConfidence: 0.5,
        url: "https://hooks.example/four",
        name: undefined,
      }),
    );
    expect(await same((s) => s.store.webhookRules.findRule("ten_a", "rule_4"))).toMatchObject({
      name: "renamed",
      active: true,
      minConfidence: 0.5,
      updatedAt: T0 + 5,
    });
    for (const side of sides)
      await expect(side.store.webhookRules.updateRule("rule_4", {})).rejects.toThrow("No values to set");
    await same((s) => s.store.webhookRules.insertRule(rule("rule_8", "ten_a", "lead.created", null)));
    await same((s) => s.store.webhookRules.deleteRule("rule_8"));
    expect(await same((s) => s.store.webhookRules.countRules("ten_a"))).toBe(4);
  });

  const event = (id: string, tenantId: string, name: string, occurredAt: number, confidence: number | null = null) => ({
    id,
    tenantId,
    event: name,
    data: JSON.stringify({ id, nested: { x: 1 } }),
    confidence,
    occurredAt,
  });
  const delivery = (id: string, tenantId: string, eventId: string, ruleId: string, name: string, now: number) => ({
    id,
    tenantId,
    eventId,
    ruleId,
    event: name,
    url: `https://hooks.example/${ruleId}`,
    now,
  });

  test("outbox, delivery log and the queue", async () => {
    // Targets by confidence and activity.
    expect(await same((s) => s.store.outbox.listMatchingTargets("ten_a", "lead.created", 0.6))).toEqual([
      target("rule_1"),
      target("rule_4", "https://hooks.example/four"),
    ]);
    expect(
      (await same((s) => s.store.outbox.listMatchingTargets("ten_a", "lead.created", 0.9))).map((t) => t.id),
    ).toEqual(["rule_1", "rule_2", "rule_4"]);
    expect(await same((s) => s.store.outbox.listMatchingTargets("ten_a", "appointment.booked", 1))).toEqual([]);
    expect(await same((s) => s.store.outbox.listRuleTarget("ten_a", "rule_3"))).toEqual([target("rule_3")]);
    expect(await same((s) => s.store.outbox.listRuleTarget("ten_b", "rule_3"))).toEqual([]);

    // Events over three days, deliveries for them (ids sort by creation time).
    await same((s) => s.store.outbox.insertEvent(event("evt_1", "ten_a", "lead.created", T0 - 2 * DAY, 0.9)));
    await same((s) => s.store.outbox.insertEvent(event("evt_2", "ten_a", "lead.created", T0 - DAY)));
    await same((s) => s.store.outbox.insertEvent(event("evt_3", "ten_b", "lead.created", T0)));
    await same((s) => s.store.outbox.insertEvent(event("evt_4", "ten_a", "appointment.booked", T0)));
    await same((s) => s.store.outbox.insertEvent(event("evt_old", "ten_a", "lead.created", T0 - 10 * DAY)));
    await same((s) => s.store.outbox.insertEvent(event("evt_old2", "ten_a", "lead.created", T0 - 9 * DAY)));
    const planned = [
      delivery("wh_01", "ten_a", "evt_1", "rule_1", "lead.created", T0 - 2 * DAY),
      delivery("wh_02", "ten_a", "evt_1", "rule_2", "lead.created", T0 - 2 * DAY),
      delivery("wh_03", "ten_a", "evt_2", "rule_1", "lead.created", T0 - DAY),
      delivery("wh_04", "ten_a", "evt_2", "rule_4", "lead.created", T0 - DAY),
      delivery("wh_05", "ten_b", "evt_3", "rule_9", "lead.created", T0),
      delivery("wh_06", "ten_a", "evt_4", "rule_3", "appointment.booked", T0),
      delivery("wh_07", "ten_a", "evt_2", "rule_2", "lead.created", T0 - DAY),
    ];
    for (const row of planned) await same((s) => s.store.outbox.insertPendingDelivery(row));
    expect(await same((s) => s.store.outbox.purgeSpentEvents(T0 - 5 * DAY, 1))).toBe(1);
    expect(await same((s) => s.store.outbox.purgeSpentEvents(T0, 10))).toBe(1);
    expect(await same((s) => s.store.outbox.purgeSpentEvents(T0, 10))).toBe(0);

    // The log, with each filter.
    expect((await same((s) => s.store.deliveries.listDeliveries("ten_a", {}, null, 100))).map((d) => d.id)).toEqual([
      "wh_07",
      "wh_06",
      "wh_04",
      "wh_03",
      "wh_02",
      "wh_01",
    ]);
    for (const [filter, before, limit] of [
      [{ status: "pending" }, null, 3],
      [{ event: "lead.created" }, "wh_04", 10],
      [{ ruleId: "rule_1" }, null, 10],
      [{ status: "pending", event: "lead.created", ruleId: "rule_2" }, "wh_07", 10],
      [{ status: "dead" }, null, 10],
      [{}, "wh_03", 1],
    ] as const) {
      await same((s) => s.store.deliveries.listDeliveries("ten_a", filter, before, limit));
    }
    expect(await same((s) => s.store.deliveries.findDelivery("ten_a", "wh_01"))).toMatchObject({
      id: "wh_01",
      status: "pending",
      attempts: 0,
      cycle: 1,
      nextAttemptAt: T0 - 2 * DAY,
      leaseToken: null,
      createdAt: T0 - 2 * DAY,
      completedAt: null,
    });
    expect(await same((s) => s.store.deliveries.findDelivery("ten_b", "wh_01"))).toBeNull();

    // Delete a rule with a pending delivery: the claim cancels it. Then claim due rows in order.
    await same((s) => s.store.webhookRules.deleteRule("rule_2"));
    expect(await same((s) => s.store.deliveryQueue.queueGauges(T0 - DAY))).toEqual({
      due: 5,
      pending: 7,
      waiting: 0,
      deadLetters: 0,
    });
    const claimed = await same(
      (s) => s.store.deliveryQueue.claimDueDeliveries(T0 - DAY, 3, 2 * DAY),
      (rows) => rows.map(leaseless),
    );
    expect(claimed.map((c) => c.id)).toEqual(["wh_01", "wh_03"]); // wh_02's rule is gone
    expect(claimed[0]).toMatchObject({
      tenantId: "ten_a",
      ruleId: "rule_1",
      event: "lead.created",
      attempts: 0,
      cycle: 1,
      url: "https://hooks.example/rule_1",
      occurredAt: T0 - 2 * DAY,
    });
    expect(JSON.parse(claimed[0]!.data)).toEqual({ id: "evt_1", nested: { x: 1 } });
    expect(await same((s) => s.store.deliveries.findDelivery("ten_a", "wh_02"))).toMatchObject({
      status: "cancelled",
      nextAttemptAt: null,
      leaseToken: null,
      lastError: "rule_deleted: the rule was deleted before this delivery was sent",
      completedAt: T0 - DAY,
    });
    expect(await same((s) => s.store.deliveries.findDelivery("ten_a", "wh_03"), compared)).toMatchObject({
      leaseToken: "<lease>",
      updatedAt: T0 - DAY,
    });
    expect((await handle.store.deliveries.findDelivery("ten_a", "wh_03"))?.nextAttemptAt).toBe(T0 + DAY);
    expect((await pg.store.deliveries.findDelivery("ten_a", "wh_03"))?.nextAttemptAt).toBe(T0 - DAY);
    expect(await same((s) => s.store.deliveryQueue.claimDueDeliveries(T0 - 2 * DAY, 10, 60_000))).toEqual([]);

    // The fair claim: skips ten_b (picker), skips full endpoints in SQL, cancels wh_07 (rule_2 gone).
    const fair1 = await same(
      (s) =>
        s.store.deliveryQueue.claimFairShare(T0, 10, 30_000, picker("ten_b", 10, [], ["https://hooks.example/four"])),
      (claim) => ({ ...claim, claimed: claim.claimed.map(leaseless) }),
    );
    expect(fair1.claimed.map((c) => c.id)).toEqual(["wh_06"]);
    expect(fair1.more).toBe(true);
    expect(await same((s) => s.store.deliveries.findDelivery("ten_a", "wh_07"))).toMatchObject({
      status: "cancelled",
      completedAt: T0,
    });
    expect(
      await same(
        (s) => s.store.deliveries.findDelivery("ten_b", "wh_05"),
        (row) => row && leaseless(row),
      ),
    ).toMatchObject({ leaseToken: null, nextAttemptAt: T0 });
    // A full window reports more; a full tenant is skipped in SQL; nothing picked leases nothing.
    expect(await same((s) => s.store.deliveryQueue.claimFairShare(T0, 1, 30_000, picker("ten_b", 0)))).toEqual({
      claimed: [],
      more: true,
    });
    expect(
      await same((s) => s.store.deliveryQueue.claimFairShare(T0, 5, 30_000, picker(null, 5, ["ten_a", "ten_b"]))),
    ).toEqual({ claimed: [], more: false });
    const fair2 = await same(
      (s) => s.store.deliveryQueue.claimFairShare(T0, 5, 30_000, picker(null, 5)),
      (claim) => ({ ...claim, claimed: claim.claimed.map(leaseless) }),
    );
    expect(fair2).toMatchObject({ more: false });
    expect(fair2.claimed.map((c) => c.id)).toEqual(["wh_04", "wh_05"]);

    // Results: success, retry, dead, and a stale lease; each store records its own claims.
    const claims = new Map<string, ClaimedDelivery[]>();
    for (const side of sides) {
      const rows = await Promise.all(
        ["wh_01", "wh_03", "wh_04", "wh_05", "wh_06"].map(
          async (id) => (await side.store.deliveries.findDelivery(id === "wh_05" ? "ten_b" : "ten_a", id))!,
        ),
      );
      expect(rows.every((row) => row.leaseToken !== null)).toBe(true);
      claims.set(
        side.name,
        rows.map(
          (row): ClaimedDelivery => ({
            id: row.id,
            tenantId: row.tenantId,
            ruleId: row.ruleId!,
            event: row.event,
            attempts: row.attempts,
            cycle: row.cycle,
            leaseToken: row.leaseToken!,
            url: row.url,
            secret: "x",
            data: "{}",
            occurredAt: 0,
          }),
        ),
      );
    }
    const ok = { ok: true, statusCode: 200, error: null, durationMs: 12.5, responseExcerpt: "fine" };
    const failed = { ok: false, statusCode: 500, error: "http_500: boom", durationMs: 7, responseExcerpt: null };
    const outcomes = await same((s) => {
      const [c1, c3, c4, c5, c6] = claims.get(s.name)!;
      return s.store.deliveryQueue.recordAttempts(
        decideFinishedAttempts({ retryDelaysMs: [1000], dlqRetentionMs: 7 * DAY }, [
          { delivery: c1!, result: ok, startedAt: T0 + 1, finishedAt: T0 + 2 },
          { delivery: c3!, result: failed, startedAt: T0 + 3, finishedAt: T0 + 4, requestHeaders: SENT_HEADERS },
          { delivery: { ...c4!, attempts: 1 }, result: failed, startedAt: T0 + 5, finishedAt: T0 + 6 },
          { delivery: { ...c5!, leaseToken: "att_stale" }, result: ok, startedAt: T0 + 7, finishedAt: T0 + 8 },
          {
            delivery: c6!,
            result: { ...failed, statusCode: null, error: "timeout" },
            startedAt: T0 + 9,
            finishedAt: T0 + 10,
          },
        ]),
      );
    });
    expect(outcomes).toEqual(["succeeded", "retry", "dead", "stale", "retry"]);
    for (const [tenantId, id] of [
      ["ten_a", "wh_01"],
      ["ten_a", "wh_03"],
      ["ten_a", "wh_04"],
      ["ten_b", "wh_05"],
      ["ten_a", "wh_06"],
    ] as const) {
      await same((s) => s.store.deliveries.findDelivery(tenantId, id), compared);
      await same(
        (s) => s.store.deliveries.listAttempts(id),
        (rows: DeliveryAttemptRow[]) => rows.map(idless),
      );
    }
    expect(
      await same(
        (s) => s.store.deliveries.listAttempts("wh_01"),
        (rows) => rows.map(idless),
      ),
    ).toEqual([
      {
        id: "<id>",
        deliveryId: "wh_01",
        cycle: 1,
        attempt: 1,
        startedAt: T0 + 1,
        durationMs: 12.5,
        ok: true,
        statusCode: 200,
        error: null,
        responseExcerpt: "fine",
        requestHeaders: null,
      },
    ]);
    // The headers sent are kept as their JSON text, key order and escapes as they were.
    expect(
      (
        await same(
          (s) => s.store.deliveries.listAttempts("wh_03"),
          (rows) => rows.map(idless),
        )
      )[0]?.requestHeaders,
    ).toBe(JSON.stringify(SENT_HEADERS));
    expect(await same((s) => s.store.deliveries.findDelivery("ten_a", "wh_03"))).toMatchObject({
      attempts: 1,
      nextAttemptAt: T0 + 1004,
      leaseToken: null,
      lastStatusCode: 500,
    });
    // wh_06 again, now its last attempt: dead. A second record with the old token is stale.
    const wh06 = new Map<string, ClaimedDelivery>();
    for (const side of sides) {
      const [claim] = await side.store.deliveryQueue.claimDueDeliveries(T0 + 2000, 10, 30_000);
      expect(claim?.id).toBe("wh_03");
      const again = await side.store.deliveryQueue.claimDueDeliveries(T0 + 2000 + DAY, 10, 30_000);
      wh06.set(side.name, again.find((c) => c.id === "wh_06")!);
    }
    expect(
      await same((s) =>
        s.store.deliveryQueue.recordAttempts(
          decideFinishedAttempts({ retryDelaysMs: [1000], dlqRetentionMs: 2 * DAY }, [
            { delivery: wh06.get(s.name)!, result: failed, startedAt: T0 + DAY, finishedAt: T0 + DAY + 1 },
            { delivery: wh06.get(s.name)!, result: failed, startedAt: T0 + DAY + 2, finishedAt: T0 + DAY + 3 },
          ]),
        ),
      ),
    ).toEqual(["dead", "stale"]);
    // An attempt of a delivery deleted meanwhile vanishes without failing the batch.
    expect(
      await same((s) =>
        s.store.deliveryQueue.recordAttempts(
          decideFinishedAttempts({ retryDelaysMs: [], dlqRetentionMs: DAY }, [
            { delivery: { ...wh06.get(s.name)!, id: "wh_gone" }, result: ok, startedAt: T0, finishedAt: T0 },
          ]),
        ),
      ),
    ).toEqual(["stale"]);
    expect(await same((s) => s.store.deliveries.listAttempts("wh_gone"))).toEqual([]);
    expect(await same((s) => s.store.deliveryQueue.queueGauges(T0 + 10 * DAY))).toEqual({
      due: 2,
      pending: 2,
      waiting: 0,
      deadLetters: 2,
    });
    expect(
      await same((s) =>
        s.store.deliveryQueue.recordAttempts(decideFinishedAttempts({ retryDelaysMs: [], dlqRetentionMs: DAY }, [])),
      ),
    ).toEqual([]);

    // Stats.
    expect(await same((s) => s.store.deliveries.countDeliveriesByRule("ten_a", "wh_"))).toEqual([
      {
        ruleId: "rule_1",
        total: 2,
        succeeded: 1,
        dead: 0,
        lastStatus: "pending",
        lastStatusCode: 500,
        lastAt: T0 + DAY + 2000,
      },
      {
        ruleId: "rule_3",
        total: 1,
        succeeded: 0,
        dead: 1,
        lastStatus: "dead",
        lastStatusCode: 500,
        lastAt: T0 + DAY + 1,
      },
      { ruleId: "rule_4", total: 1, succeeded: 0, dead: 1, lastStatus: "dead", lastStatusCode: 500, lastAt: T0 + 6 },
    ]);
    await same((s) => s.store.deliveries.countDeliveriesByRule("ten_a", "wh_04"));
    await same((s) => s.store.deliveries.countDeliveriesByRule("ten_b", "wh_"));
    expect(await same((s) => s.store.deliveries.countDeliveriesByDay("ten_a", "wh_"))).toEqual([
      { day: "2025-01-08", total: 2, succeeded: 1, dead: 0 },
      { day: "2025-01-09", total: 3, succeeded: 0, dead: 1 },
      { day: "2025-01-10", total: 1, succeeded: 0, dead: 1 },
    ]);
    expect(await same((s) => s.store.deliveries.countDeliveriesByDay("ten_a", "wh_05"))).toEqual([
      { day: "2025-01-09", total: 1, succeeded: 0, dead: 0 },
      { day: "2025-01-10", total: 1, succeeded: 0, dead: 1 },
    ]);
    const byId = <T extends { id: string }>(rows: T[]): T[] => [...rows].sort((a, b) => a.id.localeCompare(b.id));
    expect(
      await same((s) => s.store.deliveries.describeDeliveries("ten_a", ["wh_01", "wh_06", "wh_05", "wh_nope"]), byId),
    ).toEqual([
      { id: "wh_01", url: "https://hooks.example/rule_1", totalAttempts: 1 },
      { id: "wh_06", url: "https://hooks.example/rule_3", totalAttempts: 3 },
    ]);
    expect(await same((s) => s.store.deliveries.describeDeliveries("ten_a", []))).toEqual([]);
  });

  test("dead letters and purges", async () => {
    const live = (
      tenantId: string | null,
      extra: { event?: string; sinceMs?: number } = {},
      now = T0 + DAY,
      before: (side: Side) => string | null = () => null,
      limit = 10,
    ) =>
      same(
        (s) => s.store.deadLetters.listLiveDeadLetters({ tenantId, ...extra }, now, before(s), limit),
        (rows: DeadLetterRow[]) => rows.map(idless),
      );
    const all = await live(null);
    expect(all.map((row) => row.deliveryId)).toEqual(["wh_06", "wh_04"]);
    expect(all[1]).toMatchObject({
      tenantId: "ten_a",
      ruleId: "rule_4",
      event: "lead.created",
      attempts: 2,
      lastStatusCode: 500,
      lastError: "http_500: boom",
      deadAt: T0 + 6,
      expiresAt: T0 + 6 + 7 * DAY,
    });
    const ids = new Map<string, string[]>();
    for (const side of sides)
      ids.set(
        side.name,
        (await side.store.deadLetters.listLiveDeadLetters({ tenantId: null }, T0 + DAY, null, 10)).map((row) => row.id),
      );
    expect(await live("ten_a", { event: "appointment.booked" })).toHaveLength(1);
    expect(await live("ten_a", { sinceMs: T0 + 100 })).toHaveLength(1);
    expect(await live("ten_b")).toHaveLength(0);
    expect(await live(null, { event: "lead.created" })).toHaveLength(1);
    expect(await live("ten_a", {}, T0 + 3 * DAY + 1)).toHaveLength(1); // wh_06's expired
    expect(await live("ten_a", {}, T0 + DAY, (s) => ids.get(s.name)![0]!)).toHaveLength(1);
    expect(await live(null, {}, T0 + DAY, (s) => ids.get(s.name)![0]!, 1)).toHaveLength(1);
    expect(
      await live("ten_a", { event: "lead.created", sinceMs: 0 }, T0 + DAY, (s) => ids.get(s.name)![0]!, 5),
    ).toHaveLength(1);

    const [newest, older] = [0, 1].map((i) => (s: Side) => ids.get(s.name)![i]!);
    expect(
      await same(
        (s) => s.store.deadLetters.findLiveDeadLetter(older!(s), T0 + DAY),
        (row) => row && idless(row),
      ),
    ).toMatchObject({ deliveryId: "wh_04" });
    expect(await same((s) => s.store.deadLetters.findLiveDeadLetter(newest!(s), T0 + 4 * DAY))).toBeNull();
    // Discard: wrong tenant, expired, then the real one.
    expect(await same((s) => s.store.deadLetters.discardDeadLetter("ten_b", older!(s), T0 + DAY))).toBeNull();
    expect(await same((s) => s.store.deadLetters.discardDeadLetter("ten_a", newest!(s), T0 + 4 * DAY))).toBeNull();
    const discarded = await same(
      (s) => s.store.deadLetters.discardDeadLetter("ten_a", older!(s), T0 + DAY),
      (row) => row && idless(row),
    );
    expect(discarded).toMatchObject({ deliveryId: "wh_04" });
    // Restart a dead delivery; only a dead one.
    expect(await same((s) => s.store.deadLetters.restartDeadDelivery("wh_04", T0 + 2 * DAY))).toBe(true);
    expect(await same((s) => s.store.deadLetters.restartDeadDelivery("wh_04", T0 + 2 * DAY))).toBe(false);
    expect(await same((s) => s.store.deliveries.findDelivery("ten_a", "wh_04"))).toMatchObject({
      status: "pending",
      attempts: 0,
      cycle: 2,
      nextAttemptAt: T0 + 2 * DAY,
      leaseToken: null,
      lastStatusCode: null,
      lastError: null,
      completedAt: null,
      updatedAt: T0 + 2 * DAY,
    });
    // A dead letter deleted outright, then the sweeper.
    expect(await same((s) => s.store.deadLetters.purgeExpiredDeadLetters(T0 + 3 * DAY + 1))).toBe(1);
    expect(await same((s) => s.store.deadLetters.purgeExpiredDeadLetters(T0 + 30 * DAY))).toBe(0);
    await same((s) => s.store.deadLetters.deleteDeadLetter(newest!(s)));
    expect(await same((s) => s.store.deliveryQueue.queueGauges(T0))).toEqual({
      due: 0,
      pending: 3,
      waiting: 0,
      deadLetters: 0,
    });

    // Purges: finished deliveries (succeeded, cancelled, dead without a letter), then spent events.
    expect(await same((s) => s.store.deliveries.purgeSpentDeliveries(T0 - DAY, 10))).toBe(1); // wh_02 (cancelled at T0 - DAY)
    expect(await same((s) => s.store.deliveries.purgeSpentDeliveries(T0 + 30 * DAY, 2))).toBe(2);
    expect(await same((s) => s.store.deliveries.purgeSpentDeliveries(T0 + 30 * DAY, 10))).toBe(1);
    expect(
      (
        await same(
          (s) => s.store.deliveries.listDeliveries("ten_a", {}, null, 100),
          (rows) => rows.map((row) => compared(row)!),
        )
      ).map((d) => d.id),
    ).toEqual(["wh_04", "wh_03"]);
    expect(await same((s) => s.store.deliveries.listAttempts("wh_01"))).toEqual([]);
    expect(await same((s) => s.store.outbox.purgeSpentEvents(T0 + 30 * DAY, 10))).toBe(2); // evt_1 and evt_4
  });
});

describe.skipIf(!url)("two PostgreSQL instances claiming one queue", () => {
  let pg: TestPgStore;
  let second: SQL;
  let other: Store;
  const ROWS = 500;

  beforeAll(async () => {
    pg = await openTestPgStore(url!, T0);
    second = new SQL({ url: url!, max: 4, connection: { search_path: pg.schema } });
    other = createPostgresStore(second);
    const store = pg.store;
    await store.tenants.insertTenant({
      id: "ten_c",
      name: "c",
      plan: "free",
      sector: "general",
      allowedOrigins: [],
      createdAt: T0,
      updatedAt: T0,
    });
    await store.tenants.insertTenant({
      id: "ten_d",
      name: "d",
      plan: "free",
      sector: "general",
      allowedOrigins: [],
      createdAt: T0,
      updatedAt: T0,
    });
    await store.webhookRules.insertRule(rule("rule_c", "ten_c"));
    await store.webhookRules.insertRule(rule("rule_d", "ten_d"));
    await store.outbox.insertEvent({
      id: "evt_c",
      tenantId: "ten_c",
      event: "lead.created",
      data: "{}",
      confidence: null,
      occurredAt: T0,
    });
    await store.outbox.insertEvent({
      id: "evt_d",
      tenantId: "ten_d",
      event: "lead.created",
      data: "{}",
      confidence: null,
      occurredAt: T0,
    });
  });
  afterAll(async () => {
    await second?.close();
    await pg?.close();
  });

  function rule(id: string, tenantId: string) {
    return {
      id,
      tenantId,
      name: id,
      event: "lead.created",
      url: `https://hooks.example/${id}`,
      secret: "s".repeat(20),
      minConfidence: null,
      active: true,
      createdAt: T0,
      updatedAt: T0,
    };
  }

  /** ROWS due deliveries (half each tenant), all due at `due` or a little before. */
  async function fill(due: number): Promise<string[]> {
    const ids: string[] = [];
    await pg.store.transaction(async (tx) => {
      for (let i = 0; i < ROWS; i++) {
        const tenant = i % 2 === 0 ? "c" : "d";
        const id = newId("wh", due);
        ids.push(id);
        await tx.outbox.insertPendingDelivery({
          id,
          tenantId: `ten_${tenant}`,
          eventId: `evt_${tenant}`,
          ruleId: `rule_${tenant}`,
          event: "lead.created",
          url: "u",
          now: due - (i % 7),
        });
      }
    });
    return ids;
  }

  /** Claims until nothing is due at `now`; the ids this instance got. */
  async function drain(
    store: Store,
    now: number,
    claim: (store: Store) => Promise<ClaimedDelivery[]>,
  ): Promise<string[]> {
    const got: string[] = [];
    for (let round = 0; round < 10_000; round++) {
      const claimed = await claim(store);
      got.push(...claimed.map((c) => c.id));
      if (claimed.length === 0 && (await store.deliveryQueue.queueGauges(now)).due === 0) return got;
    }
    throw new Error("the queue never drained");
  }

  function expectDisjointCover(a: string[], b: string[], all: string[]) {
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    const setA = new Set(a);
    expect(setA.size).toBe(a.length);
    expect(new Set(b).size).toBe(b.length);
    expect(b.filter((id) => setA.has(id))).toEqual([]);
    expect([...a, ...b].sort()).toEqual([...all].sort());
  }

  test("claimDueDeliveries: disjoint claims that cover every due row", async () => {
    const now = T0 + 1000;
    const all = await fill(now);
    const claim = (store: Store) => store.deliveryQueue.claimDueDeliveries(now, 13, 100 * DAY);
    const [a, b] = await Promise.all([drain(pg.store, now, claim), drain(other, now, claim)]);
    expectDisjointCover(a, b, all);
    const tokens = await pg.sql.unsafe<Array<{ n: number }>>(
      "SELECT count(*)::int AS n FROM deliveries WHERE lease_token IS NULL AND status = 'pending'",
    );
    expect(tokens[0]!.n).toBe(0);
  });

  test("claimFairShare: disjoint claims that cover every due row", async () => {
    const now = T0 + 10 * DAY;
    const all = await fill(now);
    const fair = picker(null, 64);
    const claim = async (store: Store) => (await store.deliveryQueue.claimFairShare(now, 20, 100 * DAY, fair)).claimed;
    const [a, b] = await Promise.all([drain(pg.store, now, claim), drain(other, now, claim)]);
    expectDisjointCover(a, b, all);
  });
});
