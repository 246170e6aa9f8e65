import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SQL } from "bun";
import type { Store } from "../../src/db/store.ts";
import { createApp } from "../../src/http/app.ts";
import { createAppDeps } from "../../src/http/deps.ts";
import { openTestPgStore, secondInstance, testPostgresUrl, type TestPgStore } from "../pg/test-store.ts";
import { buildDeps } from "../helpers.ts";

// The limits every instance on one PostgreSQL shares (src/db/postgres/counters.ts): exact under
// concurrent hits from several pools, and a rate limit that holds across two apps (instances).

describe.skipIf(!testPostgresUrl())("shared limits on PostgreSQL", () => {
  let opened: TestPgStore;
  let second: SQL;
  let other: Store;

  beforeAll(async () => {
    const url = testPostgresUrl() as string;
    opened = await openTestPgStore(url);
    ({ store: other, sql: second } = secondInstance(opened, url));
  });
  afterAll(async () => {
    await second.close();
    await opened.close();
  });

  test("a sliding window admits exactly `limit` of many hits taken at once by two instances", async () => {
    const counters = [opened.store.counters!, other.counters!];
    const now = 1_000_000;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => counters[i % 2]!.take("auth:198.51.100.1", 5, 60_000, now + (i % 3))),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(5);
    expect(await opened.store.counters!.liveHits("auth:198.51.100.1", 60_000, now + 10)).toHaveLength(5);
  });

  test("hits leave the window one by one: a refused take is not logged", async () => {
    const counters = opened.store.counters!;
    for (const at of [0, 10_000, 20_000]) expect((await counters.take("k", 3, 60_000, at)).allowed).toBe(true);
    const refused = await counters.take("k", 3, 60_000, 30_000);
    expect(refused).toEqual({ allowed: false, hits: [0, 10_000, 20_000] });
    expect((await counters.take("k", 3, 60_000, 59_999)).allowed).toBe(false);
    // At 60 s the hit from 0 s has left: one slot.
    expect(await counters.take("k", 3, 60_000, 60_000)).toEqual({ allowed: true, hits: [10_000, 20_000, 60_000] });
    expect((await counters.take("k", 3, 60_000, 60_001)).allowed).toBe(false);
  });

  test("fixed windows count per window, and expired rows are swept", async () => {
    const counters = opened.store.counters!;
    const day = 86_400_000;
    expect(await counters.addToWindow("daily", day, 5 * day + 1)).toBe(1);
    expect(await other.counters!.addToWindow("daily", day, 5 * day + 2)).toBe(2);
    expect(await counters.windowCount("daily", day, 5 * day + 3)).toBe(2);
    expect(await counters.windowCount("daily", day, 6 * day)).toBe(0);
    const swept = await counters.purgeExpired(7 * day);
    expect(swept).toBeGreaterThanOrEqual(2);
    expect(await counters.liveHits("k", 60_000, 60_000)).toEqual([]);
  });

  test("housekeeping runs on one instance at a time (advisory lock); the lock ends with the work", async () => {
    const seen: Array<string | null> = [];
    const first = await opened.store.storage.exclusively("housekeeping", async () => {
      // While instance 1 sweeps, instance 2's round is skipped; other kinds of work still run.
      seen.push(await other.storage.exclusively("housekeeping", async () => "second ran"));
      seen.push(await other.storage.exclusively("retention", async () => "retention ran"));
      return "first ran";
    });
    expect(first).toBe("first ran");
    expect(seen).toEqual([null, "retention ran"]);
    expect(await other.storage.exclusively("housekeeping", async () => "second ran")).toBe("second ran");
    // A failing round releases the lock too.
    await expect(
      opened.store.storage.exclusively("housekeeping", async () => Promise.reject(new Error("boom"))),
    ).rejects.toThrow("boom");
    expect(await other.storage.exclusively("housekeeping", async () => "again")).toBe("again");
  });

  test("the auth limit holds across two instances: the 6th login attempt is refused by either", async () => {
    const base = buildDeps();
    const apps = [opened.store, other].map((store) => createApp(createAppDeps({ ...base, store })));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await apps[i % 2]!.handle(
        new Request("http://localhost/api/v1/auth/token", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "x@y.test", password: "wrong-password" }),
        }),
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  test("wrong passwords for one account are counted across instances and addresses", async () => {
    const base = buildDeps({ trustProxy: true, loginFailureLimit: 4 });
    const apps = [opened.store, other].map((store) => createApp(createAppDeps({ ...base, store })));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await apps[i % 2]!.handle(
        new Request("http://localhost/api/v1/auth/token", {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${i}` },
          body: JSON.stringify({ email: "target@y.test", password: "wrong-password" }),
        }),
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });
});
