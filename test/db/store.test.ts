import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, webhookRuleRow } from "../helpers.ts";

let deps: ReturnType<typeof buildDeps>;
let tenantId: string;

const ruleRow = (id: string) => webhookRuleRow(tenantId, id);

/** A promise the test settles by hand: the transaction below waits on it between two statements. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const ruleIds = () => deps.sqlite.prepare<{ id: string }, []>("SELECT id FROM webhook_rules ORDER BY id").all().map((row) => row.id);

beforeEach(async () => {
  deps = buildDeps();
  tenantId = (await createTenant(deps, { name: "A" })).id;
});
afterEach(() => deps.sqlite.close());

describe("store.transaction on SQLite", () => {
  test("commits what the callback wrote, and returns its result", async () => {
    const result = await deps.store.transaction(async (tx) => {
      await tx.webhookRules.insertRule(ruleRow("rule_a"));
      return "done";
    });
    expect(result).toBe("done");
    expect(ruleIds()).toEqual(["rule_a"]);
    expect(deps.sqlite.inTransaction).toBe(false);
  });

  test("rolls back everything when the callback throws", async () => {
    const failing = deps.store.transaction(async (tx) => {
      await tx.webhookRules.insertRule(ruleRow("rule_a"));
      throw new Error("later step failed");
    });
    await expect(failing).rejects.toThrow("later step failed");
    expect(ruleIds()).toEqual([]);
    expect(deps.sqlite.inTransaction).toBe(false);
  });

  test("onCommit hooks run after COMMIT, in order, and not at all after a rollback", async () => {
    const seen: string[] = [];
    await deps.store.transaction(async (tx) => {
      await tx.webhookRules.insertRule(ruleRow("rule_a"));
      tx.onCommit(() => seen.push(`first, in transaction: ${deps.sqlite.inTransaction}`));
      tx.onCommit(() => seen.push(`second, rules: ${ruleIds().length}`));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(["first, in transaction: false", "second, rules: 1"]);

    await expect(
      deps.store.transaction(async (tx) => {
        tx.onCommit(() => seen.push("after a rollback"));
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(seen).toHaveLength(2);
  });

  test("another caller's write made while a transaction is open waits for it, and survives its rollback", async () => {
    const paused = gate();
    const started = gate();
    const failing = deps.store.transaction(async (tx) => {
      await tx.webhookRules.insertRule(ruleRow("rule_in_tx"));
      started.open();
      await paused.opened;
      throw new Error("rolled back");
    });
    // Transactions start at the end of the turn (group commit): wait until this one is open.
    await started.opened;
    // Other requests, while the transaction waits between its statements.
    const outsideRead = deps.store.webhookRules.countRules(tenantId);
    const outside = deps.store.webhookRules.insertRule(ruleRow("rule_outside"));
    paused.open();
    await expect(failing).rejects.toThrow("rolled back");
    await outside;
    // The read ran after the transaction ended (before the other insert): it never saw the uncommitted row.
    expect(await outsideRead).toBe(0);
    expect(ruleIds()).toEqual(["rule_outside"]);
  });

  test("two transactions started together run one after the other", async () => {
    const paused = gate();
    const order: string[] = [];
    const first = deps.store.transaction(async (tx) => {
      order.push("first begins");
      await tx.webhookRules.insertRule(ruleRow("rule_a"));
      await paused.opened;
      order.push("first ends");
    });
    const second = deps.store.transaction(async (tx) => {
      order.push("second begins");
      await tx.webhookRules.insertRule(ruleRow("rule_b"));
    });
    paused.open();
    await Promise.all([first, second]);
    expect(order).toEqual(["first begins", "first ends", "second begins"]);
    expect(ruleIds()).toEqual(["rule_a", "rule_b"]);
  });

  test("a transaction object used after its transaction ended is refused", async () => {
    let leaked: Parameters<Parameters<typeof deps.store.transaction>[0]>[0] | undefined;
    await deps.store.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.webhookRules.insertRule(ruleRow("rule_late"))).rejects.toThrow("already ended");
    expect(ruleIds()).toEqual([]);
  });

  test("calling deps.store inside a transaction's callback is refused at once instead of waiting for ever, and rolls back", async () => {
    const misuse = deps.store.transaction(async (tx) => {
      await tx.webhookRules.insertRule(ruleRow("rule_a"));
      await deps.store.webhookRules.countRules(tenantId);
    });
    await expect(misuse).rejects.toThrow("use the transaction (tx) instead");
    const nested = deps.store.transaction(async () => deps.store.transaction(async () => "inner"));
    await expect(nested).rejects.toThrow("transactions do not nest");
    expect(ruleIds()).toEqual([]);
    // Other callers are not affected: the store works on.
    await deps.store.webhookRules.insertRule(ruleRow("rule_b"));
    expect(ruleIds()).toEqual(["rule_b"]);
  });

  test("BEGIN IMMEDIATE takes the write lock up front: another connection's write transaction is refused meanwhile", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { Database } = await import("bun:sqlite");
    const dir = mkdtempSync(join(tmpdir(), "parley-store-"));
    const fileDeps = buildDeps({}, {}, {}, join(dir, "p.db"));
    const other = new Database(join(dir, "p.db"));
    other.exec("PRAGMA busy_timeout = 0");
    try {
      const paused = gate();
      const started = gate();
      const open = fileDeps.store.transaction(async () => {
        started.open();
        await paused.opened;
      });
      await started.opened;
      expect(() => other.exec("BEGIN IMMEDIATE")).toThrow();
      paused.open();
      await open;
      other.exec("BEGIN IMMEDIATE");
      other.exec("ROLLBACK");
    } finally {
      other.close();
      fileDeps.sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
