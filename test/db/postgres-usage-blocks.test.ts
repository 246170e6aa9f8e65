import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SQL } from "bun";
import { openStore } from "../../src/db/open-store.ts";
import { createPostgresStore } from "../../src/db/postgres/store.ts";
import { MESSAGE_BLOCK } from "../../src/db/postgres/usage.ts";
import type { MessageLimits, Store } from "../../src/db/store.ts";
import { openTestPgStore, secondInstance, testPostgresUrl, type TestPgStore } from "../pg/test-store.ts";

// A tenant on an unlimited plan is counted in blocks on PostgreSQL (src/db/postgres/usage.ts):
// one write per MESSAGE_BLOCK messages, the rest held by the instance. What the counter shows
// (GET /usage), with several instances, a failed turn, a new month and a plan change.

const UNLIMITED: MessageLimits = { quota: null, thresholdPercent: 80 };

describe.skipIf(!testPostgresUrl())("message blocks on PostgreSQL", () => {
  let opened: TestPgStore;
  let second: SQL;
  let other: Store;

  beforeAll(async () => {
    const url = testPostgresUrl() as string;
    opened = await openTestPgStore(url);
    ({ store: other, sql: second } = secondInstance(opened, url));
    for (const id of ["ten_a", "ten_b", "ten_c", "ten_d", "ten_e", "ten_f", "ten_g", "ten_h"])
      await opened.sql`INSERT INTO tenants (id, name, created_at, updated_at) VALUES (${id}, ${id}, 1, 1)`;
  });
  afterAll(async () => {
    await second.close();
    await opened.close();
  });

  /** One message's reservation, as a turn takes it: inside the store's transaction. */
  const message = (store: Store, tenantId: string, period: string, limits = UNLIMITED) =>
    store.transaction((tx) => tx.usage.reserveMessage(tenantId, period, limits, null));
  const counter = async (tenantId: string, period: string) =>
    (await opened.store.usage.findUsage(tenantId, period))?.messages ?? 0;
  /** The counter row's version: it changes with every write of the row. */
  const rowVersion = async (tenantId: string, period: string) =>
    (
      (await opened.sql`SELECT xmin::text AS v FROM usage_counters WHERE tenant_id = ${tenantId} AND period = ${period}`) as Array<{
        v: string;
      }>
    )[0]?.v;

  test("one counter write per block; the counter runs ahead of the messages by what instances hold", async () => {
    const sent = 2 * MESSAGE_BLOCK + 3;
    for (let i = 0; i < sent; i++) expect((await message(opened.store, "ten_a", "2026-01")).reserved).toBe(true);
    // Three blocks: the third one's last 13 held by the instance, counted already.
    expect(await counter("ten_a", "2026-01")).toBe(3 * MESSAGE_BLOCK);
    // Many at once from two instances: every message counted, each instance holding less than a block.
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => message(i % 2 === 0 ? opened.store : other, "ten_b", "2026-01")),
    );
    expect(results.every((result) => result.reserved)).toBe(true);
    const shown = await counter("ten_b", "2026-01");
    expect(shown % MESSAGE_BLOCK).toBe(0);
    expect(shown).toBeGreaterThanOrEqual(40);
    expect(shown).toBeLessThanOrEqual(40 + 2 * (MESSAGE_BLOCK - 1));
  });

  test("a held message costs no write: its reservation only reads", async () => {
    await message(opened.store, "ten_c", "2026-01");
    const written = await rowVersion("ten_c", "2026-01");
    for (let i = 1; i < MESSAGE_BLOCK; i++) await message(opened.store, "ten_c", "2026-01");
    expect(await rowVersion("ten_c", "2026-01")).toBe(written as string);
    await message(opened.store, "ten_c", "2026-01");
    expect(await rowVersion("ten_c", "2026-01")).not.toBe(written as string);
    expect(await counter("ten_c", "2026-01")).toBe(2 * MESSAGE_BLOCK);
  });

  test("a failed turn gives its message back to the instance, not to the counter", async () => {
    await message(opened.store, "ten_d", "2026-01");
    const failed = opened.store.transaction(async (tx) => {
      await tx.usage.reserveMessage("ten_d", "2026-01", UNLIMITED, null);
      throw new Error("the turn fails");
    });
    await expect(failed).rejects.toThrow("the turn fails");
    // The block's other messages, the given-back one included, are used before a new block.
    for (let i = 1; i < MESSAGE_BLOCK; i++) await message(opened.store, "ten_d", "2026-01");
    expect(await counter("ten_d", "2026-01")).toBe(MESSAGE_BLOCK);
    await message(opened.store, "ten_d", "2026-01");
    expect(await counter("ten_d", "2026-01")).toBe(2 * MESSAGE_BLOCK);
  });

  test("a new month, or a plan with a quota, puts what the instance holds back on the counter", async () => {
    for (let i = 0; i < 3; i++) await message(opened.store, "ten_e", "2026-01");
    expect(await counter("ten_e", "2026-01")).toBe(MESSAGE_BLOCK);
    await message(opened.store, "ten_e", "2026-02");
    expect(await counter("ten_e", "2026-01")).toBe(3);
    expect(await counter("ten_e", "2026-02")).toBe(MESSAGE_BLOCK);
    // Moved to a plan of 1,000 a month: exact from its first message on.
    const quota: MessageLimits = { quota: 1000, thresholdPercent: 80 };
    expect((await message(opened.store, "ten_e", "2026-02", quota)).reserved).toBe(true);
    expect(await counter("ten_e", "2026-02")).toBe(2);
    expect((await message(opened.store, "ten_e", "2026-02", quota)).reserved).toBe(true);
    expect(await counter("ten_e", "2026-02")).toBe(3);
  });

  test("an instance that dies leaves what it held counted: at most a block less one", async () => {
    await message(other, "ten_f", "2026-01");
    // `other` is gone from here on; a restarted instance starts with nothing held.
    const restarted = createPostgresStore(second);
    await message(restarted, "ten_f", "2026-01");
    expect(await counter("ten_f", "2026-01")).toBe(2 * MESSAGE_BLOCK);
  });

  test("a store that closes (the server's shutdown) gives back every block's unused messages, in one statement", async () => {
    const url = new URL(testPostgresUrl() as string);
    url.searchParams.set("search_path", opened.schema);
    const stopping = openStore(url.toString());
    const running = secondInstance(opened, testPostgresUrl() as string);
    for (let i = 0; i < 3; i++) await message(stopping.store, "ten_g", "2026-01");
    const failed = stopping.store.transaction(async (tx) => {
      await tx.usage.reserveMessage("ten_g", "2026-01", UNLIMITED, null);
      throw new Error("the turn fails");
    });
    await expect(failed).rejects.toThrow("the turn fails");
    for (let i = 0; i < MESSAGE_BLOCK + 1; i++) await message(stopping.store, "ten_h", "2026-01");
    for (let i = 0; i < 2; i++) await message(running.store, "ten_g", "2026-01");
    expect([await counter("ten_g", "2026-01"), await counter("ten_h", "2026-01")]).toEqual([
      2 * MESSAGE_BLOCK,
      2 * MESSAGE_BLOCK,
    ]);

    await stopping.close();
    // Its 3 and 17 messages stay counted; the other instance still holds its block's 14.
    expect([await counter("ten_g", "2026-01"), await counter("ten_h", "2026-01")]).toEqual([3 + MESSAGE_BLOCK, 17]);
    // Both rows changed by one transaction: one statement.
    expect(await rowVersion("ten_g", "2026-01")).toBe((await rowVersion("ten_h", "2026-01")) as string);
    expect(await running.store.usage.returnHeldMessages()).toBe(MESSAGE_BLOCK - 2);
    expect(await counter("ten_g", "2026-01")).toBe(5);
    // Nothing held any more: a second call writes nothing, and the next message counts a new block.
    expect(await running.store.usage.returnHeldMessages()).toBe(0);
    await message(running.store, "ten_g", "2026-01");
    expect(await counter("ten_g", "2026-01")).toBe(5 + MESSAGE_BLOCK);
    await running.sql.close();
  });
});
