import { afterEach, expect, test } from "bun:test";
import { buildDeps, closeDeps, seedTenant, type TestDeps } from "../helpers.ts";
import { createLiveHub } from "../../src/frontdesk/live-hub.ts";
import { recordLiveEvent } from "../../src/frontdesk/live-events.ts";
import { startSession } from "../../src/chat/sessions.ts";
import type { LiveEventRow, Store } from "../../src/db/store.ts";

let deps: TestDeps;
afterEach(() => closeDeps(deps));

/** The store with its live-event reads counted: what an idle look must not do (proxies: the PostgreSQL run's store is one). */
function countingReads(store: Store) {
  const counted = { reads: 0 };
  const listLiveEventsAfter = (afterId: number, limit: number) => (
    counted.reads++, store.liveEvents.listLiveEventsAfter(afterId, limit)
  );
  const liveEvents = new Proxy(store.liveEvents, {
    get: (target, key) => (key === "listLiveEventsAfter" ? listLiveEventsAfter : Reflect.get(target, key)),
  });
  return {
    store: new Proxy(store, { get: (target, key) => (key === "liveEvents" ? liveEvents : Reflect.get(target, key)) }),
    counted,
  };
}

test("while the change token stands still a look reads nothing and the next one waits twice as long, up to the cap; a moved token reads at once and resets", async () => {
  deps = buildDeps();
  const { tenant } = await seedTenant(deps, "Looks");
  let token = "1:0";
  const { store, counted } = countingReads(deps.store);
  const hub = createLiveHub(
    { ...deps, store, liveEventsWritten: undefined },
    { pollMs: 500, maxPollMs: 2_000, changeToken: async () => token },
  );
  const got: LiveEventRow[] = [];
  const stop = await hub.subscribe({ tenantId: tenant.id }, null, (event) => got.push(event));

  // The token was taken when the first stream opened: nothing has moved since.
  expect([await hub.look(), await hub.look(), await hub.look()]).toEqual([1_000, 2_000, 2_000]);
  expect(counted.reads).toBe(0);

  // Another process writes (nothing wakes this hub): the token moves, the next look reads it.
  const opened = await startSession(deps, deps.store, { tenantId: tenant.id, channel: "api" });
  await recordLiveEvent({ ...deps, liveEventsWritten: undefined }, null, {
    tenantId: tenant.id,
    sessionId: opened.id,
    kind: "session.closed",
    data: { closed_at: "x" },
  });
  token = "2:0";
  expect(await hub.look()).toBe(500);
  expect(counted.reads).toBe(1);
  expect(got.map((event) => event.kind)).toEqual(["session.closed"]);
  stop();
});
