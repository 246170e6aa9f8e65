import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { buildDeps, TEST_PASSWORD } from "../helpers.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { describeWithBrowser, launchChromium } from "./chromium.ts";
import { createApp } from "../../src/http/app.ts";
import { createAppDeps } from "../../src/http/deps.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { createTenant, type TenantRecord } from "../../src/tenants/create-tenant.ts";
import { getBotConfig } from "../../src/chat/bot-settings.ts";
import { postOperatorMessage } from "../../src/chat/sessions.ts";
import { updateBotConfig } from "../../src/chat/bot-settings.ts";
import { answer, startFakeProvider } from "../assistant/fake-provider.ts";
import { addDocument } from "../../src/knowledge/documents.ts";

const POLL_MS = 400;
const HOST_ERROR = "host page bug";
/**
 * Checked in and shown in the README: what each widget state looks like, desktop and phone. Their
 * times differ on every run, so they are refreshed only when asked (PARLEY_SCREENSHOTS=1 npm test).
 */
const SCREENSHOTS =
  process.env.PARLEY_SCREENSHOTS === "1"
    ? join(import.meta.dir, "../../docs/screenshots")
    : join(tmpdir(), "parley-widget-screenshots");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Reaches into the widget's (open) shadow root; Playwright's CSS engine pierces it. */
const W = (selector: string) => `parley-widget >> css=${selector}`;

describeWithBrowser("the widget in headless Chromium (needs /usr/bin/chromium)", () => {
  // A real clock: the running server signs tokens and stamps messages while the browser waits.
  // Private targets allowed: the streaming test's fake model provider listens on loopback.
  // Every page here is a new visitor from 127.0.0.1: lift the per-address session cap (20 an
  // hour, tested in test/http/visitor-quota.test.ts), or the later tests would be refused.
  const deps = createAppDeps({
    ...buildDeps({ allowPrivateWebhooks: true, visitorSessionsPerHour: 10_000 }),
    clock: systemClock,
  });
  let parley: { stop(): unknown; server: { port?: number } | null };
  let parleyOrigin = "";
  let host: ReturnType<typeof Bun.serve>;
  let hostOrigin = "";
  let browser: Browser;
  let open: TenantRecord;
  let refusing: TenantRecord;
  const contexts: BrowserContext[] = [];

  /** The host site: another origin, a strict CSP, no inline script; the query picks the embed. */
  function hostPage(url: URL): Response {
    const tenant = url.searchParams.get("tenant") ?? open.id;
    const theme = url.searchParams.get("theme") ?? "auto";
    const before = url.searchParams.has("claim") ? `<script src="/claim.js"></script>` : "";
    const bug = url.searchParams.has("bug") ? `<script src="/bug.js"></script>` : "";
    // A careless host stylesheet: none of it may reach inside the widget.
    const leak = url.searchParams.has("leak") ? `<link rel="stylesheet" href="/leak.css">` : "";
    const color = url.searchParams.get("color");
    const colorAttribute = color ? ` data-color="${color}"` : "";
    const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Host</title>${before}${bug}${leak}</head>
<body><h1>A host site</h1><p>Some content.</p><input id="host-input">
<script src="${parleyOrigin}/widget.js" data-tenant="${tenant}" data-theme="${theme}" data-poll-ms="${POLL_MS}"${colorAttribute} async></script></body></html>`;
    return new Response(html, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": `default-src 'self'; script-src 'self' ${parleyOrigin}; connect-src ${parleyOrigin}`,
      },
    });
  }

  beforeAll(async () => {
    open = await createTenant(deps, { name: "Smile Dental", sector: "dental-clinic" });
    refusing = await createTenant(deps, { name: "Elsewhere", origins: ["https://only-here.example"] });
    parley = createApp(deps).listen({ port: 0, hostname: "127.0.0.1" });
    parleyOrigin = `http://127.0.0.1:${parley.server?.port}`;
    host = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(request) {
        const url = new URL(request.url);
        const js = (code: string) => new Response(code, { headers: { "content-type": "text/javascript" } });
        if (url.pathname === "/claim.js") return js(`window.Parley = { mine: true };`);
        if (url.pathname === "/bug.js") return js(`throw new Error(${JSON.stringify(HOST_ERROR)});`);
        if (url.pathname === "/leak.css")
          return new Response(
            "* { letter-spacing: 3px !important; font-size: 30px; font-family: serif; line-height: 3 }",
            { headers: { "content-type": "text/css" } },
          );
        return hostPage(url);
      },
    });
    hostOrigin = `http://127.0.0.1:${host.port}`;
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    host?.stop(true);
    await parley?.stop();
    deps.sqlite.close();
  });

  /** A fresh browser profile (empty localStorage) and a page whose uncaught errors are kept. */
  async function newPage(viewport = { width: 1024, height: 720 }, colorScheme: "light" | "dark" = "light") {
    const context = await browser.newContext({ viewport, colorScheme });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    return { page, errors, widgetErrors: () => errors.filter((message) => !message.includes(HOST_ERROR)) };
  }

  const goto = (page: Page, query = "") => page.goto(`${hostOrigin}/${query}`);

  /** docs/screenshots/widget-<state>-desktop.png and -phone.png: the same page at 1280×800 and 390×844. */
  async function snap(page: Page, state: string): Promise<void> {
    const before = page.viewportSize();
    for (const [label, size] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      await page.setViewportSize(size);
      await page.screenshot({ path: join(SCREENSHOTS, `widget-${state}-${label}.png`) });
    }
    if (before) await page.setViewportSize(before);
  }

  /** WCAG 2 contrast of two computed `rgb(…)` colours. */
  function contrast(foreground: string, background: string): number {
    const luminance = (css: string) => {
      const [r = 0, g = 0, b = 0] = (css.match(/[\d.]+/g) ?? []).map(Number).map((channel) => {
        const c = channel / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number];
    return (light + 0.05) / (dark + 0.05);
  }
  const colours = (page: Page, selector: string) =>
    page
      .locator(W(selector))
      .first()
      .evaluate((node) => ({
        color: getComputedStyle(node).color,
        background: getComputedStyle(node).backgroundColor,
      }));
  const bubbles = (page: Page, role: string) => page.locator(W(`.m.${role}`));
  const focusedClass = (page: Page) =>
    page.evaluate(() => document.querySelector("parley-widget")?.shadowRoot?.activeElement?.className ?? null);
  const stored = (page: Page, tenantId: string) =>
    page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "null"), `parley:${tenantId}`) as Promise<{
      sessionId: string;
      status: string;
      log: unknown[];
    } | null>;

  test("a visitor opens the chat, asks, uses quick replies, closes with Esc and resumes after a reload", async () => {
    const { page, widgetErrors } = await newPage();
    await goto(page, "?theme=light");
    const launcher = page.locator(W(".launcher"));
    await launcher.waitFor();
    expect(await page.locator(W(".panel")).isHidden()).toBe(true);

    await launcher.click();
    const greeting = (await getBotConfig(deps, open.id)).greeting;
    await expect(bubbles(page, "bot").first().textContent()).resolves.toBe(greeting);
    expect(await page.locator(W(".title")).textContent()).toBe("Ava");
    expect(await page.locator(W("[role=log]")).getAttribute("aria-live")).toBe("polite");
    expect(await focusedClass(page)).toBe(""); // the text input (no class) has focus

    await page.locator(W(".form input")).fill("hi");
    await page.keyboard.press("Enter");
    await bubbles(page, "bot").nth(1).waitFor();
    const quick = page.locator(W(".quick button"));
    expect(await quick.allTextContents()).toContain("What are your opening hours?");

    await quick.filter({ hasText: "What are your opening hours?" }).click();
    await bubbles(page, "bot").nth(2).waitFor();
    expect(await bubbles(page, "visitor").allTextContents()).toEqual(["hi", "What are your opening hours?"]);
    expect((await bubbles(page, "bot").nth(2).textContent())?.length).toBeGreaterThan(10);
    await page.screenshot({ path: "/tmp/parley-widget-light.png" });

    await page.keyboard.press("Escape");
    expect(await page.locator(W(".panel")).isHidden()).toBe(true);
    expect(await focusedClass(page)).toBe("launcher");

    const before = await page.locator(W(".m")).allTextContents();
    await page.reload();
    await launcher.waitFor();
    expect(await page.locator(W(".m")).allTextContents()).toEqual(before);
    await launcher.click();
    await page.locator(W(".form input")).fill("Do you take insurance?");
    await page.keyboard.press("Enter");
    await bubbles(page, "bot").nth(3).waitFor();
    const state = await stored(page, open.id);
    expect(state?.log.length).toBe(before.length + 2);
    expect(widgetErrors()).toEqual([]);

    // The widget reported its telemetry for this session (best effort, so give it a moment).
    const reported = async () =>
      deps.sqlite
        .prepare<{ name: string; n: number }, [string]>(
          "SELECT name, count(*) AS n FROM analytics_events WHERE session_id = ? GROUP BY name",
        )
        .all(state?.sessionId ?? "");
    for (let i = 0; i < 50 && (await reported()).length < 5; i++) await Bun.sleep(20);
    const counts = Object.fromEntries((await reported()).map((row) => [row.name, row.n]));
    expect(counts).toMatchObject({ widget_opened: 2, widget_closed: 1, message_sent: 3, quick_reply_clicked: 1 });
    expect(counts.widget_loaded).toBeGreaterThanOrEqual(1);
  });

  test("after a hand-off, operator replies arrive by polling, with an unread badge while closed", async () => {
    const { page, widgetErrors } = await newPage();
    // Whatever the hour this runs at, the team counts as in (the away line is tested in front-desk.test.ts).
    await page.route("**/api/v1/widget/config?**", async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), back_at: null } });
    });
    await goto(page);
    await page.locator(W(".launcher")).click();
    await page.locator(W(".form input")).fill("can I talk to a human");
    await page.keyboard.press("Enter");
    await bubbles(page, "bot").nth(1).waitFor();
    const state = await stored(page, open.id);
    expect(state?.status).toBe("handoff");
    // The header says a person has been asked to join, until one answers.
    expect(await page.locator(W(".sub")).textContent()).toBe("Waiting for a person to join…");
    expect(await page.locator(W(".sub")).getAttribute("role")).toBe("status");
    await snap(page, "handoff-waiting");

    await postOperatorMessage(deps, open.id, state!.sessionId, { text: "Hi, this is Sam from the front desk." });
    await page.locator(W(".m.operator")).filter({ hasText: "Sam from the front desk" }).waitFor({ timeout: 5000 });
    expect(await page.locator(W(".sub")).textContent()).toBe("You're chatting with Agent");
    await snap(page, "operator-reply");

    // An operator with a display name is named on the bubble and in the header; the earlier
    // reply (sent without one) keeps "Agent".
    const sam = await createUser(deps, {
      email: "sam@open.test",
      tenantId: open.id,
      role: "agent",
      password: TEST_PASSWORD,
      displayName: "Sam",
    });
    await page.keyboard.press("Escape");
    await postOperatorMessage(deps, open.id, state!.sessionId, { text: "Are you still there?", authorId: sam.userId });
    // Closed panels poll 5× slower: POLL_MS * 5.
    await page
      .locator(W(".badge"))
      .filter({ hasText: "1" })
      .waitFor({ timeout: POLL_MS * 5 * 3 });
    await page.locator(W(".launcher")).click();
    expect(await page.locator(W(".badge")).isHidden()).toBe(true);
    expect(await page.locator(W(".m.operator")).allTextContents()).toEqual([
      "AgentHi, this is Sam from the front desk.",
      "SamAre you still there?",
    ]);
    expect(await page.locator(W(".m.operator .who")).allTextContents()).toEqual(["Agent", "Sam"]);
    expect(await page.locator(W(".sub")).textContent()).toBe("You're chatting with Sam");
    expect(widgetErrors()).toEqual([]);
  });

  test("window.Parley is left alone when the host owns it, and a host page error does not break the widget", async () => {
    const { page, errors, widgetErrors } = await newPage();
    await goto(page, "?claim&bug");
    await page.locator(W(".launcher")).click();
    await bubbles(page, "bot").first().waitFor();
    expect(await page.evaluate(() => JSON.stringify((window as unknown as { Parley: unknown }).Parley))).toBe(
      '{"mine":true}',
    );
    expect(errors.some((message) => message.includes(HOST_ERROR))).toBe(true);
    expect(widgetErrors()).toEqual([]);
  });

  test("window.Parley opens, closes and toggles the panel when the name is free", async () => {
    const { page, widgetErrors } = await newPage();
    await goto(page);
    await page.locator(W(".launcher")).waitFor();
    const panelHidden = () => page.locator(W(".panel")).isHidden();
    type Api = { Parley: { open(): void; close(): void; toggle(): void } };
    await page.evaluate(() => (window as unknown as Api).Parley.open());
    expect(await panelHidden()).toBe(false);
    await page.evaluate(() => (window as unknown as Api).Parley.toggle());
    expect(await panelHidden()).toBe(true);
    await page.evaluate(() => (window as unknown as Api).Parley.toggle());
    await page.evaluate(() => (window as unknown as Api).Parley.close());
    expect(await panelHidden()).toBe(true);
    expect(widgetErrors()).toEqual([]);
  });

  test("under 640 px the open panel fills the screen (dark theme)", async () => {
    const { page, widgetErrors } = await newPage({ width: 375, height: 740 }, "dark");
    await goto(page);
    await page.locator(W(".launcher")).click();
    await bubbles(page, "bot").first().waitFor();
    expect(await page.locator(W(".panel")).boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 740 });
    const background = await page.locator(W(".panel")).evaluate((panel) => getComputedStyle(panel).backgroundColor);
    expect(background).toBe("rgb(28, 31, 36)");
    await page.screenshot({ path: "/tmp/parley-widget-dark-375.png" });
    expect(widgetErrors()).toEqual([]);
  });

  test("a tenant whose allowed origins refuse the host shows no launcher at all, and one console warning", async () => {
    const { page, widgetErrors } = await newPage();
    const warnings: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "warning") warnings.push(message.text());
    });
    const answered = page.waitForResponse((response) => response.url().includes("/api/v1/widget/config"));
    await goto(page, `?tenant=${refusing.id}&theme=dark`);
    expect((await answered).status()).toBe(403);
    await page.waitForFunction(() => !document.querySelector("parley-widget"));
    expect(await page.locator(W(".launcher")).count()).toBe(0);
    expect(warnings.filter((text) => text.startsWith("[parley]"))).toEqual([
      expect.stringContaining("allowed origins"),
    ]);
    // No session was started for a page that may not chat.
    expect(
      deps.sqlite
        .prepare<{ n: number }, [string]>("SELECT count(*) AS n FROM chat_sessions WHERE tenant_id = ?")
        .get(refusing.id)?.n,
    ).toBe(0);
    expect(widgetErrors()).toEqual([]);
  });

  test("with a model provider the reply streams: the bubble grows while the model writes, then holds the stored reply", async () => {
    const provider = startFakeProvider();
    try {
      const streaming = await createTenant(deps, { name: "Streamy Dental", sector: "dental-clinic" });
      await updateBotConfig(deps, streaming.id, { ai: { base_url: provider.url, model: "fake-model" } });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const text = "Whitening costs 249 dollars per session.";
      provider.script(answer(text, { gate }));
      const { page, widgetErrors } = await newPage();
      await goto(page, `?tenant=${streaming.id}`);
      await page.locator(W(".launcher")).click();
      await bubbles(page, "bot").first().waitFor();
      await page.locator(W(".form input")).fill("How much is whitening?");
      await page.keyboard.press("Enter");
      const live = bubbles(page, "bot").nth(1);
      await live.waitFor();
      // The provider is held after its first piece: the bubble shows the start, not the end.
      await expect(live.textContent()).resolves.toBe(text.slice(0, 6));
      release();
      await page.waitForFunction(
        ([selector, expected]) =>
          document.querySelector("parley-widget")?.shadowRoot?.querySelectorAll(selector)[1]?.textContent === expected,
        [".m.bot", text] as const,
      );
      expect(await bubbles(page, "bot").count()).toBe(2);
      expect(provider.requests[0]?.body.stream).toBe(true);
      expect(widgetErrors()).toEqual([]);
    } finally {
      provider.stop();
    }
  });

  test("an answer's cited sources show under it: a link for an http(s) URL, plain text otherwise", async () => {
    const provider = startFakeProvider();
    try {
      const cited = await createTenant(deps, { name: "Cited Dental", sector: "dental-clinic" });
      await updateBotConfig(deps, cited.id, {
        ai: { base_url: provider.url, model: "fake-model" },
        faq: [
          {
            id: "crowns",
            question: "Can I pay for a porcelain crown monthly?",
            answer: "Yes: a porcelain crown can be paid monthly.",
          },
        ],
      });
      await addDocument(
        deps,
        cited.id,
        {
          title: "Payment plans",
          content: "# Porcelain crown\nA porcelain crown costs 1,100 dollars; you can pay for it monthly.",
          format: "markdown",
          sourceUrl: "https://smile.example/pay",
        },
        null,
      );
      provider.rewrites("Can I pay for a porcelain crown monthly?");
      provider.script(answer("A crown costs 1,100 dollars [1] and can be paid monthly [2]."));
      const { page, widgetErrors } = await newPage();
      await goto(page, `?tenant=${cited.id}`);
      await page.locator(W(".launcher")).click();
      await bubbles(page, "bot").first().waitFor();
      await page.locator(W(".form input")).fill("porcelain crown, can I pay monthly?");
      await page.keyboard.press("Enter");
      await page.locator(W(".m.bot .src")).waitFor();
      const reply = bubbles(page, "bot").nth(1);
      await expect(reply.evaluate((node) => node.firstChild?.textContent)).resolves.toBe(
        "A crown costs 1,100 dollars and can be paid monthly.",
      );
      const items = await page
        .locator(W(".m.bot .src > *"))
        .evaluateAll((nodes) =>
          nodes.map((node) => [node.tagName, node.textContent, node.getAttribute("href"), node.getAttribute("rel")]),
        );
      expect(items).toContainEqual(["A", "Payment plans", "https://smile.example/pay", "noopener noreferrer"]);
      expect(items).toContainEqual(["SPAN", "Can I pay for a porcelain crown monthly?", null, null]);
      expect(widgetErrors()).toEqual([]);
    } finally {
      provider.stop();
    }
  });

  test("the greeting offers starter quick replies from the sector template", async () => {
    const { page, widgetErrors } = await newPage(DESKTOP);
    await goto(page, "?theme=light");
    await page.locator(W(".launcher")).click();
    await bubbles(page, "bot").first().waitFor();
    const starters = await page.locator(W(".quick button")).allTextContents();
    expect(starters).toContain("What are your opening hours?");
    expect(starters).toContain("Talk to a person");
    await snap(page, "greeting");
    await page.locator(W(".quick button")).filter({ hasText: "What are your opening hours?" }).click();
    await bubbles(page, "bot").nth(1).waitFor();
    expect(await bubbles(page, "bot").nth(1).textContent()).toMatch(/Monday/);
    await snap(page, "conversation");
    expect(widgetErrors()).toEqual([]);
  });

  test("a message that fails to send (500, 429, offline) is marked with Retry, survives a reload, and Retry delivers it", async () => {
    const { page, widgetErrors } = await newPage(DESKTOP);
    await goto(page, "?theme=light");
    await page.locator(W(".launcher")).click();
    await bubbles(page, "bot").first().waitFor();
    let refused = 0;
    await page.route("**/api/v1/chatbot/message", (route) => {
      refused++;
      const cors = { "access-control-allow-origin": hostOrigin, "access-control-expose-headers": "retry-after" };
      if (refused === 1)
        return route.fulfill({
          status: 500,
          contentType: "application/json",
          headers: cors,
          body: '{"error":"internal","message":"boom"}',
        });
      if (refused === 2)
        return route.fulfill({
          status: 429,
          contentType: "application/json",
          headers: { ...cors, "retry-after": "5" },
          body: '{"error":"rate_limited","message":"slow down"}',
        });
      return route.abort("internetdisconnected");
    });
    await page.locator(W(".form input")).fill("Do you do whitening?");
    await page.keyboard.press("Enter");
    const failed = page.locator(W(".m.visitor.failed"));
    await failed.waitFor();
    expect(await failed.locator("css=.fail").textContent()).toBe("Not sent.");
    expect(await page.locator(W(".m.bot")).count()).toBe(1);
    expect(await page.locator(W(".form button")).isDisabled()).toBe(false);

    // Retry into a 429, then while offline: still failed each time, and the widget says why.
    await failed.locator("css=.retry").click();
    await page.locator(W(".m.notice")).filter({ hasText: "sending messages too fast" }).waitFor();
    await failed.locator("css=.retry").click();
    await page.locator(W(".m.notice")).filter({ hasText: "isn't available right now" }).waitFor();
    expect(refused).toBe(3);
    await failed.waitFor();
    await snap(page, "failed");

    await page.reload();
    await page.locator(W(".launcher")).click();
    expect((await stored(page, open.id))?.log).toContainEqual(
      expect.objectContaining({ role: "visitor", text: "Do you do whitening?", failed: true }),
    );
    await page.unroute("**/api/v1/chatbot/message");
    await page.locator(W(".m.visitor.failed .retry")).click();
    await bubbles(page, "bot").nth(1).waitFor();
    expect(await page.locator(W(".m.visitor.failed")).count()).toBe(0);
    expect(await bubbles(page, "visitor").allTextContents()).toEqual(["Do you do whitening?"]);
    const state = await stored(page, open.id);
    expect(state?.log).toContainEqual(
      expect.objectContaining({ role: "visitor", text: "Do you do whitening?", id: expect.stringMatching(/^msg_/) }),
    );
    expect(JSON.stringify(state?.log)).not.toContain('"failed":true');
    expect(widgetErrors()).toEqual([]);
  });

  test("a message typed while the session is still starting is sent once it starts, after the greeting", async () => {
    const { page, widgetErrors } = await newPage(DESKTOP);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/v1/widget/session", async (route) => {
      await gate;
      await route.continue();
    });
    await goto(page, "?theme=light");
    await page.locator(W(".launcher")).click();
    await page.locator(W(".form input")).fill("What are your opening hours?");
    await page.keyboard.press("Enter");
    await bubbles(page, "visitor").first().waitFor();
    release();
    await bubbles(page, "bot").nth(1).waitFor();
    const log = await page.locator(W(".m")).evaluateAll((nodes) => nodes.map((node) => node.className));
    expect(log).toEqual(["m bot", "m visitor", "m bot"]);
    expect(await bubbles(page, "bot").nth(1).textContent()).toMatch(/Monday/);
    expect(widgetErrors()).toEqual([]);
  });

  for (const [label, color] of [
    ["light (yellow)", "#ffd400"],
    ["dark (navy)", "#1e3a8a"],
  ] as const) {
    test(`text on a ${label} data-color reaches WCAG AA contrast (4.5:1) in the header, bubbles and send button`, async () => {
      const { page, widgetErrors } = await newPage(DESKTOP);
      await goto(page, `?theme=light&color=${encodeURIComponent(color)}`);
      await page.locator(W(".launcher")).click();
      await page.locator(W(".form input")).fill("hello");
      await page.keyboard.press("Enter");
      await bubbles(page, "bot").nth(1).waitFor();
      for (const selector of [".head", ".m.visitor", ".form button", ".launcher"]) {
        const { color: fg, background } = await colours(page, selector);
        expect({ selector, ratio: contrast(fg, background) >= 4.5 }).toEqual({ selector, ratio: true });
      }
      const quick = await colours(page, ".quick button");
      expect(contrast(quick.color, quick.background)).toBeGreaterThanOrEqual(4.5);
      if (color === "#ffd400") await snap(page, "yellow-accent");
      expect(widgetErrors()).toEqual([]);
    });
  }

  test("on a 390 px phone the input is 16 px (no iOS zoom), touch targets are 44 px, and host CSS does not leak in", async () => {
    const { page, widgetErrors } = await newPage(PHONE);
    await goto(page, "?leak");
    await page.locator(W(".launcher")).click();
    await bubbles(page, "bot").first().waitFor();
    const input = page.locator(W(".form input"));
    expect(await input.evaluate((node) => getComputedStyle(node).fontSize)).toBe("16px");
    for (const selector of [".launcher", ".x", ".form button", ".form input", ".quick button"]) {
      const box = await page.locator(W(selector)).first().boundingBox();
      expect({ selector, tall: (box?.height ?? 0) >= 44, wide: (box?.width ?? 0) >= 44 }).toEqual({
        selector,
        tall: true,
        wide: true,
      });
    }
    const bubble = await bubbles(page, "bot")
      .first()
      .evaluate((node) => ({
        spacing: getComputedStyle(node).letterSpacing,
        size: getComputedStyle(node).fontSize,
        family: getComputedStyle(node).fontFamily,
      }));
    expect(bubble.spacing).toBe("normal");
    expect(bubble.size).toBe("14px");
    expect(bubble.family).toContain("system-ui");
    // The host's own page did get the stylesheet (so the check above means something).
    expect(await page.locator("h1").evaluate((node) => getComputedStyle(node).letterSpacing)).toBe("3px");
    expect(widgetErrors()).toEqual([]);
  });
});
