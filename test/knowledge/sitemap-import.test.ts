import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { buildDeps, buildTestApp, closeDeps, seedTenant, type TestContext, type TestDeps } from "../helpers.ts";
import { addDocument, listDocuments } from "../../src/knowledge/documents.ts";
import { importEnded, IMPORT_LEASE_MS } from "../../src/knowledge/import-sitemap.ts";
import { syncDueSources } from "../../src/knowledge/scheduled-sync.ts";
import { addSource, getSource, newSourceRow } from "../../src/knowledge/sources.ts";

/** BM25 only: these tests are about when pages are fetched, not vectors. */
const NO_EMBEDDER = async () => null;
const DAY = 24 * 60 * 60 * 1000;
const PAGES = ["/a", "/b", "/c"];
const pageBody = (path: string) => `<h1>Page ${path}</h1><p>What page ${path} says.</p>`;

/** A site whose sitemap answers at once and whose pages each wait until the test lets them answer. */
function heldSite() {
  const held = new Map<string, () => void>();
  const waits = new Map(PAGES.map((path) => [path, new Promise<void>((resolve) => held.set(path, resolve))]));
  const answered: string[] = [];
  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request): Promise<Response> {
      const path = new URL(request.url).pathname;
      if (path === "/sitemap.xml")
        return new Response(
          `<urlset>${PAGES.map((page) => `<url><loc>http://127.0.0.1:${server.port}${page}</loc></url>`).join("")}</urlset>`,
          { headers: { "content-type": "application/xml" } },
        );
      const wait = waits.get(path);
      if (!wait) return new Response("no such page", { status: 404 });
      await wait;
      answered.push(path);
      return new Response(pageBody(path), { headers: { "content-type": "text/html" } });
    },
  });
  return {
    server,
    base: `http://127.0.0.1:${server.port}`,
    answered,
    release: (...paths: string[]) => {
      for (const path of paths.length > 0 ? paths : PAGES) held.get(path)?.();
    },
  };
}

let site: ReturnType<typeof heldSite>;
let context: TestContext | null = null;
let deps: TestDeps | null = null;
beforeEach(() => {
  site = heldSite();
});
afterEach(() => {
  site.release();
  site.server.stop(true);
  context?.close();
  deps && closeDeps(deps);
  context = null;
  deps = null;
});

/** The HTTP app with a tenant, and the headers of its API key. */
async function appWithTenant() {
  context = buildTestApp({ allowPrivateWebhooks: true });
  const { apiKey } = await seedTenant(context.deps, "Clinic");
  return { app: context, headers: { "x-api-key": apiKey } };
}

/** Event-loop turns until `check` holds (bounded: a condition that never comes fails the test). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let turn = 0; turn < 1_000; turn++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("the condition never held");
}

const resultsOf = (pages: Array<{ url: string; result: string }> | undefined) =>
  Object.fromEntries((pages ?? []).map((page) => [page.url.replace(site.base, ""), page.result]));

describe("a sitemap's pages are imported in the background", () => {
  test("POST /sources answers 201 pending before any page is fetched; the import then ends with each page's result", async () => {
    const { app, headers } = await appWithTenant();
    const created = await app.request("POST", "/api/v1/knowledge/sources", {
      headers,
      body: { sitemap_url: `${site.base}/sitemap.xml` },
    });
    expect(created.status).toBe(201);
    const pending = (await created.json()) as { source_id: string };
    expect(pending).toMatchObject({
      kind: "sitemap",
      status: "pending",
      document_count: 0,
      report: null,
      last_synced_at: null,
      next_sync_at: new Date(app.clock.now() + IMPORT_LEASE_MS).toISOString(),
    });
    expect(site.answered).toEqual([]);

    site.release();
    await importEnded(app.deps.store, pending.source_id);
    const done = await (await app.request("GET", `/api/v1/knowledge/sources/${pending.source_id}`, { headers })).json();
    expect(done).toMatchObject({
      status: "ok",
      document_count: 3,
      last_error: null,
      next_sync_at: new Date(app.clock.now() + DAY).toISOString(),
      report: { counts: { imported: 3, failed: 0, skipped: 0 } },
    });
    expect(resultsOf(done.report.pages)).toEqual({ "/a": "imported", "/b": "imported", "/c": "imported" });
    expect(site.answered.toSorted()).toEqual(PAGES);
  });

  test("a sitemap that cannot be read is still a 422 with nothing kept", async () => {
    const { app, headers } = await appWithTenant();
    const refused = await app.request("POST", "/api/v1/knowledge/sources", {
      headers,
      body: { sitemap_url: `${site.base}/missing.xml` },
    });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ error: "url_fetch_failed" });
    const list = await (await app.request("GET", "/api/v1/knowledge/sources", { headers })).json();
    expect(list.data).toEqual([]);
  });

  test("the import renews its lease as pages arrive, so no scheduled sync takes the source while it runs", async () => {
    deps = buildDeps({ allowPrivateWebhooks: true });
    const { tenant } = await seedTenant(deps, "Clinic");
    const started = deps.clock.now();
    const pending = await addSource(deps, tenant.id, { kind: "sitemap", url: `${site.base}/sitemap.xml` }, NO_EMBEDDER);
    deps.clock.advance(IMPORT_LEASE_MS / 2);
    site.release("/a");
    const renewed = new Date(started + IMPORT_LEASE_MS / 2 + IMPORT_LEASE_MS).toISOString();
    const running = deps;
    await until(async () => (await getSource(running, tenant.id, pending.source_id)).next_sync_at === renewed);
    // Past the first lease: an instance whose scheduled sync looked now would find nothing due.
    deps.clock.advance(IMPORT_LEASE_MS / 2 + 1);
    expect(await deps.store.knowledgeSources.listDueSources(deps.clock.now(), 10)).toEqual([]);
    site.release();
    await importEnded(deps.store, pending.source_id);
    expect(await getSource(deps, tenant.id, pending.source_id)).toMatchObject({
      status: "ok",
      document_count: 3,
      next_sync_at: new Date(deps.clock.now() + DAY).toISOString(),
    });
  });

  test("an import cut off by the server's end is taken up by the schedule once its lease has run out, no page twice", async () => {
    deps = buildDeps({ allowPrivateWebhooks: true });
    const { tenant } = await seedTenant(deps, "Clinic");
    const now = deps.clock.now();
    // What a server killed after the import's first page leaves: the source pending under its lease, one document.
    const sourceId = "src_01killedmidimport000000000";
    await deps.store.knowledgeSources.insertSource(
      newSourceRow({
        id: sourceId,
        tenantId: tenant.id,
        kind: "sitemap",
        url: `${site.base}/sitemap.xml`,
        title: null,
        nextSyncAt: now + IMPORT_LEASE_MS,
        createdAt: now,
      }),
    );
    const body = pageBody("/a");
    const contentHash = createHash("sha256").update(body).digest("hex");
    await addDocument(
      deps,
      tenant.id,
      {
        title: "Page /a",
        content: body,
        format: "html",
        sourceUrl: `${site.base}/a`,
        sourceId,
        fetched: { etag: null, lastModified: null, contentHash },
      },
      null,
    );
    site.release();
    deps.clock.advance(IMPORT_LEASE_MS - 1);
    expect(await syncDueSources(deps, NO_EMBEDDER)).toBe(0);
    deps.clock.advance(2);
    expect(await syncDueSources(deps, NO_EMBEDDER)).toBe(1);
    const source = await getSource(deps, tenant.id, sourceId);
    expect(source).toMatchObject({
      status: "ok",
      document_count: 3,
      report: { counts: { imported: 2, unchanged: 1 } },
    });
    expect(resultsOf(source.report?.pages)).toEqual({ "/a": "unchanged", "/b": "imported", "/c": "imported" });
    const urls = (await listDocuments(deps, tenant.id, { limit: 10 })).data.map((document) => document.source_url);
    expect(urls.toSorted()).toEqual(PAGES.map((path) => `${site.base}${path}`));
  });
});
