import { afterEach, describe, expect, test } from "bun:test";
import { buildDeps, buildTestApp, closeDeps, seedTenant, type TestContext, type TestDeps } from "../helpers.ts";
import { IMPORT_LEASE_MS, importEnded, MAX_RUNNING_IMPORTS } from "../../src/knowledge/import-sitemap.ts";
import { syncDueSources } from "../../src/knowledge/scheduled-sync.ts";
import { addSource, getSource } from "../../src/knowledge/sources.ts";

/** BM25 only: these tests are about when imports run, not vectors. */
const NO_EMBEDDER = async () => null;

/**
 * A site with one sitemap per name (`/NAME.xml`, listing the page `/NAME`). A page's request marks
 * its import as started; it is answered only when the test releases it.
 */
function queueSite() {
  const held = new Map<string, () => void>();
  const started: string[] = [];
  const inFlight = new Set<string>();
  let mostAtOnce = 0;
  const sitemapRequests: string[] = [];
  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request): Promise<Response> {
      const path = new URL(request.url).pathname;
      if (path === "/robots.txt") return new Response("not here", { status: 404 });
      if (path.endsWith(".xml")) {
        const name = path.slice(1, -".xml".length);
        sitemapRequests.push(name);
        return new Response(`<urlset><url><loc>http://127.0.0.1:${server.port}/${name}</loc></url></urlset>`, {
          headers: { "content-type": "application/xml" },
        });
      }
      const name = path.slice(1);
      started.push(name);
      inFlight.add(name);
      mostAtOnce = Math.max(mostAtOnce, inFlight.size);
      await new Promise<void>((resolve) => held.set(name, resolve));
      inFlight.delete(name);
      return new Response(`<h1>${name}</h1><p>What ${name} says.</p>`, { headers: { "content-type": "text/html" } });
    },
  });
  return {
    server,
    base: `http://127.0.0.1:${server.port}`,
    started,
    sitemapRequests,
    inFlight,
    mostAtOnce: () => mostAtOnce,
    release: (name: string) => held.get(name)?.(),
    releaseAll: () => {
      for (const release of held.values()) release();
    },
  };
}

let site = queueSite();
let deps: TestDeps | null = null;
let context: TestContext | null = null;
afterEach(() => {
  site.releaseAll();
  site.server.stop(true);
  site = queueSite();
  deps && closeDeps(deps);
  context?.close();
  deps = null;
  context = null;
});

/** Event-loop turns until `check` holds (bounded: a condition that never comes fails the test). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let turn = 0; turn < 1_000; turn++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("the condition never held");
}

/** The tenant of a page name: its first letter ("a3" is tenant a's third sitemap). */
const tenantOf = (name: string) => name.slice(0, 1);

/** One tenant's two sitemaps added: the first's import running (its page held), the second's waiting. */
async function oneRunningOneWaiting() {
  deps = buildDeps({ allowPrivateWebhooks: true });
  const running = deps;
  const { tenant } = await seedTenant(running, "a");
  const add = async (name: string) =>
    (await addSource(running, tenant.id, { kind: "sitemap", url: `${site.base}/${name}.xml` }, NO_EMBEDDER)).source_id;
  const first = await add("a1");
  const waiting = await add("a2");
  await until(() => site.started.length === 1);
  return { running, tenant, first, waiting };
}

describe("background sitemap imports are bounded", () => {
  test("a few run at once, never two of one tenant, and tenants take turns so none waits behind another's queue", async () => {
    deps = buildDeps({ allowPrivateWebhooks: true });
    const running = deps;
    const tenants = new Map<string, string>();
    for (const letter of ["a", "b", "c", "d"]) tenants.set(letter, (await seedTenant(running, letter)).tenant.id);
    const add = (name: string) =>
      addSource(
        running,
        tenants.get(tenantOf(name)) ?? "",
        { kind: "sitemap", url: `${site.base}/${name}.xml` },
        NO_EMBEDDER,
      );
    const added = new Map<string, string>();
    for (const name of ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "c1", "d1"])
      added.set(name, (await add(name)).source_id);

    await until(() => site.started.length === MAX_RUNNING_IMPORTS);
    // The first three start together; which reaches its page first is a race of their own.
    expect(site.started.toSorted()).toEqual(["a1", "b1", "c1"]);
    // The waiting ones are pending, as the API and the admin page show them.
    for (const name of ["a2", "b2", "d1"]) {
      const source = await getSource(running, tenants.get(tenantOf(name)) ?? "", added.get(name) ?? "");
      expect(source).toMatchObject({ status: "pending", document_count: 0 });
    }

    // Each import ends in turn; the next to start is the first tenant in line that runs nothing
    // (b2 and d1 ending start nothing: only tenant a has imports left, and one runs).
    const startedAfter: Array<[string, number]> = [
      ["a1", 4],
      ["b1", 5],
      ["c1", 6],
      ["a2", 7],
      ["b2", 7],
      ["d1", 7],
      ["a3", 8],
      ["a4", 9],
      ["a5", 9],
    ];
    for (const [name, count] of startedAfter) {
      site.release(name);
      await importEnded(running.store, added.get(name) ?? "");
      await until(() => site.started.length === count);
    }
    expect(site.started.slice(MAX_RUNNING_IMPORTS)).toEqual(["a2", "b2", "d1", "a3", "a4", "a5"]);
    expect(site.mostAtOnce()).toBe(MAX_RUNNING_IMPORTS);
    // Waiting imports read their sitemap again when they start; the first three used the one read when added.
    expect(site.sitemapRequests.filter((name) => name === "a1")).toEqual(["a1"]);
    expect(site.sitemapRequests.filter((name) => name === "a2")).toEqual(["a2", "a2"]);
    for (const [name, id] of added)
      expect(await getSource(running, tenants.get(tenantOf(name)) ?? "", id)).toMatchObject({
        status: "ok",
        document_count: 1,
      });
  });

  test("five sitemaps of two tenants: the second tenant's first starts before the first tenant's second", async () => {
    context = buildTestApp({ allowPrivateWebhooks: true });
    const app = context;
    const first = await seedTenant(app.deps, "a");
    const second = await seedTenant(app.deps, "b");
    const post = async (apiKey: string, name: string) => {
      const response = await app.request("POST", "/api/v1/knowledge/sources", {
        headers: { "x-api-key": apiKey },
        body: { sitemap_url: `${site.base}/${name}.xml` },
      });
      expect(response.status).toBe(201);
      return (await response.json()) as { source_id: string; status: string };
    };
    const ids: string[] = [];
    for (const name of ["a1", "a2", "a3", "a4"]) ids.push((await post(first.apiKey, name)).source_id);
    const b1 = await post(second.apiKey, "b1");
    expect(b1.status).toBe("pending");
    await until(() => site.started.length === 2);
    expect(site.started.toSorted()).toEqual(["a1", "b1"]);
    const listed = await app.request("GET", "/api/v1/knowledge/sources", { headers: { "x-api-key": first.apiKey } });
    const statuses = ((await listed.json()) as { data: Array<{ status: string }> }).data.map((row) => row.status);
    expect(statuses).toEqual(["pending", "pending", "pending", "pending"]);

    for (const name of ["b1", "a1", "a2", "a3", "a4"]) site.release(name);
    for (const name of ["a2", "a3", "a4"]) {
      await until(() => site.started.includes(name));
      site.release(name);
    }
    for (const id of [...ids, b1.source_id]) await importEnded(app.deps.store, id);
    expect(site.started.slice(2)).toEqual(["a2", "a3", "a4"]);
    expect(site.mostAtOnce()).toBe(2);
  });

  test("a waiting import keeps its lease while the running one fetches pages", async () => {
    const { running, tenant, first, waiting } = await oneRunningOneWaiting();
    running.clock.advance(IMPORT_LEASE_MS / 2);
    site.release("a1");
    const renewed = new Date(running.clock.now() + IMPORT_LEASE_MS).toISOString();
    await until(async () => (await getSource(running, tenant.id, waiting)).next_sync_at === renewed);
    await importEnded(running.store, first);
    // Past the lease it was given when added: still not due, no instance's schedule takes it.
    running.clock.advance(IMPORT_LEASE_MS / 2 + 1);
    expect(await running.store.knowledgeSources.listDueSources(running.clock.now(), 10)).toEqual([]);
    await until(() => site.started.length === 2);
    site.release("a2");
    await importEnded(running.store, waiting);
    expect(await getSource(running, tenant.id, waiting)).toMatchObject({ status: "ok", document_count: 1 });
  });

  test("a waiting import whose lease ran out is taken by the schedule, and not imported again when its turn comes", async () => {
    const { running, tenant, first, waiting } = await oneRunningOneWaiting();
    // The running import fetched nothing for a whole lease (a server that stopped would renew nothing either).
    running.clock.advance(IMPORT_LEASE_MS + 1);
    const scheduled = syncDueSources(running, NO_EMBEDDER);
    await until(() => site.started.includes("a2"));
    site.release("a2");
    expect(await scheduled).toBe(1);
    expect(await getSource(running, tenant.id, waiting)).toMatchObject({ status: "ok", document_count: 1 });

    site.release("a1");
    await importEnded(running.store, first);
    await importEnded(running.store, waiting);
    expect(site.started.filter((name) => name === "a2")).toEqual(["a2"]);
  });
});
