// @sqlite-only: SQLite's own storage trouble — another process holding the file's write lock (SQLITE_BUSY) and a full file (PRAGMA max_page_count, SQLITE_FULL)
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storageTroubleOf } from "../../src/db/storage-errors.ts";
import { createApp } from "../../src/http/app.ts";
import { createAppDeps, type AppDeps } from "../../src/http/deps.ts";
import {
  buildDeps,
  buildTestApp,
  closeDeps,
  seedTenant,
  watchTransactionControl,
  type TestContext,
} from "../helpers.ts";

const RULE = {
  name: "crm",
  event: "lead.created",
  url: "https://hooks.example/in",
  secret: "s".repeat(20),
  active: true,
};
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** The app over a database file, its connection set up as `parley serve` sets it up. */
function serveFile(writeWaitMs: number) {
  const dir = mkdtempSync(join(tmpdir(), "parley-busy-"));
  const path = join(dir, "parley.db");
  const base = buildDeps({ writeWaitMs, rateLimits: false }, {}, { resolveHost: async () => ["93.184.216.34"] }, path);
  base.store.storage.neverWaitForLocks(writeWaitMs);
  const deps: AppDeps = createAppDeps(base);
  const app = createApp(deps);
  // Another process's connection: a CLI command or a backup holding the write lock.
  const other = new Database(path, { strict: true });
  cleanups.push(() => {
    other.close();
    closeDeps(base);
    rmSync(dir, { recursive: true, force: true });
  });
  const request = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    app.handle(
      new Request(`http://localhost${path}`, {
        method,
        headers: { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  return { deps, sqlite: base.sqlite, other, request };
}

describe("another process holds the SQLite write lock", () => {
  test("health, readiness and reads answer at once while a write waits on timers, then the write lands", async () => {
    const { deps, other, request } = serveFile(5_000);
    const { apiKey } = await seedTenant(deps, "Busy");
    other.exec("BEGIN IMMEDIATE");
    const order: string[] = [];
    const write = request("POST", "/api/v1/webhooks/rules-engine/rules", { "x-api-key": apiKey }, RULE).then(
      (response) => {
        order.push("write");
        return response;
      },
    );
    // Without the timer-based wait, the write would sit in a 5 s busy wait inside bun:sqlite and
    // nothing below could even start before it ended.
    const health = await request("GET", "/healthz");
    order.push("healthz");
    const ready = await request("GET", "/readyz");
    order.push("readyz");
    const read = await request("GET", "/api/v1/webhooks/rules-engine/rules", { "x-api-key": apiKey });
    order.push("read");
    expect(health.status).toBe(200);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", storage: "busy" });
    expect(read.status).toBe(200);
    expect(order).toEqual(["healthz", "readyz", "read"]);

    other.exec("COMMIT");
    const response = await write;
    expect(response.status).toBe(201);
    expect(order.at(-1)).toBe("write");
    const listed = (await (
      await request("GET", "/api/v1/webhooks/rules-engine/rules", { "x-api-key": apiKey })
    ).json()) as { data: unknown[] };
    expect(listed.data).toHaveLength(1);
  });

  test("a write gives up after PARLEY_WRITE_WAIT with 503 busy and Retry-After, and nothing is half-written", async () => {
    const { deps, other, request } = serveFile(150);
    const { apiKey } = await seedTenant(deps, "Busy");
    other.exec("BEGIN IMMEDIATE");
    const response = await request("POST", "/api/v1/webhooks/rules-engine/rules", { "x-api-key": apiKey }, RULE);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ error: "busy" });
    other.exec("ROLLBACK");
    const listed = (await (
      await request("GET", "/api/v1/webhooks/rules-engine/rules", { "x-api-key": apiKey })
    ).json()) as { data: unknown[] };
    expect(listed.data).toHaveLength(0);
  });
});

describe("waiting for the lock costs nothing while it is free", () => {
  test("a write request runs one BEGIN IMMEDIATE … COMMIT and no probe of the lock beforehand", async () => {
    const watch = watchTransactionControl();
    cleanups.push(watch.stop);
    const { deps, request } = serveFile(5_000);
    const { apiKey } = await seedTenant(deps, "Free");
    const executed = watch.executed;
    executed.length = 0;
    const response = await request("POST", "/api/v1/webhooks/rules-engine/rules", { "x-api-key": apiKey }, RULE);
    expect(response.status).toBe(201);
    // A probe (BEGIN IMMEDIATE + ROLLBACK per request) cost as much as the chat turn's own statements.
    expect(executed.filter((sql) => sql === "BEGIN IMMEDIATE")).toHaveLength(1);
    expect(executed).not.toContain("ROLLBACK");
    expect(executed.at(-1)).toBe("COMMIT");
  });

  test("a write outside a transaction waits on timers for another process's lock, then lands; past the wait it fails busy", async () => {
    const { deps, sqlite, other } = serveFile(2_000);
    const { tenant, apiKeyId } = await seedTenant(deps, "Outside");
    const lastUsed = () =>
      sqlite
        .prepare<{ at: number | null }, [string]>("SELECT last_used_at AS at FROM api_keys WHERE id = ?")
        .get(apiKeyId)?.at;
    other.exec("BEGIN IMMEDIATE");
    let landed = false;
    const touch = deps.store.apiKeys.touchApiKey(apiKeyId, 1_234).then(() => (landed = true));
    // Reads go on meanwhile.
    expect(await deps.store.apiKeys.listTenantApiKeys(tenant.id)).toHaveLength(1);
    await Bun.sleep(30);
    expect(landed).toBe(false);
    other.exec("COMMIT");
    await touch;
    expect(lastUsed()).toBe(1_234);
  });

  test("past PARLEY_WRITE_WAIT a write outside a transaction fails with SQLITE_BUSY (503 busy) and changes nothing", async () => {
    const { deps, sqlite, other } = serveFile(60);
    const { apiKeyId } = await seedTenant(deps, "Outside");
    other.exec("BEGIN IMMEDIATE");
    const error = await deps.store.apiKeys.touchApiKey(apiKeyId, 1_234).then(
      () => null,
      (caught: unknown) => caught,
    );
    other.exec("ROLLBACK");
    expect(storageTroubleOf(error)).toBe("busy");
    expect(
      sqlite
        .prepare<{ at: number | null }, [string]>("SELECT last_used_at AS at FROM api_keys WHERE id = ?")
        .get(apiKeyId)?.at,
    ).not.toBe(1_234);
  });
});

describe("the database disk is full", () => {
  let context: TestContext;
  afterEach(() => context?.close());

  const pageCount = () => (context.deps.sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count;
  // SQLite's own limit on the file size: writes that need a new page fail with SQLITE_FULL,
  // exactly as on a full disk. VACUUM first: pages a migration freed would still take writes.
  const fillDisk = () => {
    context.deps.sqlite.exec("VACUUM");
    context.deps.sqlite.exec(`PRAGMA max_page_count = ${pageCount()}`);
  };
  const freeSpace = () => context.deps.sqlite.exec("PRAGMA max_page_count = 1073741823");

  test("writes answer 503 storage_full with Retry-After, /readyz is not ready, and both recover once space is freed", async () => {
    context = buildTestApp({ rateLimits: false }, {}, { resolveHost: async () => ["93.184.216.34"] });
    const { apiKey } = await seedTenant(context.deps, "Full");
    const headers = { "x-api-key": apiKey };
    // Larger than a page: storing it needs new pages.
    const bigFaq = {
      faq: Array.from({ length: 8 }, (_, index) => ({
        id: `q${index}`,
        question: `Question ${index}?`,
        answer: "é".repeat(900),
      })),
    };
    fillDisk();

    const refused = await context.request("PATCH", "/api/v1/chatbot/config", { headers, body: bigFaq });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(await refused.json()).toMatchObject({ error: "storage_full" });
    const notReady = await context.request("GET", "/readyz");
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ error: "storage_full" });
    // Reads still work, and the refused change left nothing behind.
    const before = (await (await context.request("GET", "/api/v1/chatbot/config", { headers })).json()) as {
      faq: unknown[];
    };
    expect(before.faq.length).not.toBe(8);

    freeSpace();
    expect((await context.request("GET", "/readyz")).status).toBe(200);
    const accepted = await context.request("PATCH", "/api/v1/chatbot/config", { headers, body: bigFaq });
    expect(accepted.status).toBe(200);
    const after = (await (await context.request("GET", "/api/v1/chatbot/config", { headers })).json()) as {
      faq: unknown[];
    };
    expect(after.faq).toHaveLength(8);
  });
});
