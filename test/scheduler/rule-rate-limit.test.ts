import { afterEach, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { createPostgresStore } from "../../src/db/postgres/store.ts";
import { DeliveryScheduler, type SendFn } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import type { Deps } from "../../src/deps.ts";
import { buildDeps, closeDeps, testSql, type TestDeps } from "../helpers.ts";
import { openTestPgStore, testPostgresUrl, type TestPgStore } from "../pg/test-store.ts";

const SECOND = 1000;
const LIMITED = "https://small-crm.example.com/hook";
const FREE = "https://big-crm.example.com/hook";
const fakeDns = async () => ["93.184.216.34"];

let sends: Array<{ url: string; at: number; attempt: string }>;
let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function receiver(deps: TestDeps): SendFn {
  return async (input) => {
    sends.push({ url: input.url, at: deps.clock.now(), attempt: input.headers["X-Service-Attempt"] ?? "" });
    return { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "ok" };
  };
}

/** Two rules of one tenant, one limited to `perSecond`, each with `count` lead.created events due now. */
async function backlog(deps: Deps, perSecond: number, count: number): Promise<void> {
  const tenantId = (await createTenant(deps, { name: "Rates" })).id;
  await createRule(deps, tenantId, {
    name: "small",
    event: "lead.created",
    url: LIMITED,
    secret: "whsec_0123456789abcdef",
    active: true,
    rate_limit_per_s: perSecond,
  });
  await createRule(deps, tenantId, {
    name: "big",
    event: "lead.created",
    url: FREE,
    secret: "whsec_0123456789abcdef",
    active: true,
  });
  for (let i = 0; i < count; i++) {
    await deps.store.transaction((tx) =>
      enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: { lead_id: `lead_${i}` } }),
    );
  }
}

/** Runs the schedulers in turn every 100 ms of fake time for `forMs`; the limited rule's send times. */
async function runFor(deps: TestDeps, schedulers: DeliveryScheduler[], forMs: number): Promise<number[]> {
  const start = deps.clock.now();
  for (let at = 0; at <= forMs; at += 100) {
    deps.clock.set(start + at);
    for (const scheduler of schedulers) await scheduler.runOnce();
  }
  return sends.filter((send) => send.url === LIMITED).map((send) => send.at - start);
}

/** The most sends inside any one-second window [t, t + 1 s). */
const busiestSecond = (times: number[]) =>
  Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + SECOND).length));

async function expectAllSucceededFirstTime(deps: TestDeps, total: number): Promise<void> {
  const sql = await testSql(deps);
  const rows = await sql.all<{ status: string; attempts: number }>("SELECT status, attempts FROM deliveries");
  expect(rows).toHaveLength(total);
  expect(rows.every((row) => row.status === "succeeded" && Number(row.attempts) === 1)).toBe(true);
}

describe("a rule's rate_limit_per_s", () => {
  test("3 per second: a backlog of 12 goes out at 3 per second, every one on its first attempt; another rule is not held", async () => {
    const deps = buildDeps({}, {}, { resolveHost: fakeDns });
    cleanup.push(() => closeDeps(deps));
    sends = [];
    await backlog(deps, 3, 12);
    const times = await runFor(deps, [new DeliveryScheduler(deps, { send: receiver(deps) })], 6 * SECOND);

    expect(times).toHaveLength(12);
    expect(busiestSecond(times)).toBe(3);
    // 12 at 3 per second: the fourth window starts at 3 s, so the last send is between 3 and 4 s.
    expect(Math.max(...times)).toBeGreaterThanOrEqual(3 * SECOND);
    expect(Math.max(...times)).toBeLessThan(4 * SECOND);
    expect(sends.filter((send) => send.url === LIMITED).every((send) => send.attempt === "1")).toBe(true);
    expect(sends.filter((send) => send.url === FREE).map((send) => send.at - sends[0]!.at)).toEqual(Array(12).fill(0));
    await expectAllSucceededFirstTime(deps, 24);
  });

  test("create refuses a rate that is not a whole number from 1 to 1000; PATCH null removes the limit", async () => {
    const deps = buildDeps({}, {}, { resolveHost: fakeDns });
    cleanup.push(() => closeDeps(deps));
    const tenantId = (await createTenant(deps, { name: "Rates" })).id;
    const base = { name: "r", event: "lead.created", url: LIMITED, secret: "whsec_0123456789abcdef", active: true };
    for (const bad of [0, 1.5, 1001]) {
      await expect(createRule(deps, tenantId, { ...base, rate_limit_per_s: bad })).rejects.toMatchObject({
        status: 422,
      });
    }
    const { updateRule } = await import("../../src/webhooks/rules.ts");
    const rule = await createRule(deps, tenantId, { ...base, rate_limit_per_s: 5 });
    expect(rule.rate_limit_per_s).toBe(5);
    expect((await updateRule(deps, tenantId, rule.rule_id, { rate_limit_per_s: null })).rate_limit_per_s).toBeNull();
  });
});

describe.skipIf(!testPostgresUrl())("a rule's rate_limit_per_s across two instances on PostgreSQL", () => {
  test("two schedulers, each with its own pool on one database, send at most the limit together", async () => {
    const url = testPostgresUrl() as string;
    const opened: TestPgStore = await openTestPgStore(url);
    const secondPool = new SQL({ url, max: 4, connection: { search_path: opened.schema } });
    const base = buildDeps({}, {}, { resolveHost: fakeDns });
    cleanup.push(
      () => closeDeps(base),
      () => opened.close(),
      () => secondPool.close(),
    );
    const first = { ...base, store: opened.store } as TestDeps;
    const second = { ...base, store: createPostgresStore(secondPool) } as TestDeps;
    sends = [];
    await backlog(first, 2, 8);
    const schedulers = [
      new DeliveryScheduler(first, { send: receiver(first) }),
      new DeliveryScheduler(second, { send: receiver(second) }),
    ];
    const times = await runFor(first, schedulers, 5 * SECOND);

    expect(times).toHaveLength(8);
    expect(busiestSecond(times)).toBe(2);
    expect(Math.max(...times)).toBeGreaterThanOrEqual(3 * SECOND);
    const rows = await opened.sql.unsafe("SELECT status, attempts FROM deliveries");
    expect(
      rows.every(
        (row: { status: string; attempts: number }) => row.status === "succeeded" && Number(row.attempts) === 1,
      ),
    ).toBe(true);
  });
});
