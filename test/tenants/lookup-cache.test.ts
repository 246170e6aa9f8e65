import { modelAssistant } from "../../src/assistant/turn-assistant.ts";
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
import {
  buildDeps,
  buildTestApp,
  CHEAP_TEST_PASSWORDS,
  closeDeps,
  seedTenant,
  TEST_JWT_SECRET,
  testSql,
  type TestContext,
} from "../helpers.ts";
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
      // Called on the aggregate: a transaction's aggregates read their transaction from `this`.
      return key === name ? (...args: unknown[]) => (count(), fn.apply(target, args)) : fn;
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
    deps: {
      store: opened.store,
      config,
      clock: createFakeClock(),
      log: silentLogger,
      assistant: modelAssistant,
      deliveriesEnqueued: createSignal(),
      passwords: CHEAP_TEST_PASSWORDS,
    },
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
    const current = await sql.get<{ config: string }>(
      "SELECT CAST(config AS TEXT) AS config FROM chatbots WHERE tenant_id = ?",
      tenant.id,
    );
    const config = {
      ...(JSON.parse(current?.config ?? "{}") as Record<string, unknown>),
      greeting: "Changed elsewhere",
    };
    await sql.run("UPDATE chatbots SET config = ? WHERE tenant_id = ?", JSON.stringify(config), tenant.id);
    if (second) closeDeps(second);
    expect((await getBotConfig(deps, tenant.id)).greeting).toBe("Changed elsewhere");
    closeDeps(deps);
  });
});

describe("over HTTP", () => {
  let context: TestContext;
  afterEach(() => context.close());

  test("a visitor's message reads neither row, and the lookup version only inside its write transaction, with its count", async () => {
    context = buildTestApp();
    const seeded = await seedTenant(context.deps, "Once");
    const visitor = await openWidgetSession(context, seeded.tenant.id, "https://elsewhere.example");
    const message = () =>
      say(context, visitor.access_token, seeded.tenant.id, "Do you have parking?", { session_id: visitor.session_id });
    expect((await message()).status).toBe(200);
    // Through the store = outside a transaction (the turn's transaction has aggregates of its own).
    let versionReadsOutside = 0;
    Object.assign(context.deps.store, {
      tenants: counting(context.deps.store.tenants, "findLookupVersion", () => (versionReadsOutside += 1)),
    });
    const rows = countRowReads(context.deps);
    const transaction = context.deps.store.transaction.bind(context.deps.store);
    // Inside, the version comes with the message's count (usage.reserveMessage), not on its own.
    let versionReadsInside = 0;
    let reservationsInside = 0;
    context.deps.store.transaction = (work) =>
      transaction((tx) =>
        work(
          Object.create(tx, {
            tenants: { value: counting(tx.tenants, "findLookupVersion", () => (versionReadsInside += 1)) },
            usage: { value: counting(tx.usage, "reserveMessage", () => (reservationsInside += 1)) },
          }) as typeof tx,
        ),
      );
    expect((await message()).status).toBe(200);
    expect(versionReadsOutside).toBe(0);
    expect({ versionReadsInside, reservationsInside }).toEqual({ versionReadsInside: 0, reservationsInside: 1 });
    expect(rows).toEqual({ tenants: 0, configs: 0 });
  });

  /**
   * The app over a database another connection writes too: a SQLite file and a second
   * connection to it, or over PostgreSQL the store and a pool of its own (testSql).
   */
  async function appWithAnotherWriter(file: string) {
    context = buildTestApp({}, {}, {}, join(dir, file));
    const second = testPostgresUrl() ? null : buildDeps({}, {}, {}, join(dir, file));
    const sql = await testSql(second ?? context.deps);
    const seeded = await seedTenant(context.deps, "Elsewhere");
    const close = context.close;
    context.close = () => {
      if (second) closeDeps(second);
      close();
    };
    return { sql, seeded };
  }

  test("a bot config another connection changed is in the very next reply, though the message read the cached one", async () => {
    const { sql, seeded } = await appWithAnotherWriter("http-other-config.db");
    const visitor = await openWidgetSession(context, seeded.tenant.id, "https://elsewhere.example");
    const ask = async () =>
      (await (
        await say(context, visitor.access_token, seeded.tenant.id, "Is there parking for bicycles?", {
          session_id: visitor.session_id,
        })
      ).json()) as { reply: { text: string } };
    expect((await ask()).reply.text).not.toContain("Bike racks by the door");

    // The whole document, as PATCH would store it (a stored document replaces the sector's template).
    const { allowed_origins: _onTheTenantRow, ...current } = await getBotConfig(context.deps, seeded.tenant.id);
    const faq = [
      {
        id: "bikes",
        question: "Is there parking for bicycles?",
        answer: "Bike racks by the door.",
        keywords: ["parking", "bicycles"],
      },
    ];
    await sql.run(
      "UPDATE chatbots SET config = ? WHERE tenant_id = ?",
      JSON.stringify({ ...current, faq }),
      seeded.tenant.id,
    );
    expect((await ask()).reply.text).toContain("Bike racks by the door");
  });

  test("allowed origins another connection changed decide the very next message, both ways", async () => {
    const { sql, seeded } = await appWithAnotherWriter("http-other-origins.db");
    const visitor = await openWidgetSession(context, seeded.tenant.id, "https://shop.example");
    const from = (origin: string) =>
      say(context, visitor.access_token, seeded.tenant.id, "Hello", { session_id: visitor.session_id }, { origin });
    const setOrigins = (origins: string[]) =>
      sql.run("UPDATE tenants SET allowed_origins = ? WHERE id = ?", JSON.stringify(origins), seeded.tenant.id);
    expect((await from("https://shop.example")).status).toBe(200);

    // The cached tenant allows any origin; the database no longer does.
    await setOrigins(["https://other.example"]);
    expect((await from("https://shop.example")).status).toBe(403);
    // The cached tenant refuses this origin; the database allows it again.
    await setOrigins(["https://shop.example"]);
    expect((await from("https://shop.example")).status).toBe(200);
  });

  test("PATCH /chatbot/config, then the very next message and widget session see it", async () => {
    context = buildTestApp();
    const seeded = await seedTenant(context.deps, "Patchy");
    const key = { "x-api-key": seeded.apiKey };
    const visitor = await openWidgetSession(context, seeded.tenant.id, "https://elsewhere.example");
    const before = await (
      await say(context, visitor.access_token, seeded.tenant.id, "Is there parking for bicycles?", {
        session_id: visitor.session_id,
      })
    ).json();
    expect(JSON.stringify(before)).not.toContain("Bike racks by the door");

    const faq = [
      {
        id: "parking",
        question: "Is there parking for bicycles?",
        answer: "Bike racks by the door.",
        keywords: ["parking", "bicycles"],
      },
    ];
    expect((await context.request("PATCH", "/api/v1/chatbot/config", { headers: key, body: { faq } })).status).toBe(
      200,
    );

    const after = await (
      await say(context, visitor.access_token, seeded.tenant.id, "Is there parking for bicycles?", {
        session_id: visitor.session_id,
      })
    ).json();
    expect(after.reply.text).toContain("Bike racks by the door");
    // The origins live on the tenant row: the origin check reads the cached tenant.
    expect(
      (
        await context.request("PATCH", "/api/v1/chatbot/config", {
          headers: key,
          body: { allowed_origins: ["https://shop.example"] },
        })
      ).status,
    ).toBe(200);
    const refused = await context.request("POST", "/api/v1/widget/session", {
      body: { tenant_id: seeded.tenant.id },
      headers: { origin: "https://elsewhere.example" },
    });
    expect(refused.status).toBe(403);
    expect((await openWidgetSession(context, seeded.tenant.id, "https://shop.example")).session_id).toBeString();
  });
});
