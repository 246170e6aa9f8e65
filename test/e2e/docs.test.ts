import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createSandbox, startServer } from "./binary.ts";
import { describeWithBrowser, serveAppToBrowser, trackPageErrors } from "./chromium.ts";
import { buildDeps } from "../helpers.ts";
import { createAppDeps } from "../../src/http/deps.ts";

const SCALAR_BUNDLE = readFileSync(
  join(dirname(Bun.resolveSync("@scalar/api-reference", import.meta.dir)), "browser", "standalone.js"),
  "utf8",
);

describe("the compiled binary's API reference", () => {
  test("an empty directory and the binary serve /docs, Scalar's viewer and a valid OpenAPI 3.1 document", async () => {
    const sandbox = createSandbox({ PARLEY_LOG_LEVEL: "error" });
    const server = await startServer(sandbox);
    try {
      const page = await fetch(`${server.baseUrl}/docs`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script src="/docs/viewer.js');
      const viewer = await fetch(`${server.baseUrl}/docs/viewer.js`, { headers: { "accept-encoding": "identity" } });
      expect(viewer.status).toBe(200);
      expect(await viewer.text()).toBe(SCALAR_BUNDLE);
      const document = await (await fetch(`${server.baseUrl}/docs/json`)).json();
      expect((await new Validator().validate(document)).valid).toBe(true);
    } finally {
      server.process.kill("SIGTERM");
      await server.process.exited;
      sandbox.cleanup();
    }
  }, 120_000);
});

describeWithBrowser("the API reference in headless Chromium (needs /usr/bin/chromium)", () => {
  const served = serveAppToBrowser(createAppDeps(buildDeps()));

  test("renders the operations under the page's CSP, asking nothing of any other host", async () => {
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const problems = trackPageErrors(page);
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith("http") && url.origin !== served.origin) elsewhere.push(request.url());
    });
    await page.goto(`${served.origin}/docs`);
    // Tags and operation summaries from /docs/json, drawn by the viewer (not the <noscript> list).
    await page.getByRole("link", { name: "Log in" }).first().waitFor({ timeout: 30_000 });
    await page.getByText("Webhook rules", { exact: true }).first().click();
    await page.getByText("Create a webhook rule").first().waitFor({ timeout: 10_000 });
    await page.getByText("List the event catalog").first().waitFor();
    await page.screenshot({ path: join(process.env.TMPDIR ?? "/tmp", "parley-api-reference.png") });
    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);

    // "Try it": the viewer's client sends the example request to this server (connect-src 'self').
    await page
      .getByRole("button", { name: /Test Request/ })
      .first()
      .click();
    const answered = page.waitForResponse((response) => response.url() === `${served.origin}/api/v1/auth/token`);
    await page.getByRole("button", { name: /^Send/ }).first().click();
    expect((await answered).status()).toBe(401);
    await page.getByText("invalid_credentials").first().waitFor({ timeout: 10_000 });
    expect(elsewhere).toEqual([]);
    await context.close();
  }, 60_000);
});
