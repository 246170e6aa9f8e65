import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";

/** Debian's chromium, driven by playwright-core; never a browser downloaded by a tool. */
export const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export type BrowserSuiteMode = "run" | "skip" | "fail";

/**
 * What a browser suite does on this machine: run when Chromium is there; otherwise skip on a
 * developer's machine, but fail in CI, where `.ci/run` installs Chromium — a CI that silently
 * skipped the browser tests would report green without ever having opened the widget.
 */
export function browserSuiteMode(chromiumPresent: boolean, ci: boolean): BrowserSuiteMode {
  if (chromiumPresent) return "run";
  return ci ? "fail" : "skip";
}

/** `describe` for a suite that needs Chromium, following browserSuiteMode. */
export function describeWithBrowser(name: string, body: () => void): void {
  const mode = browserSuiteMode(existsSync(CHROMIUM), process.env.CI === "true");
  if (mode === "run") return describe(name, body);
  if (mode === "skip") return describe.skip(name, body);
  describe(name, () => {
    test(`${CHROMIUM} is installed (CI=true: browser tests may not be skipped)`, () => {
      expect(existsSync(CHROMIUM)).toBe(true);
    });
  });
}

/** Debian's Chromium, headless, through playwright-core (imported only when a suite runs). */
export async function launchChromium(): Promise<import("playwright-core").Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** The page's uncaught errors and console errors (CSP violations land there), as they happen. */
export function trackPageErrors(page: import("playwright-core").Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/**
 * Inside a describeWithBrowser suite: the app over `deps` listening on loopback and Chromium,
 * started before its tests and stopped after. Read `origin` and `browser` in the tests.
 */
export function serveAppToBrowser(deps: import("../../src/http/deps.ts").AppDeps & { sqlite: { close(): void } }) {
  const served = { origin: "", browser: null as unknown as import("playwright-core").Browser };
  let parley: { stop(): unknown; server: { port?: number } | null } | undefined;
  beforeAll(async () => {
    const { createApp } = await import("../../src/http/app.ts");
    parley = createApp(deps).listen({ port: 0, hostname: "127.0.0.1" });
    served.origin = `http://127.0.0.1:${parley.server?.port}`;
    served.browser = await launchChromium();
  });
  afterAll(async () => {
    await served.browser?.close();
    await parley?.stop();
    deps.sqlite.close();
  });
  return served;
}
