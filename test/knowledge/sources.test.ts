import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
/** BM25 only: these tests are about fetching, not vectors. */
const NO_EMBEDDER = async () => null;
import { buildDeps, closeDeps, refusal, seedTenant, type TestDeps } from "../helpers.ts";
import { getDocument, listDocuments } from "../../src/knowledge/documents.ts";
import { addSource, deleteSource, getSource, syncSourceNow } from "../../src/knowledge/sources.ts";
import { syncDueSources } from "../../src/knowledge/scheduled-sync.ts";
import { importEnded } from "../../src/knowledge/import-sitemap.ts";
import { setSyncSchedule } from "../../src/knowledge/sync-schedule.ts";
import { searchKnowledge } from "../../src/knowledge/search.ts";
import { makePdf } from "./make-pdf.ts";
import { PLANS } from "../../src/plans/plans.ts";

const DAY = 24 * 60 * 60 * 1000;

/** The site: pages whose text and validators a test changes, and every request it received. */
const site = {
  pages: new Map<
    string,
    { body: string | Uint8Array<ArrayBuffer>; type: string; etag?: string; lastModified?: string; status?: number }
  >(),
  sitemap: [] as string[],
  requests: [] as Array<{ path: string; ifNoneMatch: string | null; ifModifiedSince: string | null }>,
};
let server: ReturnType<typeof Bun.serve>;
let base: string;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      site.requests.push({
        path,
        ifNoneMatch: request.headers.get("if-none-match"),
        ifModifiedSince: request.headers.get("if-modified-since"),
      });
      if (path === "/robots.txt")
        return new Response("User-agent: *\nDisallow: /private\n", { headers: { "content-type": "text/plain" } });
      if (path === "/sitemap.xml") {
        const urls = site.sitemap.map((loc) => `<url><loc>${loc}</loc></url>`).join("");
        // Its ETag is its list: an unchanged sitemap answers 304.
        const etag = `"${Bun.hash(urls).toString(16)}"`;
        if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304 });
        return new Response(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
          { headers: { "content-type": "application/xml", etag } },
        );
      }
      if (path === "/index.xml" && request.headers.get("if-none-match") === '"idx"')
        return new Response(null, { status: 304 });
      if (path === "/index.xml")
        return new Response(`<sitemapindex><sitemap><loc>${base}/sitemap.xml</loc></sitemap></sitemapindex>`, {
          headers: { "content-type": "application/xml", etag: '"idx"' },
        });
      const page = site.pages.get(path);
      if (!page) return new Response("gone", { status: 404 });
      if (page.status) return new Response("down", { status: page.status });
      if (page.etag && request.headers.get("if-none-match") === page.etag) return new Response(null, { status: 304 });
      const headers: Record<string, string> = { "content-type": page.type };
      if (page.etag) headers.etag = page.etag;
      if (page.lastModified) headers["last-modified"] = page.lastModified;
      return new Response(page.body, { headers });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

const html = (title: string, text: string) =>
  `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

let deps: TestDeps;
let tenantId: string;
beforeEach(async () => {
  site.pages.clear();
  site.requests.length = 0;
  site.pages.set("/prices", { body: html("Prices", "A check-up costs 45 EUR."), type: "text/html", etag: '"p1"' });
  site.pages.set("/hours", {
    body: html("Hours", "Open Monday to Friday."),
    type: "text/html",
    lastModified: "Wed, 14 Jan 2026 09:00:00 GMT",
  });
  site.pages.set("/private/staff", { body: html("Staff", "Internal."), type: "text/html" });
  site.pages.set("/guide.pdf", {
    body: makePdf(["Welcome to the clinic.", "Implants start at 1,200 EUR."]),
    type: "application/pdf",
  });
  site.sitemap = [
    `${base}/prices`,
    `${base}/hours`,
    `${base}/private/staff`,
    "https://elsewhere.example/page",
    `${base}/guide.pdf`,
  ];
  deps = buildDeps({ allowPrivateWebhooks: true });
  tenantId = (await seedTenant(deps, "Clinic")).tenant.id;
});
afterEach(() => closeDeps(deps));

/** A sitemap source as it stands once the import it starts (in the background) has ended. */
async function addImported(url: string) {
  const pending = await addSource(deps, tenantId, { kind: "sitemap", url }, NO_EMBEDDER);
  expect(pending).toMatchObject({ status: "pending", document_count: 0, report: null });
  await importEnded(deps.store, pending.source_id);
  return getSource(deps, tenantId, pending.source_id);
}

const resultsByUrl = (pages: Array<{ url: string; result: string }> | undefined) =>
  Object.fromEntries((pages ?? []).map((page) => [page.url.replace(base, ""), page.result]));

describe("knowledge sources", () => {
  test("a sitemap imports its site's pages (a PDF among them) and skips other sites and what robots.txt disallows", async () => {
    const source = await addImported(`${base}/index.xml`);
    // An index's validators are not kept: its 304 would say nothing of the sitemaps it lists.
    expect(source).toMatchObject({
      kind: "sitemap",
      status: "ok",
      document_count: 3,
      last_error: null,
      etag: null,
      next_sync_at: new Date(deps.clock.now() + DAY).toISOString(),
    });
    expect(resultsByUrl(source.report?.pages)).toEqual({
      "/prices": "imported",
      "/hours": "imported",
      "/guide.pdf": "imported",
      "/private/staff": "skipped",
      "https://elsewhere.example/page": "skipped",
    });
    expect(source.report?.counts).toMatchObject({ imported: 3, skipped: 2 });
    const documents = (await listDocuments(deps, tenantId, { limit: 10 })).data;
    expect(documents.every((document) => document.source_id === source.source_id)).toBe(true);
    const pdf = documents.find((document) => document.source_url === `${base}/guide.pdf`);
    expect(pdf?.format).toBe("pdf");
    const hits = await searchKnowledge(deps, tenantId, "implants");
    expect(hits[0]).toMatchObject({ document_id: pdf?.document_id, url: `${base}/guide.pdf` });
    expect(hits[0]?.text).toContain("1,200");
    expect(site.requests.some((request) => request.path === "/private/staff")).toBe(false);
  });

  test("the scheduled re-crawl skips an unchanged page by its ETag, replaces a changed one and removes one gone from the sitemap", async () => {
    const source = await addImported(`${base}/sitemap.xml`);
    const before = Object.fromEntries(
      (await listDocuments(deps, tenantId, { limit: 10 })).data.map((document) => [
        document.source_url,
        document.document_id,
      ]),
    );
    site.pages.set("/hours", {
      body: html("Hours", "Open Monday to Saturday."),
      type: "text/html",
      lastModified: "Thu, 15 Jan 2026 09:00:00 GMT",
    });
    site.sitemap = site.sitemap.filter((url) => !url.endsWith("/guide.pdf"));
    site.requests.length = 0;

    expect(await syncDueSources(deps, NO_EMBEDDER)).toBe(0); // not due yet
    deps.clock.advance(DAY);
    expect(await syncDueSources(deps, NO_EMBEDDER)).toBe(1);

    const synced = await getSource(deps, tenantId, source.source_id);
    expect(resultsByUrl(synced.report?.pages)).toMatchObject({
      "/prices": "unchanged",
      "/hours": "updated",
      "/guide.pdf": "removed",
    });
    expect(synced).toMatchObject({
      status: "ok",
      document_count: 2,
      last_changed_at: new Date(deps.clock.now()).toISOString(),
    });
    expect(site.requests.find((request) => request.path === "/prices")?.ifNoneMatch).toBe('"p1"');
    expect(site.requests.find((request) => request.path === "/hours")?.ifModifiedSince).toBe(
      "Wed, 14 Jan 2026 09:00:00 GMT",
    );
    const hours = await getDocument(deps, tenantId, before[`${base}/hours`] ?? "");
    expect(hours.content).toContain("Monday to Saturday");
    expect((await searchKnowledge(deps, tenantId, "open saturday"))[0]?.document_id).toBe(hours.document_id);
    expect(await refusal(getDocument(deps, tenantId, before[`${base}/guide.pdf`] ?? ""))).toMatchObject({
      status: 404,
    });

    // Nothing changed since: the sitemap answers 304, its pages are still asked (304 or the same body), nothing is removed.
    deps.clock.advance(DAY);
    site.requests.length = 0;
    expect(await syncDueSources(deps, NO_EMBEDDER)).toBe(1);
    expect(await getSource(deps, tenantId, source.source_id)).toMatchObject({
      status: "unchanged",
      document_count: 2,
      report: { counts: { unchanged: 2, updated: 0, imported: 0, removed: 0 } },
    });
    expect(
      site.requests
        .filter((request) => request.path.endsWith(".xml"))
        .map((request) => [request.path, request.ifNoneMatch]),
    ).toEqual([["/sitemap.xml", synced.etag]]);
  });

  test("a failing source keeps its documents and records the error, and does not hold back another source", async () => {
    const failing = await addSource(deps, tenantId, { kind: "url", url: `${base}/prices` }, NO_EMBEDDER);
    const healthy = await addSource(deps, tenantId, { kind: "url", url: `${base}/hours` }, NO_EMBEDDER);
    site.pages.set("/prices", { body: "", type: "text/html", status: 503 });
    site.pages.set("/hours", { body: html("Hours", "Closed on Sundays."), type: "text/html" });
    deps.clock.advance(DAY);
    expect(await syncDueSources(deps, NO_EMBEDDER)).toBe(2);
    const failed = await getSource(deps, tenantId, failing.source_id);
    expect(failed).toMatchObject({ status: "failed", document_count: 1 });
    expect(failed.last_error).toContain("HTTP 503");
    expect((await searchKnowledge(deps, tenantId, "check-up cost"))[0]?.title).toBe("Prices");
    expect(await getSource(deps, tenantId, healthy.source_id)).toMatchObject({ status: "ok", document_count: 1 });
    expect((await searchKnowledge(deps, tenantId, "sundays"))[0]?.title).toBe("Hours");
  });

  test("a sitemap whose pages fail is kept: failed when every page failed, with each page's reason", async () => {
    site.pages.set("/prices", { body: "", type: "text/html", status: 500 });
    site.sitemap = [`${base}/prices`, `${base}/gone`];
    const source = await addImported(`${base}/sitemap.xml`);
    expect(source).toMatchObject({ status: "failed", document_count: 0, report: { counts: { failed: 2 } } });
    expect(source.last_error).toContain("2 of 2 pages failed");
    expect(source.report?.pages?.map((page) => page.reason)).toEqual([
      `${base}/prices answered HTTP 500.`,
      `${base}/gone answered HTTP 404.`,
    ]);
    site.pages.set("/prices", { body: html("Prices", "A check-up costs 45 EUR."), type: "text/html" });
    expect(await syncSourceNow(deps, tenantId, source.source_id, NO_EMBEDDER)).toMatchObject({
      status: "ok",
      document_count: 1,
      report: { counts: { imported: 1, failed: 1 } },
    });
  });

  test("the plan bounds a sitemap's pages (the rest skipped, naming the limit) and the number of sources", async () => {
    const max = PLANS.free.knowledgeDocuments;
    site.sitemap = Array.from({ length: max + 3 }, (_, index) => `${base}/page-${index}`);
    site.sitemap.forEach((url, index) =>
      site.pages.set(new URL(url).pathname, {
        body: html(`Page ${index}`, `Fact number ${index}.`),
        type: "text/html",
      }),
    );
    const source = await addImported(`${base}/sitemap.xml`);
    expect(source).toMatchObject({
      status: "ok",
      document_count: max,
      report: { counts: { imported: max, skipped: 3 } },
    });
    expect(source.report?.pages?.find((page) => page.result === "skipped")?.reason).toContain(
      `allows ${max} knowledge documents`,
    );

    // More sources up to the cap, written directly: fetching them would only repeat the above.
    const stored = await deps.store.knowledgeSources.findSource(tenantId, source.source_id);
    if (!stored) throw new Error("the sitemap source was not stored");
    for (let index = 1; index < max; index++)
      await deps.store.knowledgeSources.insertSource({ ...stored, id: `src_${String(index).padStart(26, "0")}` });
    const refused = await refusal(addSource(deps, tenantId, { kind: "url", url: `${base}/prices` }, NO_EMBEDDER));
    expect(refused).toMatchObject({
      code: "plan_limit",
      status: 402,
      details: { limit: "knowledge_sources", max, current: max },
    });
  });

  test("with the schedule off nothing is due; sync now still works; a bad interval is a 422", async () => {
    const source = await addSource(deps, tenantId, { kind: "url", url: `${base}/prices` }, NO_EMBEDDER);
    expect(await setSyncSchedule(deps, tenantId, "off")).toEqual({ sync_interval: "off" });
    expect((await getSource(deps, tenantId, source.source_id)).next_sync_at).toBeNull();
    deps.clock.advance(30 * DAY);
    expect(await syncDueSources(deps, NO_EMBEDDER)).toBe(0);
    expect(await syncSourceNow(deps, tenantId, source.source_id, NO_EMBEDDER)).toMatchObject({
      status: "unchanged",
      last_synced_at: new Date(deps.clock.now()).toISOString(),
    });
    expect(await setSyncSchedule(deps, tenantId, "12h")).toEqual({ sync_interval: "12h" });
    expect((await getSource(deps, tenantId, source.source_id)).next_sync_at).toBe(
      new Date(deps.clock.now() + 12 * 60 * 60 * 1000).toISOString(),
    );
    expect(await refusal(setSyncSchedule(deps, tenantId, "5m"))).toMatchObject({ status: 422 });
  });

  test("a source that cannot be read is not kept; deleting a source deletes its documents", async () => {
    expect(
      await refusal(addSource(deps, tenantId, { kind: "url", url: `${base}/missing` }, NO_EMBEDDER)),
    ).toMatchObject({ code: "url_fetch_failed", status: 422 });
    expect(
      await refusal(addSource(deps, tenantId, { kind: "sitemap", url: `${base}/prices` }, NO_EMBEDDER)),
    ).toMatchObject({ code: "url_fetch_failed", status: 422 });
    expect(
      await refusal(addSource(deps, tenantId, { kind: "url", url: "ftp://example.com/x" }, NO_EMBEDDER)),
    ).toMatchObject({ status: 422 });
    const source = await addImported(`${base}/sitemap.xml`);
    await deleteSource(deps, tenantId, source.source_id);
    expect((await listDocuments(deps, tenantId, { limit: 10 })).data).toEqual([]);
    expect(await refusal(getSource(deps, tenantId, source.source_id))).toMatchObject({ status: 404 });
  });

  test("private addresses are refused unless allowed, as for a single URL", async () => {
    const strict = buildDeps({ allowPrivateWebhooks: false });
    try {
      const other = (await seedTenant(strict, "Strict")).tenant.id;
      const error = await refusal(
        addSource(strict, other, { kind: "sitemap", url: `${base}/sitemap.xml` }, NO_EMBEDDER),
      );
      expect(error).toMatchObject({ status: 422 });
      expect(error.message).toContain("127.0.0.1");
    } finally {
      closeDeps(strict);
    }
  });
});
