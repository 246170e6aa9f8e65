import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { MAX_GROUP } from "../../src/db/sqlite/group-commit.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { buildDeps, watchTransactionControl, webhookRuleRow } from "../helpers.ts";
import { decideFinishedAttempts } from "../../src/webhooks/retry-policy.ts";

// @sqlite-only: counts the SQLite store's group commit (BEGIN/SAVEPOINT/COMMIT on one connection); PostgreSQL gives each transaction a pooled connection of its own, no group commit

let deps: ReturnType<typeof buildDeps>;
let tenantId: string;
/** Every transaction-control statement the store runs (BEGIN, SAVEPOINT, COMMIT…), in order; `failOn` throws instead. */
let watch: ReturnType<typeof watchTransactionControl>;

const ruleRow = (id: string) => webhookRuleRow(tenantId, id);

const ruleIds = () =>
  deps.sqlite
    .prepare<{ id: string }, []>("SELECT id FROM webhook_rules ORDER BY id")
    .all()
    .map((row) => row.id);
const count = (statement: string) => watch.executed.filter((sql) => sql === statement).length;
/** A lead.created delivery for a new rule, enqueued and claimed (each in a transaction of its own). */
async function claimOneDelivery() {
  await deps.store.webhookRules.insertRule(ruleRow("rule_hook"));
  await deps.store.transaction((tx) => enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: {} }));
  const [delivery] = await deps.store.deliveryQueue.claimDueDeliveries(deps.clock.now(), 10, 60_000);
  if (!delivery) throw new Error("nothing was claimed");
  return delivery;
}
const insertOne = (id: string) =>
  deps.store.transaction(async (tx) => {
    await tx.webhookRules.insertRule(ruleRow(id));
    return id;
  });

beforeEach(async () => {
  watch = watchTransactionControl();
  deps = buildDeps();
  tenantId = (await createTenant(deps, { name: "A" })).id;
  watch.executed.length = 0;
});
afterEach(() => {
  watch.stop();
  deps.sqlite.close();
});

describe("group commit on SQLite", () => {
  test("transactions started in the same turn share one BEGIN IMMEDIATE and one COMMIT, each in its own savepoint", async () => {
    const results = await Promise.all(["rule_a", "rule_b", "rule_c"].map(insertOne));
    expect(results).toEqual(["rule_a", "rule_b", "rule_c"]);
    expect(ruleIds()).toEqual(["rule_a", "rule_b", "rule_c"]);
    expect(count("BEGIN IMMEDIATE")).toBe(1);
    expect(count("COMMIT")).toBe(1);
    expect(count("SAVEPOINT parley_tx")).toBe(3);
    expect(deps.sqlite.inTransaction).toBe(false);
  });

  test("a lone transaction commits on its own, without waiting for others or for the clock", async () => {
    expect(await insertOne("rule_a")).toBe("rule_a");
    expect(watch.executed).toEqual(["BEGIN IMMEDIATE", "SAVEPOINT parley_tx", "RELEASE parley_tx", "COMMIT"]);
    expect(ruleIds()).toEqual(["rule_a"]);
  });

  test("transactions started in different turns commit separately", async () => {
    await insertOne("rule_a");
    await insertOne("rule_b");
    expect(count("BEGIN IMMEDIATE")).toBe(2);
    expect(count("COMMIT")).toBe(2);
  });

  test("a group holds at most MAX_GROUP transactions; the rest commit in the next one", async () => {
    const ids = Array.from({ length: MAX_GROUP + 3 }, (_, index) => `rule_${String(index).padStart(3, "0")}`);
    await Promise.all(ids.map(insertOne));
    expect(ruleIds()).toEqual(ids);
    expect(count("BEGIN IMMEDIATE")).toBe(2);
    expect(count("COMMIT")).toBe(2);
  });

  test("a failing transaction rolls back only its own savepoint: only its caller gets the error, the others' rows stay", async () => {
    const first = insertOne("rule_a");
    const failing = deps.store.transaction(async (tx) => {
      await tx.webhookRules.insertRule(ruleRow("rule_failed"));
      throw new Error("this message failed");
    });
    const last = insertOne("rule_c");
    await expect(failing).rejects.toThrow("this message failed");
    expect(await first).toBe("rule_a");
    expect(await last).toBe("rule_c");
    expect(ruleIds()).toEqual(["rule_a", "rule_c"]);
    expect(count("ROLLBACK TO parley_tx")).toBe(1);
    expect(count("COMMIT")).toBe(1);
  });

  test("a failed SQL statement (a duplicate key) rolls back only that transaction", async () => {
    await insertOne("rule_a");
    const results = await Promise.allSettled([insertOne("rule_b"), insertOne("rule_a"), insertOne("rule_c")]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(ruleIds()).toEqual(["rule_a", "rule_b", "rule_c"]);
  });

  test("no caller's promise resolves and no onCommit hook runs before the group's COMMIT; hooks run in order", async () => {
    const seen: string[] = [];
    const settled: string[] = [];
    const withHooks = (id: string) =>
      deps.store.transaction(async (tx) => {
        await tx.webhookRules.insertRule(ruleRow(id));
        tx.onCommit(() => seen.push(`${id} hook 1, committed: ${count("COMMIT")}`));
        tx.onCommit(() => seen.push(`${id} hook 2`));
      });
    const all = ["rule_a", "rule_b"].map((id) =>
      withHooks(id).then(() => settled.push(`${id}, committed: ${count("COMMIT")}`)),
    );
    const rolledBack = deps.store.transaction(async (tx) => {
      tx.onCommit(() => seen.push("hook of a rolled-back transaction"));
      throw new Error("no");
    });
    await expect(rolledBack).rejects.toThrow("no");
    await Promise.all(all);
    expect(seen).toEqual([
      "rule_a hook 1, committed: 1",
      "rule_a hook 2",
      "rule_b hook 1, committed: 1",
      "rule_b hook 2",
    ]);
    expect(settled).toEqual(["rule_a, committed: 1", "rule_b, committed: 1"]);
  });

  test("a failed COMMIT reaches every caller of the group, and nothing of theirs is stored", async () => {
    watch.failOn = { statement: "COMMIT", error: new Error("SQLITE_FULL: database or disk is full") };
    const seen: string[] = [];
    const group = ["rule_a", "rule_b", "rule_c"].map((id) =>
      deps.store.transaction(async (tx) => {
        await tx.webhookRules.insertRule(ruleRow(id));
        tx.onCommit(() => seen.push(id));
      }),
    );
    const results = await Promise.allSettled(group);
    expect(results.map((result) => (result.status === "rejected" ? String(result.reason) : "fulfilled"))).toEqual(
      Array(3).fill("Error: SQLITE_FULL: database or disk is full"),
    );
    expect(seen).toEqual([]);
    expect(deps.sqlite.inTransaction).toBe(false);
    expect(ruleIds()).toEqual([]);
    // The store works on afterwards.
    watch.failOn = null;
    await insertOne("rule_d");
    expect(ruleIds()).toEqual(["rule_d"]);
  });

  test("when SQLite rolls back the whole transaction itself (a full disk mid-statement), the earlier callers fail too and the later ones commit in the next group", async () => {
    const first = insertOne("rule_a");
    const failing = deps.store.transaction(async (tx) => {
      await tx.webhookRules.insertRule(ruleRow("rule_b"));
      // What SQLite does on SQLITE_FULL or an I/O error: the whole transaction is gone.
      deps.sqlite.exec("ROLLBACK");
      throw new Error("SQLITE_FULL: database or disk is full");
    });
    const later = insertOne("rule_c");
    const results = await Promise.allSettled([first, failing, later]);
    expect(results.map((result) => (result.status === "rejected" ? String(result.reason) : result.value))).toEqual([
      "Error: SQLITE_FULL: database or disk is full",
      "Error: SQLITE_FULL: database or disk is full",
      "rule_c",
    ]);
    expect(ruleIds()).toEqual(["rule_c"]);
    expect(count("BEGIN IMMEDIATE")).toBe(2);
  });

  test("a failed BEGIN IMMEDIATE (the lock is busy) reaches every caller and runs no callback", async () => {
    watch.failOn = { statement: "BEGIN IMMEDIATE", error: new Error("SQLITE_BUSY: database is locked") };
    let ran = 0;
    const group = [1, 2].map(() => deps.store.transaction(async () => void ran++));
    const results = await Promise.allSettled(group);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect(ran).toBe(0);
  });

  test("a tx kept by one callback is refused while the next callback of the group runs", async () => {
    let leaked: Parameters<Parameters<typeof deps.store.transaction>[0]>[0] | undefined;
    const first = deps.store.transaction(async (tx) => {
      leaked = tx;
    });
    const second = deps.store.transaction(async (tx) => {
      await tx.webhookRules.insertRule(ruleRow("rule_b"));
      await leaked!.webhookRules.insertRule(ruleRow("rule_leaked"));
    });
    await first;
    await expect(second).rejects.toThrow("already ended");
    expect(ruleIds()).toEqual([]);
    expect(count("BEGIN IMMEDIATE")).toBe(1);
  });

  test("a store call made while a group is open waits for its COMMIT and never lands inside it", async () => {
    let countedInside: boolean | undefined;
    const group = [
      deps.store.transaction(async (tx) => {
        await tx.webhookRules.insertRule(ruleRow("rule_a"));
        // Lets the turn end while the group is open, so the other request below runs.
        await new Promise((resolve) => setImmediate(resolve));
      }),
      insertOne("rule_b"),
    ];
    // Another request's read, in the turn after the group opened (queued after its start).
    const outside = new Promise<number>((resolve) =>
      setImmediate(() => {
        countedInside = deps.sqlite.inTransaction;
        resolve(deps.store.webhookRules.countRules(tenantId));
      }),
    );
    await Promise.all(group);
    expect(countedInside).toBe(true);
    expect(await outside).toBe(2);
    expect(count("COMMIT")).toBe(1);
  });

  test("the scheduler's results join a group that is forming: a failed COMMIT fails the record with the chat transaction beside it", async () => {
    const delivery = await claimOneDelivery();
    const now = deps.clock.now();
    const ok = { ok: true, statusCode: 200, error: null, durationMs: 3, responseExcerpt: null };
    const record = () =>
      deps.store.deliveryQueue.recordAttempts(
        decideFinishedAttempts({ retryDelaysMs: [1000], dlqRetentionMs: 1000 }, [
          { delivery, result: ok, startedAt: now, finishedAt: now },
        ]),
      );
    const status = () =>
      deps.sqlite.prepare<{ status: string }, [string]>("SELECT status FROM deliveries WHERE id = ?").get(delivery.id)
        ?.status;

    watch.failOn = { statement: "COMMIT", error: new Error("disk I/O error") };
    const failed = await Promise.allSettled([insertOne("rule_b"), record()]);
    expect(failed.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect(status()).toBe("pending");
    expect(deps.sqlite.prepare<{ n: number }, []>("SELECT count(*) AS n FROM delivery_attempts").get()?.n).toBe(0);

    watch.failOn = null;
    watch.executed.length = 0;
    const [, outcomes] = await Promise.all([insertOne("rule_b"), record()]);
    expect(outcomes).toEqual(["succeeded"]);
    expect(status()).toBe("succeeded");
    expect(count("COMMIT")).toBe(1);
  });

  test("a failed record rolls back only its own savepoint: the group's other transactions commit", async () => {
    const delivery = await claimOneDelivery();
    const now = deps.clock.now();
    // A dead letter for a tenant that does not exist: its foreign key fails the whole record.
    const broken = { ...delivery, tenantId: "ten_missing" };
    const failed = { ok: false, statusCode: 500, error: "http_500", durationMs: 3, responseExcerpt: null };
    const [inserted, recorded] = await Promise.allSettled([
      insertOne("rule_b"),
      deps.store.deliveryQueue.recordAttempts(
        decideFinishedAttempts({ retryDelaysMs: [], dlqRetentionMs: 1000 }, [
          { delivery: broken, result: failed, startedAt: now, finishedAt: now },
        ]),
      ),
    ]);
    expect(recorded.status).toBe("rejected");
    expect(inserted.status).toBe("fulfilled");
    expect(ruleIds()).toContain("rule_b");
    const row = deps.sqlite
      .prepare<{ status: string; attempts: number }, [string]>("SELECT status, attempts FROM deliveries WHERE id = ?")
      .get(delivery.id);
    expect(row).toEqual({ status: "pending", attempts: 0 });
    expect(deps.sqlite.prepare<{ n: number }, []>("SELECT count(*) AS n FROM delivery_attempts").get()?.n).toBe(0);
  });

  test("with no group forming, the scheduler's results commit alone and at once (a drain waits for no group)", async () => {
    const delivery = await claimOneDelivery();
    watch.executed.length = 0;
    const now = deps.clock.now();
    const ok = { ok: true, statusCode: 200, error: null, durationMs: 3, responseExcerpt: null };
    const recorded = deps.store.deliveryQueue.recordAttempts(
      decideFinishedAttempts({ retryDelaysMs: [1000], dlqRetentionMs: 1000 }, [
        { delivery, result: ok, startedAt: now, finishedAt: now },
      ]),
    );
    // Committed before this turn ends: no group was scheduled for it.
    expect(
      deps.sqlite.prepare<{ status: string }, [string]>("SELECT status FROM deliveries WHERE id = ?").get(delivery.id)
        ?.status,
    ).toBe("succeeded");
    expect(await recorded).toEqual(["succeeded"]);
    expect(watch.executed).not.toContain("SAVEPOINT parley_tx");
  });
});
