import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps, testSql, webhookRuleRow } from "../helpers.ts";
import { testPostgresUrl } from "../pg/test-store.ts";

// Runs over SQLite, and over PostgreSQL under PARLEY_TEST_DB (buildDeps picks the store): the
// transaction contract is the same. What is about SQLite's single connection (its gate: one
// transaction at a time, deps.store refused inside a callback) or its file lock is skipped on
// PostgreSQL, where every transaction has a pooled connection of its own.
const onPostgres = Boolean(testPostgresUrl());

let deps: ReturnType<typeof buildDeps>;
let tenantId: string;

const ruleRow = (id: string) => webhookRuleRow(tenantId, id);

/** A promise the test settles by hand: the transaction below waits on it between two statements. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** The rules as the database holds them — over PostgreSQL read on a connection of its own. */
const ruleIds = async () =>
  (await (await testSql(deps)).all<{ id: string }>("SELECT id FROM webhook_rules ORDER BY id")).map((row) => row.id);

/** SQLite's connection is never left inside a transaction (PostgreSQL's pool has no one connection to ask). */
const expectNoOpenSqliteTransaction = () => {
  if (!onPostgres) expect(deps.sqlite.inTransaction).toBe(false);
};

beforeEach(async () => {
  deps = buildDeps();
  tenantId = (await createTenant(deps, { name: "A" })).id;
});
afterEach(() => closeDeps(deps));

describe("store.transaction", () => {
  test("commits what the callback wrote, and returns its result", async () => {
    const result = await deps.store.transaction(async (tx) => {
      await tx.webhookRules.insertRule(ruleRow("rule_a"));
      return "done";
    });
    expect(result).toBe("done");
    expect(await ruleIds()).toEqual(["rule_a"]);
    expectNoOpenSqliteTransaction();
  });

  test("rolls back everything when the callback throws", async () => {
    const failing = deps.store.transaction(async (tx) => {
      await tx.webhookRules.insertRule(ruleRow("rule_a"));
      throw new Error("later step failed");
    });
    await expect(failing).rejects.toThrow("later step failed");
    expect(await ruleIds()).toEqual([]);
    expectNoOpenSqliteTransaction();
  });

  test("onCommit hooks run after COMMIT, in order, and not at all after a rollback", async () => {
    const seen: string[] = [];
    const inTransaction: boolean[] = [];
    let committedRules: Promise<string[]> = Promise.resolve([]);
    await deps.store.transaction(async (tx) => {
      await tx.webhookRules.insertRule(ruleRow("rule_a"));
      tx.onCommit(() => {
        seen.push("first");
        if (!onPostgres) inTransaction.push(deps.sqlite.inTransaction);
      });
      tx.onCommit(() => {
        seen.push("second");
        // Over PostgreSQL this reads on another connection: it sees the row only once committed.
        committedRules = ruleIds();
      });
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(["first", "second"]);
    expect(await committedRules).toEqual(["rule_a"]);
    expect(inTransaction).toEqual(onPostgres ? [] : [false]);

    await expect(
      deps.store.transaction(async (tx) => {
        tx.onCommit(() => seen.push("after a rollback"));
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(seen).toHaveLength(2);
  });

  // Over SQLite the outside read and write wait for the transaction (one connection, its gate);
  // over PostgreSQL they run beside it on other connections. Either way neither sees its row.
  test("another caller's read and write made while a transaction is open never see its uncommitted row, and survive its rollback", async () => {
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
    const outsideRead = deps.store.webhookRules.listRules(tenantId, null, 10);
    const outside = deps.store.webhookRules.insertRule(ruleRow("rule_outside"));
    paused.open();
    await expect(failing).rejects.toThrow("rolled back");
    await outside;
    // The read never saw the uncommitted row. On SQLite it ran after the transaction ended and
    // before the other insert; on PostgreSQL it ran beside both, on its own connection, and may
    // or may not see the other (committed) insert.
    const seen = (await outsideRead).map((rule) => rule.id);
    expect(seen).not.toContain("rule_in_tx");
    if (!onPostgres) expect(seen).toEqual([]);
    expect(await ruleIds()).toEqual(["rule_outside"]);
  });

  // SQLite's gate: one transaction at a time on the one connection. PostgreSQL runs them side by side.
  test.skipIf(onPostgres)("two transactions started together run one after the other", async () => {
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
    expect(await ruleIds()).toEqual(["rule_a", "rule_b"]);
  });

  test("a transaction object used after its transaction ended is refused", async () => {
    let leaked: Parameters<Parameters<typeof deps.store.transaction>[0]>[0] | undefined;
    await deps.store.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.webhookRules.insertRule(ruleRow("rule_late"))).rejects.toThrow("already ended");
    expect(await ruleIds()).toEqual([]);
  });

  // SQLite's gate again: deps.store inside a callback would wait for the callback's own transaction.
  // Over PostgreSQL it runs on another pooled connection, as documented in src/db/store.ts.
  test.skipIf(onPostgres)(
    "calling deps.store inside a transaction's callback is refused at once instead of waiting for ever, and rolls back",
    async () => {
      const misuse = deps.store.transaction(async (tx) => {
        await tx.webhookRules.insertRule(ruleRow("rule_a"));
        await deps.store.webhookRules.countRules(tenantId);
      });
      await expect(misuse).rejects.toThrow("use the transaction (tx) instead");
      const nested = deps.store.transaction(async () => deps.store.transaction(async () => "inner"));
      await expect(nested).rejects.toThrow("transactions do not nest");
      expect(await ruleIds()).toEqual([]);
      // Other callers are not affected: the store works on.
      await deps.store.webhookRules.insertRule(ruleRow("rule_b"));
      expect(await ruleIds()).toEqual(["rule_b"]);
    },
  );

  // SQLite's file lock.
  test.skipIf(onPostgres)(
    "BEGIN IMMEDIATE takes the write lock up front: another connection's write transaction is refused meanwhile",
    async () => {
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
        closeDeps(fileDeps);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
