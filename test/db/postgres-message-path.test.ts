import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { periodOf } from "../../src/billing/usage.ts";
import { handleMessage } from "../../src/chat/handle-message.ts";
import { createTenant, type TenantRecord } from "../../src/tenants/create-tenant.ts";
import type { Transaction } from "../../src/db/store.ts";
import { buildDeps, closeDeps, testSql, type TestDeps } from "../helpers.ts";
import { testPostgresUrl } from "../pg/test-store.ts";

// A chat message on PostgreSQL (docs/scale-out.md): the tenant's usage row is locked by the
// counting statement only, and a turn that writes nothing but its end opens no transaction —
// its writes are one statement committed on its own.

const url = testPostgresUrl();

describe.skipIf(!url)("a chat message on PostgreSQL", () => {
  let deps: TestDeps;
  let tenant: TenantRecord;
  let sessionId: string;

  beforeAll(async () => {
    deps = buildDeps();
    tenant = await createTenant(deps, { name: "Path Clinic", plan: "free" });
    sessionId = (await handleMessage(deps, { tenant, text: "hello", channel: "api" })).session_id;
  });
  afterAll(() => closeDeps(deps));

  /** Seen from another connection while the turn is under way: the counter row's lock, and transactions left open. */
  async function lookAround(): Promise<{ counterLocked: boolean; openTransactions: number }> {
    const sql = await testSql(deps);
    let counterLocked = false;
    try {
      await sql.get(
        "SELECT messages FROM usage_counters WHERE tenant_id = ? AND period = ? FOR UPDATE NOWAIT",
        tenant.id,
        periodOf(deps.clock.now()),
      );
    } catch {
      counterLocked = true;
    }
    const open = await sql.get<{ n: number }>(
      "SELECT CAST(count(*) AS INTEGER) AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
    );
    return { counterLocked, openTransactions: open?.n ?? 0 };
  }

  test("mid-turn, after the message is counted: the counter row is free and no transaction is open", async () => {
    const seen: Array<Awaited<ReturnType<typeof lookAround>>> = [];
    const result = await handleMessage(deps, {
      tenant,
      sessionId,
      text: "What are your opening hours?",
      channel: "api",
      withinWrite: async () => {
        seen.push(await lookAround());
      },
    });
    expect(result.reply).not.toBeNull();
    expect(seen).toEqual([{ counterLocked: false, openTransactions: 0 }]);
    const sql = await testSql(deps);
    expect(await sql.get("SELECT messages FROM usage_counters WHERE tenant_id = ?", tenant.id)).toEqual({
      messages: 2,
    });
  });

  test("a turn that writes before its end runs in a transaction, still without the counter row's lock", async () => {
    const seen: Array<Awaited<ReturnType<typeof lookAround>>> = [];
    await handleMessage(deps, {
      tenant,
      sessionId,
      text: "Do you take insurance?",
      channel: "api",
      withinWrite: async (tx: Transaction) => {
        await tx.settings.putSetting("path_test", "1");
        seen.push(await lookAround());
      },
    });
    expect(seen).toEqual([{ counterLocked: false, openTransactions: 1 }]);
    const sql = await testSql(deps);
    expect(await sql.get("SELECT value FROM settings WHERE key = 'path_test'")).toEqual({ value: "1" });
  });

  test("a turn that fails after its count takes the count back", async () => {
    const failing = handleMessage(deps, {
      tenant,
      sessionId,
      text: "Where can I park?",
      channel: "api",
      withinWrite: async () => {
        throw new Error("refused by the hook");
      },
    });
    await expect(failing).rejects.toThrow("refused by the hook");
    const sql = await testSql(deps);
    expect(await sql.get("SELECT messages FROM usage_counters WHERE tenant_id = ?", tenant.id)).toEqual({
      messages: 3,
    });
  });
});
