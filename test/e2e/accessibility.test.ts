import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { buildDeps, TEST_PASSWORD } from "../helpers.ts";
import { describeWithBrowser, launchChromium } from "./chromium.ts";
import { startDeskSite, type DeskSite } from "./desk-site.ts";
import { createAppDeps } from "../../src/http/deps.ts";
import { systemClock } from "../../src/lib/clock.ts";

/** axe-core's own bundle, put into each page as it is (the page's CSP is bypassed for it alone). */
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** axe's serious and critical violations on what the page shows now, one line each (empty when none). */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = (await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }
    ).axe;
    return (await axe.run(document, { resultTypes: ["violations"] })).violations;
  })) as Violation[];
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => JSON.stringify(node.target)).join(", ")}`,
    );
}

const W = (selector: string) => `parley-widget >> css=${selector}`;

describeWithBrowser("accessibility: axe-core in headless Chromium (needs /usr/bin/chromium)", () => {
  const deps = createAppDeps({ ...buildDeps({ visitorSessionsPerHour: 10_000 }), clock: systemClock });
  let site: DeskSite;
  let browser: Browser;

  beforeAll(async () => {
    site = await startDeskSite(
      deps,
      { name: "Accessible Dental", email: "owner@a11y.example", role: "owner", displayName: "Olga" },
      (url) => `data-theme="${url.searchParams.get("theme") ?? "light"}"`,
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.stop();
    deps.sqlite.close();
  });

  for (const colorScheme of ["light", "dark"] as const) {
    test(`the admin page has no serious or critical violation on any tab, in ${colorScheme} mode`, async () => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 860 },
        colorScheme,
        bypassCSP: true,
      });
      const page = await context.newPage();
      await page.goto(`${site.origin}/admin`);
      const found: Record<string, string[]> = { "sign-in": await seriousViolations(page) };
      await page.locator("#signin-email").fill("owner@a11y.example");
      await page.locator("#signin-password").fill(TEST_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("tablist").waitFor();
      const tabs = await page.locator("[role=tab]:not([hidden])").allTextContents();
      expect(tabs.length).toBeGreaterThan(8);
      for (const name of tabs) {
        await page.getByRole("tab", { name, exact: true }).click();
        await page.waitForLoadState("networkidle");
        found[name] = await seriousViolations(page);
      }
      expect(Object.entries(found).filter(([, violations]) => violations.length > 0)).toEqual([]);
      await context.close();
    });

    test(`the widget's open panel has no serious or critical violation, in ${colorScheme} theme`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      await page.goto(`${site.hostUrl}?theme=${colorScheme}`);
      await page.locator(W(".launcher")).click();
      await page.locator(W(".m.bot")).first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    });
  }
});
