import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { buildDeps, TEST_PASSWORD } from "../helpers.ts";
import { describeWithBrowser, launchChromium } from "./chromium.ts";
import { startDeskSite, type DeskSite } from "./desk-site.ts";
import { createAppDeps } from "../../src/http/deps.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { DeliveryScheduler } from "../../src/scheduler/scheduler.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { createCannedReply } from "../../src/frontdesk/canned-replies.ts";

// Polling so slow it cannot be what delivers anything here: only the live streams can.
const WIDGET_POLL_MS = 600_000;
/** Well under the inbox's 10 s fallback refresh and the widget's poll. */
const LIVE_WITHIN_MS = 4_000;

const W = (selector: string) => `parley-widget >> css=${selector}`;

describeWithBrowser("the front desk: a visitor and an agent in two browsers (needs /usr/bin/chromium)", () => {
  const deps = createAppDeps({
    ...buildDeps({ visitorSessionsPerHour: 10_000, allowPrivateWebhooks: true }),
    clock: systemClock,
  });
  const scheduler = new DeliveryScheduler(deps);
  let receiver: ReturnType<typeof Bun.serve>;
  const received: Array<{ event: string; data: Record<string, unknown> }> = [];
  let site: DeskSite;
  let browser: Browser;

  beforeAll(async () => {
    site = await startDeskSite(
      deps,
      { name: "Front Desk Dental", email: "sam@desk.example", role: "agent", displayName: "Sam" },
      () => `data-poll-ms="${WIDGET_POLL_MS}"`,
    );
    receiver = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(request) {
        received.push((await request.json()) as (typeof received)[number]);
        return new Response("ok");
      },
    });
    await createUser(deps, {
      email: "kim@desk.example",
      tenantId: site.tenant.id,
      role: "agent",
      password: TEST_PASSWORD,
      displayName: "Kim",
    });
    await createCannedReply(deps, site.tenant.id, {
      shortcut: "hours",
      text: "We are open Monday to Friday, 9:00 to 17:00.",
    });
    await createRule(deps, site.tenant.id, {
      name: "ratings",
      event: "conversation.rated",
      url: `http://127.0.0.1:${receiver.port}/hook`,
      secret: "receiver-secret-123",
      active: true,
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.stop();
    receiver?.stop(true);
    await scheduler.stop();
    deps.sqlite.close();
  });

  async function newPage(): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console: ${message.text()}`);
    });
    return { page, errors };
  }

  test("the hand-off appears in the agent's inbox without a reload, and the reply in the widget with the agent's name", async () => {
    const operator = await newPage();
    await operator.page.goto(`${site.origin}/admin`);
    await operator.page.locator("#signin-email").fill("sam@desk.example");
    await operator.page.locator("#signin-password").fill(TEST_PASSWORD);
    await operator.page.getByRole("button", { name: "Sign in" }).click();
    await operator.page.getByRole("tablist").waitFor();
    // An agent sees the inbox, knowledge search and their profile; nothing else.
    const visibleTabs = await operator.page.locator("[role=tab]:not([hidden])").allTextContents();
    expect(visibleTabs).toEqual(["Hand-off inbox", "Knowledge", "My profile"]);
    await operator.page.locator("#inbox-live").filter({ hasText: "Live" }).waitFor();
    await operator.page.locator("#inbox-rows").filter({ hasText: "No chat is waiting" }).waitFor();

    const visitor = await newPage();
    await visitor.page.goto(site.hostUrl);
    await visitor.page.locator(W(".launcher")).click();
    await visitor.page.locator(W(".form input")).fill("Can I talk to a human please?");
    await visitor.page.keyboard.press("Enter");

    const row = operator.page
      .locator("#inbox-rows tr")
      .filter({ has: operator.page.getByRole("button", { name: /^Open the chat with ses_/ }) });
    await row.waitFor({ timeout: LIVE_WITHIN_MS });
    expect(await operator.page.title()).toBe("(1) Parley admin");
    await row.getByRole("button", { name: /^Open / }).click();
    // The agent opened the chat: the visitor sees "Seen" under their message.
    const asked = visitor.page.locator(W(".m.visitor")).filter({ hasText: "Can I talk to a human" });
    await visitor.page
      .locator(W(".m.visitor + .seen"))
      .filter({ hasText: "Seen" })
      .waitFor({ timeout: LIVE_WITHIN_MS });
    expect(await asked.evaluate((node) => node.nextElementSibling?.textContent)).toBe("Seen");
    await operator.page.getByLabel("Reply to the visitor").fill("Hi, Sam here. How can I help?");
    await visitor.page.locator(W(".typing")).waitFor({ state: "visible", timeout: LIVE_WITHIN_MS });
    expect(await visitor.page.locator(W(".typing")).getAttribute("aria-label")).toContain("Sam");
    await operator.page.getByRole("button", { name: "Send reply" }).click();

    const reply = visitor.page.locator(W(".m.operator")).filter({ hasText: "Sam here" });
    await reply.waitFor({ timeout: LIVE_WITHIN_MS });
    expect(await reply.locator(".who").textContent()).toBe("Sam");
    // The initial avatar, and when: relative on the bubble, the full time on hover.
    expect(await reply.locator(".who").getAttribute("data-initial")).toBe("S");
    expect(await reply.getAttribute("data-when")).toMatch(/now|this minute|minute/);
    expect(Date.parse(new Date(Number(await reply.getAttribute("data-at"))).toISOString())).toBeGreaterThan(
      Date.now() - 60_000,
    );
    expect(await reply.getAttribute("title")).toBeTruthy();

    // The visitor answers; the agent's open transcript shows it without a click.
    await visitor.page.locator(W(".form input")).fill("My crown came off");
    await visitor.page.keyboard.press("Enter");
    await operator.page
      .locator("#convo-log li.visitor")
      .filter({ hasText: "My crown came off" })
      .waitFor({ timeout: LIVE_WITHIN_MS });
    // The open transcript read it, so "Seen" moves under the newest message.
    const crown = visitor.page.locator(W(".m.visitor")).filter({ hasText: "My crown came off" });
    const seenUnderNewest = () => {
      const bubbles = document.querySelector("parley-widget")?.shadowRoot?.querySelectorAll(".m.visitor");
      return bubbles?.[bubbles.length - 1]?.nextElementSibling?.className === "seen";
    };
    await visitor.page.waitForFunction(seenUnderNewest, undefined, { timeout: LIVE_WITHIN_MS });
    expect(await crown.evaluate((node) => node.nextElementSibling?.textContent)).toBe("Seen");
    expect(await visitor.page.locator(W(".seen")).count()).toBe(1);

    await operator.page.getByRole("button", { name: "Close chat" }).click();
    await operator.page
      .locator("#inbox-rows")
      .filter({ hasText: "No chat is waiting" })
      .waitFor({ timeout: LIVE_WITHIN_MS });
    expect(await operator.page.title()).toBe("Parley admin");

    // The closed chat asks the visitor for a rating, by keyboard: arrows pick the score.
    const rating = visitor.page.locator(W("form.rate"));
    await rating.waitFor({ timeout: LIVE_WITHIN_MS });
    await rating.getByRole("radio", { name: "1 out of 5" }).focus();
    for (let i = 0; i < 3; i++) await visitor.page.keyboard.press("ArrowRight");
    expect(await rating.getByRole("radio", { name: "4 out of 5" }).isChecked()).toBe(true);
    await visitor.page.keyboard.press("Tab");
    await visitor.page.keyboard.type("Sam fixed it fast");
    await visitor.page.keyboard.press("Tab");
    await visitor.page.keyboard.press("Enter");
    await rating.filter({ hasText: "Thank you for your feedback!" }).waitFor({ timeout: LIVE_WITHIN_MS });
    // conversation.rated reaches a webhook receiver on this machine.
    await scheduler.runOnce();
    expect(received.map((body) => body.event)).toEqual(["conversation.rated"]);
    expect(received[0]?.data).toMatchObject({ score: 4, comment: "Sam fixed it fast" });
    expect([...operator.errors, ...visitor.errors]).toEqual([]);
  });

  /** An agent signed in to /admin, the inbox live. */
  async function signedIn(email: string) {
    const operator = await newPage();
    await operator.page.goto(`${site.origin}/admin`);
    await operator.page.locator("#signin-email").fill(email);
    await operator.page.locator("#signin-password").fill(TEST_PASSWORD);
    await operator.page.getByRole("button", { name: "Sign in" }).click();
    await operator.page.getByRole("tablist").waitFor();
    await operator.page.locator("#inbox-live").filter({ hasText: "Live" }).waitFor();
    return operator;
  }

  async function handOff(text: string) {
    const visitor = await newPage();
    await visitor.page.goto(site.hostUrl);
    await visitor.page.locator(W(".launcher")).click();
    await visitor.page.locator(W(".form input")).fill(text);
    await visitor.page.keyboard.press("Enter");
    return visitor;
  }

  test("an agent takes the chat and the other agent sees who has it; / in the reply box inserts a canned reply", async () => {
    const sam = await signedIn("sam@desk.example");
    const kim = await signedIn("kim@desk.example");
    const visitor = await handOff("Can I talk to a human about my bill please?");
    // The only chat waiting (the first test closed its own).
    const rowOf = (operator: { page: Page }) =>
      operator.page
        .locator("#inbox-rows tr")
        .filter({ has: operator.page.getByRole("button", { name: /^Open the chat/ }) });
    await rowOf(sam).waitFor({ timeout: LIVE_WITHIN_MS });
    await rowOf(kim).waitFor({ timeout: LIVE_WITHIN_MS });
    // Nobody opened it yet: one unread message for each of them.
    expect(await rowOf(kim).locator(".badge").textContent()).toContain("1");

    await rowOf(sam)
      .getByRole("button", { name: /^Take the chat/ })
      .click();
    await rowOf(sam).filter({ hasText: "you" }).waitFor({ timeout: LIVE_WITHIN_MS });
    // Kim's inbox says so without a reload, and offers no Take.
    await rowOf(kim).filter({ hasText: "Sam" }).waitFor({ timeout: LIVE_WITHIN_MS });
    expect(
      await rowOf(kim)
        .getByRole("button", { name: /^Take the chat/ })
        .count(),
    ).toBe(0);

    await rowOf(sam)
      .getByRole("button", { name: /^Open / })
      .click();
    await sam.page.locator("#convo-owner").filter({ hasText: "Who has it: you." }).waitFor();
    expect(await sam.page.locator("#convo-facts").textContent()).toContain(site.hostUrl);
    const box = sam.page.getByLabel(/Reply to the visitor/);
    await box.pressSequentially("/hou");
    await sam.page.getByRole("option", { name: /\/hours/ }).waitFor();
    await box.press("Enter");
    expect(await box.inputValue()).toBe("We are open Monday to Friday, 9:00 to 17:00.");
    await sam.page.getByRole("button", { name: "Send reply" }).click();
    await visitor.page
      .locator(W(".m.operator"))
      .filter({ hasText: "We are open Monday to Friday" })
      .waitFor({ timeout: LIVE_WITHIN_MS });
    // Opened: nothing unread for Sam, still one for Kim.
    await rowOf(sam).locator(".badge").waitFor({ state: "detached", timeout: LIVE_WITHIN_MS });
    expect(await rowOf(kim).locator(".badge").textContent()).toContain("1");
    await sam.page.getByRole("button", { name: "Close chat" }).click();
    expect([...sam.errors, ...kim.errors, ...visitor.errors]).toEqual([]);
  });

  test("out of hours, the widget's waiting line says when the team is back, in the visitor's time", async () => {
    const visitor = await newPage();
    // The server's hours are tested with a fake clock (test/frontdesk/widget-hours.test.ts); here the answer is fixed.
    const backAt = new Date(Date.now() + 3 * 86_400_000);
    await visitor.page.route("**/api/v1/widget/config?**", async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), back_at: backAt.toISOString() } });
    });
    await visitor.page.goto(site.hostUrl);
    await visitor.page.locator(W(".launcher")).click();
    await visitor.page.locator(W(".form input")).fill("Can I talk to a human please?");
    await visitor.page.keyboard.press("Enter");
    const weekday = await visitor.page.evaluate(
      (iso) => new Date(iso).toLocaleString(undefined, { weekday: "long" }),
      backAt.toISOString(),
    );
    await visitor.page
      .locator(W(".sub"))
      .filter({ hasText: "Our team is away. We're back" })
      .waitFor({ timeout: LIVE_WITHIN_MS });
    expect(await visitor.page.locator(W(".sub")).textContent()).toContain(weekday);
    expect(visitor.errors).toEqual([]);
  });

  test("inside hours, the waiting line gives the team's usual reply time", async () => {
    const visitor = await newPage();
    // The server's median is tested with a fake clock (test/frontdesk/visitor-desk.test.ts); here the answer is fixed.
    await visitor.page.route("**/api/v1/widget/config?**", async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), back_at: null, expected_reply_s: 230 } });
    });
    await visitor.page.goto(site.hostUrl);
    await visitor.page.locator(W(".launcher")).click();
    await visitor.page.locator(W(".form input")).fill("Can I talk to a human please?");
    await visitor.page.keyboard.press("Enter");
    await visitor.page
      .locator(W(".sub"))
      .filter({ hasText: "A person will join shortly, usually within 4 minutes." })
      .waitFor({ timeout: LIVE_WITHIN_MS });
    expect(visitor.errors).toEqual([]);
  });
});
