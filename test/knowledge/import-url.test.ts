import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { buildDeps, closeDeps, seedTenant, refusal } from "../helpers.ts";
import { getDocument, listDocuments } from "../../src/knowledge/documents.ts";
import { importDocumentFromUrl, MAX_IMPORT_BYTES } from "../../src/knowledge/import-url.ts";
import { searchKnowledge } from "../../src/knowledge/search.ts";

const PAGE = `<html><head><title>Bright Smile — Prices</title></head><body>
<nav>Home | Team | Contact</nav><h1>Prices</h1><p>A check-up costs 45 EUR.</p><h2>Implants</h2><p>An implant starts at 1,200 EUR.</p></body></html>`;

const requests: string[] = [];
let server: ReturnType<typeof Bun.serve>;
let base: string;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      requests.push(path);
      if (path === "/page") return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
      if (path === "/faq.md")
        return new Response("# Parking\nBehind the building.", { headers: { "content-type": "text/markdown" } });
      if (path === "/hop") return new Response(null, { status: 302, headers: { location: "/page" } });
      if (path === "/to-file") return new Response(null, { status: 302, headers: { location: "file:///etc/passwd" } });
      if (path === "/loop") return new Response(null, { status: 301, headers: { location: "/loop" } });
      if (path === "/pdf") return new Response("%PDF-1.7", { headers: { "content-type": "application/pdf" } });
      if (path === "/image") return new Response("GIF89a", { headers: { "content-type": "image/gif" } });
      if (path === "/huge") {
        // Streamed without a Content-Length: the cap must hold while reading, not only on the header.
        let sent = 0;
        return new Response(
          new ReadableStream({
            pull(controller) {
              if (sent > MAX_IMPORT_BYTES * 2) return controller.close();
              sent += 64 * 1024;
              controller.enqueue(new TextEncoder().encode(`<p>${"x".repeat(64 * 1024 - 7)}</p>`));
            },
          }),
          { headers: { "content-type": "text/html" } },
        );
      }
      if (path === "/slow") {
        await Bun.sleep(2_000);
        return new Response(PAGE, { headers: { "content-type": "text/html" } });
      }
      return new Response("nope", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

let deps: ReturnType<typeof buildDeps>;
afterEach(() => closeDeps(deps));

async function tenant(allowPrivate: boolean) {
  deps = buildDeps({ allowPrivateWebhooks: allowPrivate });
  return (await seedTenant(deps, "Clinic")).tenant.id;
}

describe("importDocumentFromUrl", () => {
  test("an HTML page is fetched, parsed into headed chunks and titled by its <title>", async () => {
    const tenantId = await tenant(true);
    const document = await importDocumentFromUrl(deps, tenantId, { url: `${base}/page` }, null);
    expect(document).toMatchObject({
      title: "Bright Smile — Prices",
      format: "html",
      source_url: `${base}/page`,
      chunk_count: 2,
    });
    const stored = await getDocument(deps, tenantId, document.document_id);
    expect(stored.content).toBe(
      "# Prices\n\nA check-up costs 45 EUR.\n\n## Implants\n\nAn implant starts at 1,200 EUR.",
    );
    expect(stored.chunks.map((chunk) => chunk.heading)).toEqual(["Prices", "Prices › Implants"]);
    const hits = await searchKnowledge(deps, tenantId, "implant price");
    expect(hits[0]).toMatchObject({ document_id: document.document_id, url: `${base}/page` });
  });

  test("a Markdown file keeps its format and a given title wins", async () => {
    const tenantId = await tenant(true);
    const document = await importDocumentFromUrl(deps, tenantId, { url: `${base}/faq.md`, title: "Directions" }, null);
    expect(document).toMatchObject({ title: "Directions", format: "markdown", chunk_count: 1 });
  });

  test("redirects are followed hop by hop, and a hop to a refused URL stops the import", async () => {
    const tenantId = await tenant(true);
    const document = await importDocumentFromUrl(deps, tenantId, { url: `${base}/hop` }, null);
    expect(document.title).toBe("Bright Smile — Prices");
    const toFile = await refusal(importDocumentFromUrl(deps, tenantId, { url: `${base}/to-file` }, null));
    expect(toFile).toMatchObject({ code: "validation_failed", status: 422 });
    expect(toFile.message).toContain("redirected to file:///etc/passwd");
    const loop = await refusal(importDocumentFromUrl(deps, tenantId, { url: `${base}/loop` }, null));
    expect(loop).toMatchObject({ code: "url_fetch_failed", status: 422 });
  });

  test("loopback and private addresses are refused before any request unless private targets are allowed", async () => {
    const tenantId = await tenant(false);
    const before = requests.length;
    for (const url of [
      `${base}/page`,
      "http://localhost/page",
      "http://10.0.0.8/",
      "http://169.254.169.254/latest/meta-data/",
      "http://[::1]/",
    ]) {
      const error = await refusal(importDocumentFromUrl(deps, tenantId, { url }, null));
      expect(error).toMatchObject({ code: "validation_failed", status: 422 });
      expect(error.message).toMatch(/^url: /);
    }
    const scheme = await refusal(importDocumentFromUrl(deps, tenantId, { url: "ftp://example.com/x" }, null));
    expect(scheme.message).toContain("scheme ftp is not allowed");
    expect(requests.length).toBe(before);
    expect((await listDocuments(deps, tenantId, { limit: 10 })).data).toEqual([]);
  });

  test("a name that resolves to a private address is refused (fake DNS, no network)", async () => {
    deps = buildDeps({ allowPrivateWebhooks: false }, {}, { resolveHost: async () => ["192.168.1.20"] });
    const { tenant: owner } = await seedTenant(deps, "Clinic");
    const error = await refusal(importDocumentFromUrl(deps, owner.id, { url: "http://intranet.example.com/" }, null));
    expect(error.message).toContain("resolves to 192.168.1.20");
    // The hint is about any URL Parley calls: a page import is no webhook.
    expect(error.message).toContain("Parley calls only publicly reachable addresses");
    expect(error.message).not.toContain("webhook URLs");
  });

  test("a body past 2 MB is abandoned with 413, a type that is no text, a broken PDF and an HTTP error with 422", async () => {
    const tenantId = await tenant(true);
    expect(await refusal(importDocumentFromUrl(deps, tenantId, { url: `${base}/huge` }, null))).toMatchObject({
      code: "document_too_large",
      status: 413,
    });
    const image = await refusal(importDocumentFromUrl(deps, tenantId, { url: `${base}/image` }, null));
    expect(image).toMatchObject({ code: "url_fetch_failed", status: 422 });
    expect(image.message).toContain("image/gif");
    expect(await refusal(importDocumentFromUrl(deps, tenantId, { url: `${base}/pdf` }, null))).toMatchObject({
      code: "pdf_unreadable",
      status: 422,
    });
    const missing = await refusal(importDocumentFromUrl(deps, tenantId, { url: `${base}/missing` }, null));
    expect(missing.message).toContain("HTTP 404");
    expect((await listDocuments(deps, tenantId, { limit: 10 })).data).toEqual([]);
  });

  test("a page slower than the deadline is abandoned", async () => {
    const tenantId = await tenant(true);
    const error = await refusal(
      importDocumentFromUrl(deps, tenantId, { url: `${base}/slow` }, null, { timeoutMs: 150 }),
    );
    expect(error).toMatchObject({ code: "url_fetch_failed", status: 422 });
    expect(error.message).toContain("within 0.15 s");
  });
});
