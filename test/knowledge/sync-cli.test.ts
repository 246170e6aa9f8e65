import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addSource } from "../../src/knowledge/sources.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
/** BM25 only: these tests are about fetching, not vectors. */
const NO_EMBEDDER = async () => null;
import { buildDeps, closeDeps } from "../helpers.ts";
import { cli } from "../cli/cli-helpers.ts";

// The CLI runs over a SQLite file here in both runs.
const dir = mkdtempSync(join(tmpdir(), "parley-cli-knowledge-"));
const db = join(dir, "knowledge.db");
let text = "Open Monday to Friday.";
let status = 200;
const server: ReturnType<typeof Bun.serve> = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: (request): Response =>
    new URL(request.url).pathname === "/sitemap.xml"
      ? new Response(
          `<urlset>${["/team", "/prices"].map((path) => `<url><loc>http://127.0.0.1:${server.port}${path}</loc></url>`).join("")}</urlset>`,
          { headers: { "content-type": "application/xml" } },
        )
      : status === 200
        ? new Response(`<h1>Hours</h1><p>${text}</p>`, { headers: { "content-type": "text/html" } })
        : new Response("down", { status }),
});
const env = { PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true" };
let tenantId: string;
let sourceId: string;

beforeAll(async () => {
  const deps = buildDeps({ allowPrivateWebhooks: true }, {}, {}, db);
  tenantId = (await createTenant(deps, { name: "Clinic" })).id;
  sourceId = (
    await addSource(deps, tenantId, { kind: "url", url: `http://127.0.0.1:${server.port}/hours` }, NO_EMBEDDER)
  ).source_id;
  closeDeps(deps);
});
afterAll(() => {
  server.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

describe("parley knowledge sync", () => {
  test("fetches the tenant's sources now and prints their state; a failed source makes it exit 1", async () => {
    text = "Open Monday to Saturday.";
    const changed = await cli(["knowledge", "sync", "--tenant", tenantId, "--db", db], { env });
    expect(changed).toMatchObject({ code: 0, err: "" });
    expect(changed.out).toMatch(new RegExp(`${sourceId}\\s+url\\s+\\S+/hours\\s+ok\\s+1 updated`));

    status = 500;
    const failed = await cli(["knowledge", "sync", "--tenant", tenantId, "--source", sourceId, "--json", "--db", db], {
      env,
    });
    expect(failed.code).toBe(1);
    const report = JSON.parse(failed.out) as {
      data: Array<{ status: string; last_error: string; document_count: number }>;
    };
    expect(report.data[0]).toMatchObject({ status: "failed", document_count: 1 });
    expect(report.data[0]?.last_error).toContain("HTTP 500");
  });

  test("add imports a sitemap's pages before it prints them; with --no-wait the source is left pending and due", async () => {
    status = 200;
    const sitemap = `http://127.0.0.1:${server.port}/sitemap.xml`;
    const added = await cli(["knowledge", "add", "--tenant", tenantId, "--sitemap", sitemap, "--db", db], { env });
    expect(added).toMatchObject({ code: 0, err: "" });
    expect(added.out).toMatch(/src_\S+\s+sitemap\s+\S+sitemap\.xml\s+ok\s+2 imported/);

    const later = await cli(
      ["knowledge", "add", "--tenant", tenantId, "--sitemap", sitemap, "--no-wait", "--json", "--db", db],
      { env },
    );
    expect(later.code).toBe(0);
    const [pending] = (JSON.parse(later.out) as { data: Array<{ status: string; next_sync_at: string }> }).data;
    expect(pending).toMatchObject({ status: "pending", document_count: 0 });
    expect(Date.parse(pending?.next_sync_at ?? "")).toBeLessThanOrEqual(Date.now());

    const both = await cli([
      "knowledge",
      "add",
      "--tenant",
      tenantId,
      "--db",
      db,
      "--url",
      sitemap,
      "--sitemap",
      sitemap,
    ]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("exactly one of --url and --sitemap");
  });

  test("an unknown action is a usage error (exit 2) and a missing source a clear error", async () => {
    expect((await cli(["knowledge", "crawl", "--tenant", tenantId, "--db", db])).code).toBe(2);
    const missing = await cli(
      ["knowledge", "sync", "--tenant", tenantId, "--source", "src_0000000000aaaaaaaaaaaaaaaa", "--db", db],
      { env },
    );
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("No such source");
  });
});
