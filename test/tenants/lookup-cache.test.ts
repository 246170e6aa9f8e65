import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { changePlan } from "../../src/billing/change-plan.ts";
import { getBotConfig } from "../../src/chat/bot-settings.ts";
import { loadConfig } from "../../src/config.ts";
import { openStore } from "../../src/db/open-store.ts";
import { createFakeClock } from "../../src/lib/clock.ts";
import { silentLogger } from "../../src/lib/log.ts";
import { createSignal } from "../../src/lib/signal.ts";
import type { Deps } from "../../src/deps.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { findTenant, requireTenant } from "../../src/tenants/find-tenant.ts";
import { buildDeps, buildTestApp, CHEAP_TEST_PASSWORDS, closeDeps, seedTenant, TEST_JWT_SECRET, testSql, type TestContext, type TestDeps } from "../helpers.ts";
import { testPostgresUrl } from "../pg/test-store.ts";
import { cli } from "../cli/cli-helpers.ts";
import { openWidgetSession, say } from "../http/chat-helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-lookup-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Counts the row reads behind findTenant and getBotConfig: each aggregate is swapped for a view
 * of it that counts one function (a proxy, since the PostgreSQL test store's aggregates are
 * proxies themselves).
 */
function countRowReads(deps: Pick<Deps, "store">): { tenants: number; configs: number } {
  const counts = { tenants: 0, configs: 0 };
  Object.assign(deps.store, {
    tenants: counting(deps.store.tenants, "findTenant", () => (counts.tenants += 1)),
    botConfigs: counting(deps.store.botConfigs, "findBotConfigDocument", () => (counts.configs += 1)),
  });
  return counts;
}

function counting<T extends object>(aggregate: T, name: keyof T, count: () => void): T {
  return new Proxy(aggregate, {
    get(target, key) {
      const fn = Reflect.get(target, key) as (...args: unknown[]) => unknown;
      return key === name ? (...args: unknown[]) => (count(), fn(...args)) : fn;
    },
  });
}

/**
 * Deps over a database another process may open too: a SQLite file in `dir`, or (PARLEY_TEST_DB)
 * a fresh PostgreSQL database created on that server and dropped by `close`.
 */
async function sharedDatabase(file: string): Promise<{ deps: Deps; db: string; close(): Promise<void> }> {
  const server = testPostgresUrl();
  if (!server) {
    const db = join(dir, file);
    const deps = buildDeps({}, {}, {}, db);
    return { deps, db, close: async () => closeDeps(deps) };
  }
  const name = `lookup_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e9).toString(36)}`;
  const admin = new SQL({ url: server, max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const opened = openStore(url.toString());
  await opened.migrate(Date.now());
  const config = loadConfig({ PARLEY_JWT_SECRET: TEST_JWT_SECRET, PARLEY_DB: url.toString() });
  return {
    deps: { store: opened.store, config, clock: createFakeClock(), log: silentLogger, deliveriesEnqueued: createSignal(), passwords: CHEAP_TEST_PASSWORDS },
    db: url.toString(),
    async close() {
      await opened.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}

describe("the tenant and bot-config lookups are cached", () => {
  test("a second lookup reads no row; a write through the same connection is seen at once", async () => {
    const deps = buildDeps();
    const tenant = await createTenant(deps, { name: "Cached" });
    const reads = countRowReads(deps);
    expect((await requireTenant(deps, tenant.id)).plan).toBe("free");
    await getBotConfig(deps, tenant.id);
    expect(await findTenant(deps, tenant.id)).toBe(await findTenant(deps, tenant.id));
    await getBotConfig(deps, tenant.id);
    expect(reads).toEqual({ tenants: 1, configs: 1 });

    await changePlan(deps, tenant.id, "pro");
    expect((await requireTenant(deps, tenant.id)).plan).toBe("pro");
    expect(reads.tenants).toBe(2);
    closeDeps(deps);
  });

  test("a write rolled back leaves the cache with the committed rows", async () => {
    const deps = buildDeps();
    const tenant = await createTenant(deps, { name: "Rollback" });
    expect((await requireTenant(deps, tenant.id)).plan).toBe("free");
    const failed = deps.store.transaction(async (tx) => {
      await tx.tenants.updateTenantPlan(tenant.id, "pro", deps.clock.now());
      throw new Error("boom");
    });
    await expect(failed).rejects.toThrow("boom");
    expect((await requireTenant(deps, tenant.id)).plan).toBe("free");
    closeDeps(deps);
  });

  test("`parley tenant plan` from another process (another connection) is seen by the server's next lookup", async () => {
    // The CLI opens the database itself: a SQLite file, or over PostgreSQL a database of its own.
    const { deps, db, close } = await sharedDatabase("cli-plan.db");
    try {
      const tenant = await createTenant(deps, { name: "Cli Plan" });
      const other = await createTenant(deps, { name: "Bystander" });
      expect((await requireTenant(deps, tenant.id)).plan).toBe("free");
      expect((await requireTenant(deps, other.id)).plan).toBe("free");

      const changed = await cli(["tenant", "plan", tenant.id, "pro", "--db", db]);
      expect(changed.code).toBe(0);
      expect((await requireTenant(deps, tenant.id)).plan).toBe("pro");
      expect((await requireTenant(deps, other.id)).plan).toBe("free");
    } finally {
      await close();
    }
  });

  test("a bot config changed by another connection is seen by the next lookup", async () => {
    // Over PostgreSQL testSql is a pool of its own beside the store's; over SQLite the other
    // connection is a second one on the same file.
    const db = join(dir, "other-connection.db");
    const deps = testPostgresUrl() ? buildDeps() : buildDeps({}, {}, {}, db);
    const tenant = await createTenant(deps, { name: "Other Writer" });
    expect((await getBotConfig(deps, tenant.id)).greeting).not.toBe("Changed elsewhere");
    const second = testPostgresUrl() ? null : buildDeps({}, {}, {}, db);
    const sql = await testSql(second ?? deps);
    const current = await sql.get<{ config: string }>("SELECT CAST(config AS TEXT) AS config FROM chatbots WHERE tenant_id = ?", tenant.id);
    const config = { ...(JSON.parse(current?.config ?? "{}") as Record<string, unknown>), greeting: "Changed elsewhere" };
    await sql.run("UPDATE chatbots SET config = ? WHERE tenant_id = ?", JSON.stringify(config), tenant.id);
    if (second) closeDeps(second);
    expect((await getBotConfig(deps, tenant.id)).greeting).toBe("Changed elsewhere");
    closeDeps(deps);
  });
});

describe("over HTTP", () => {
  let context: TestContext;
  afterEach(() => context.close());

  test("a visitor's message looks at the lookup version once for its tenant and bot config, and reads neither row", async () => {
    context = buildTestApp();
    const seeded = await seedTenant(context.deps, "Once");
    const visitor = await openWidgetSession(context, seeded.tenant.id, "https://elsewhere.example");
    const message = () => say(context, visitor.access_token, seeded.tenant.id, "Do you have parking?", { session_id: visitor.session_id });
    expect((await message()).status).toBe(200);
    let versionReads = 0;
    Object.assign(context.deps.store, { tenants: counting(context.deps.store.tenants, "findLookupVersion", () => (versionReads += 1)) });
    const rows = countRowReads(context.deps);
    expect((await message()).status).toBe(200);
    expect(versionReads).toBe(1);
    expect(rows).toEqual({ tenants: 0, configs: 0 });
  });

  test("PATCH /chatbot/config, then the very next message and widget session see it", async () => {
    context = buildTestApp();
    const seeded = await seedTenant(context.deps, "Patchy");
    const key = { "x-api-key": seeded.apiKey };
    const visitor = await openWidgetSession(context, seeded.tenant.id, "https://elsewhere.example");
    const before = await (await say(context, visitor.access_token, seeded.tenant.id, "Is there parking for bicycles?", { session_id: visitor.session_id })).json();
    expect(JSON.stringify(before)).not.toContain("Bike racks by the door");

    const faq = [{ id: "parking", question: "Is there parking for bicycles?", answer: "Bike racks by the door.", keywords: ["parking", "bicycles"] }];
    expect((await context.request("PATCH", "/api/v1/chatbot/config", { headers: key, body: { faq } })).status).toBe(200);

    const after = await (await say(context, visitor.access_token, seeded.tenant.id, "Is there parking for bicycles?", { session_id: visitor.session_id })).json();
    expect(after.reply.text).toContain("Bike racks by the door");
    // The origins live on the tenant row: the origin check reads the cached tenant.
    expect((await context.request("PATCH", "/api/v1/chatbot/config", { headers: key, body: { allowed_origins: ["https://shop.example"] } })).status).toBe(200);
    const refused = await context.request("POST", "/api/v1/widget/session", { body: { tenant_id: seeded.tenant.id }, headers: { origin: "https://elsewhere.example" } });
    expect(refused.status).toBe(403);
    expect((await openWidgetSession(context, seeded.tenant.id, "https://shop.example")).session_id).toBeString();
  });
});
