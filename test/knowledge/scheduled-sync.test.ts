import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { buildDeps, closeDeps, seedTenant, type TestDeps } from "../helpers.ts";
import type { KnowledgeSourceRow } from "../../src/db/store.ts";
import { addSource, getSource } from "../../src/knowledge/sources.ts";
import { takeTurnsByTenant } from "../../src/knowledge/scheduled-sync.ts";
import { DEFAULT_SYNC_INTERVAL_MS } from "../../src/knowledge/sync-schedule.ts";
import { createHousekeeping } from "../../src/scheduler/housekeeping.ts";

const NO_EMBEDDER = async () => null;
let version = 1;
const site = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: () =>
    new Response(`<h1>Menu</h1><p>Version ${version} of the menu.</p>`, { headers: { "content-type": "text/html" } }),
});
afterAll(() => site.stop(true));

let deps: TestDeps;
afterEach(() => closeDeps(deps));

const row = (id: string, tenantId: string) => ({ id, tenantId }) as KnowledgeSourceRow;

describe("the scheduled re-crawl", () => {
  test("the scheduler's housekeeping syncs a source once it is due by the clock, not before", async () => {
    deps = buildDeps({ allowPrivateWebhooks: true });
    const tenantId = (await seedTenant(deps, "Bistro")).tenant.id;
    const source = await addSource(
      deps,
      tenantId,
      { kind: "url", url: `http://127.0.0.1:${site.port}/menu` },
      NO_EMBEDDER,
    );
    version = 2;
    const housekeeping = createHousekeeping(deps, {});
    housekeeping.runInBackground();
    await housekeeping.settled();
    expect((await getSource(deps, tenantId, source.source_id)).last_changed_at).toBe(source.created_at);

    deps.clock.advance(DEFAULT_SYNC_INTERVAL_MS);
    housekeeping.runInBackground();
    await housekeeping.settled();
    const synced = await getSource(deps, tenantId, source.source_id);
    expect(synced).toMatchObject({
      status: "ok",
      last_changed_at: new Date(deps.clock.now()).toISOString(),
      next_sync_at: new Date(deps.clock.now() + DEFAULT_SYNC_INTERVAL_MS).toISOString(),
    });
  });

  test("due sources are taken in turns by tenant, so one tenant's many sources do not go first", () => {
    const due = [row("a1", "A"), row("a2", "A"), row("a3", "A"), row("b1", "B"), row("c1", "C"), row("b2", "B")];
    expect(takeTurnsByTenant(due).map((source) => source.id)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3"]);
  });
});
