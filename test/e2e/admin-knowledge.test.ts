import { afterAll, beforeAll, expect, test } from "bun:test";
import { buildDeps } from "../helpers.ts";
import { describeWithBrowser, serveAppToBrowser, trackPageErrors } from "./chromium.ts";
import { createAppDeps } from "../../src/http/deps.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { makePdf } from "../knowledge/make-pdf.ts";

describeWithBrowser("the admin page's knowledge sources in headless Chromium (needs /usr/bin/chromium)", () => {
  const deps = createAppDeps({ ...buildDeps({ allowPrivateWebhooks: true }), clock: systemClock });
  const served = serveAppToBrowser(deps);
  let hoursText = "Open Monday to Friday.";
  let hoursStatus = 200;
  let site: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    site = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        const path = new URL(request.url).pathname;
        const page = (title: string, text: string) =>
          new Response(`<html><head><title>${title}</title></head><body><p>${text}</p></body></html>`, {
            headers: { "content-type": "text/html" },
          });
        if (path === "/sitemap.xml")
          return new Response(
            `<urlset><url><loc>http://127.0.0.1:${site.port}/hours</loc></url><url><loc>http://127.0.0.1:${site.port}/team</loc></url></urlset>`,
            { headers: { "content-type": "application/xml" } },
          );
        if (path === "/hours")
          return hoursStatus === 200 ? page("Hours", hoursText) : new Response("down", { status: hoursStatus });
        if (path === "/team") return page("Team", "Dr. Silva has 20 years of experience.");
        return new Response("nope", { status: 404 });
      },
    });
  });
  afterAll(() => site.stop(true));

  test("an owner adds a sitemap and a PDF, sees each source's sync state, syncs now, sets the schedule and deletes a source", async () => {
    const tenant = await createTenant(deps, { name: "Sources Dental", sector: "dental-clinic" });
    const key = (await createApiKey(deps, { tenantId: tenant.id, name: "admin page" })).key;
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = trackPageErrors(page);
    await page.goto(`${served.origin}/admin`);
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("tab", { name: "Knowledge" }).click();
    await page.locator("#source-rows td.empty").waitFor();
    expect(await page.getByLabel("Fetch pages and sitemaps again").inputValue()).toBe("1d");

    await page.getByLabel("Kind").selectOption("sitemap");
    await page.getByLabel("Page or sitemap URL").fill(`http://127.0.0.1:${site.port}/sitemap.xml`);
    await page.getByRole("button", { name: "Add source" }).click();
    await page.locator("#source-msg").filter({ hasText: "2 documents; 2 imported." }).waitFor();
    const sitemapRow = page.locator("#source-rows tr").filter({ hasText: "/sitemap.xml" });
    const cells = await sitemapRow.locator("td").allTextContents();
    expect([cells[1], cells[2], cells[6], cells[7]]).toEqual(["sitemap", "ok", "2", "2 imported"]);
    await page.locator("#knowledge-rows tr").filter({ hasText: "Team" }).waitFor();

    await page.locator("#pdf-file").setInputFiles({
      name: "prices.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from(makePdf(["A cleaning costs 60 EUR."])),
    });
    await page.getByLabel("Title (optional)").last().fill("Price list");
    await page.getByRole("button", { name: "Upload PDF" }).click();
    await page.locator("#pdf-msg").filter({ hasText: "Added Price list: 1 document" }).waitFor();
    const pdfRow = page.locator("#source-rows tr").filter({ hasText: "Price list" });
    expect(await pdfRow.locator("td").nth(1).textContent()).toBe("upload");
    expect(await pdfRow.getByRole("button", { name: "Sync Price list now" }).isHidden()).toBe(true);

    // The page changes and then fails: "Sync now" shows each outcome, the documents stay.
    hoursText = "Open Monday to Saturday.";
    await sitemapRow.getByRole("button", { name: /^Sync .* now$/ }).click();
    await page.locator("#sources-msg").filter({ hasText: "ok; 1 updated, 1 unchanged." }).waitFor();
    hoursStatus = 503;
    await page
      .locator("#source-rows tr")
      .filter({ hasText: "/sitemap.xml" })
      .getByRole("button", { name: /^Sync .* now$/ })
      .click();
    await page.locator("#sources-msg").filter({ hasText: "1 of 2 pages failed" }).waitFor();
    await page.locator("#source-rows tr").filter({ hasText: "HTTP 503" }).waitFor();
    expect(await page.locator("#knowledge-rows tr").filter({ hasText: "Hours" }).count()).toBe(1);

    await page.getByLabel("Fetch pages and sitemaps again").selectOption("off");
    await page.getByRole("button", { name: "Save schedule" }).click();
    await page.locator("#schedule-msg").filter({ hasText: "no longer fetched on a schedule" }).waitFor();
    expect(await page.getByLabel("Fetch pages and sitemaps again").inputValue()).toBe("off");
    expect(
      await page.locator("#source-rows tr").filter({ hasText: "/sitemap.xml" }).locator("td").nth(5).textContent(),
    ).toBe("—");

    await page.getByRole("button", { name: "Delete Price list and its documents" }).click();
    await page.getByRole("button", { name: "Really delete Price list and its 1 documents?" }).click();
    await page.locator("#sources-msg").filter({ hasText: "Deleted Price list and its documents." }).waitFor();
    await page.locator("#knowledge-rows tr").filter({ hasText: "Price list" }).waitFor({ state: "detached" });
    await page.screenshot({ path: "/tmp/parley-admin-knowledge-sources.png", fullPage: true });
    expect(errors).toEqual([]);
  });
});
