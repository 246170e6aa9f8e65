import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSandbox, startServer, stopProcess, type Sandbox } from "./binary.ts";
import { makePdf, makeSlowPdf } from "../knowledge/make-pdf.ts";

let sandbox: Sandbox;
let site: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  sandbox = createSandbox({ PARLEY_LOG_LEVEL: "error", PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true" });
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/sitemap.xml")
        return new Response(`<urlset><url><loc>http://127.0.0.1:${site.port}/menu.pdf</loc></url></urlset>`, {
          headers: { "content-type": "application/xml" },
        });
      if (path === "/menu.pdf")
        return new Response(makePdf(["Lunch menu: soup of the day."]), {
          headers: { "content-type": "application/pdf" },
        });
      return new Response("nope", { status: 404 });
    },
  });
});
afterAll(() => {
  site.stop(true);
  sandbox.cleanup();
});

describe("knowledge sources in the compiled binary", () => {
  test("PDF.js is inside the binary: an uploaded PDF and a sitemap's PDF page become documents; the CLI syncs", async () => {
    const server = await startServer(sandbox);
    try {
      const tenant = JSON.parse(sandbox.run(["tenant", "create", "--name", "Bistro", "--json"]).out);
      const key = JSON.parse(sandbox.run(["apikey", "create", "--tenant", tenant.tenant_id, "--json"]).out).key;
      const upload = await fetch(`${server.baseUrl}/api/v1/knowledge/sources/pdf?title=Opening%20hours`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/pdf" },
        body: makePdf(["We open at noon.", "Closed on Mondays."]),
      });
      expect(upload.status).toBe(201);
      // A 2 MB PDF: the server's body cut-off lets PDFs up to 10 MB through; read on the PDF thread.
      const dense = await fetch(`${server.baseUrl}/api/v1/knowledge/sources/pdf`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/pdf" },
        body: makeSlowPdf(70_000),
      });
      expect(dense.status).toBe(201);
      expect(await dense.json()).toMatchObject({ kind: "upload", title: "Slow", document_count: 1 });
      const sitemap = await fetch(`${server.baseUrl}/api/v1/knowledge/sources`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ sitemap_url: `http://127.0.0.1:${site.port}/sitemap.xml` }),
      });
      expect(sitemap.status).toBe(201);
      const pending = await sitemap.json();
      expect(pending).toMatchObject({ status: "pending", document_count: 0 });
      // Its pages are imported in the background: the source is asked until the import has ended.
      let imported = pending;
      for (let poll = 0; imported.status === "pending" && poll < 200; poll++) {
        await Bun.sleep(50);
        imported = await (
          await fetch(`${server.baseUrl}/api/v1/knowledge/sources/${pending.source_id}`, {
            headers: { "x-api-key": key },
          })
        ).json();
      }
      expect(imported).toMatchObject({ status: "ok", document_count: 1 });
      const search = await (
        await fetch(`${server.baseUrl}/api/v1/knowledge/search?q=mondays`, { headers: { "x-api-key": key } })
      ).json();
      expect(search.data[0]).toMatchObject({ title: "Opening hours" });
      // Spawned without waiting synchronously: the site it fetches is served by this test process.
      const sync = Bun.spawn([sandbox.binary, "knowledge", "sync", "--tenant", tenant.tenant_id], {
        cwd: sandbox.dir,
        env: sandbox.env,
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(await sync.exited).toBe(0);
      expect(await new Response(sync.stdout).text()).toMatch(/sitemap\s+\S+sitemap\.xml\s+unchanged\s+1 unchanged/);
    } finally {
      await stopProcess(server.process);
    }
  });
});
