import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { buildDeps } from "../helpers.ts";
import { describeWithBrowser, serveAppToBrowser, trackPageErrors } from "./chromium.ts";
import { createAppDeps } from "../../src/http/deps.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { handleMessage } from "../../src/chat/handle-message.ts";
import { requireTenant } from "../../src/tenants/find-tenant.ts";
import { createTestCase } from "../../src/test-set/cases.ts";
import { getBotConfig } from "../../src/chat/bot-settings.ts";

describeWithBrowser("the admin page's Test and Unanswered tabs in headless Chromium (needs /usr/bin/chromium)", () => {
  const deps = createAppDeps({ ...buildDeps({ allowPrivateWebhooks: true }), clock: systemClock });
  const served = serveAppToBrowser(deps);

  async function newTenant(name: string) {
    const tenant = await createTenant(deps, { name, sector: "dental-clinic" });
    return { tenantId: tenant.id, key: (await createApiKey(deps, { tenantId: tenant.id, name: "admin page" })).key };
  }

  async function openTab(key: string, tab: string): Promise<{ page: Page; errors: string[] }> {
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const errors = trackPageErrors(page);
    await page.goto(`${served.origin}/admin`);
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("tab", { name: tab, exact: true }).click();
    return { page, errors };
  }

  test("Test: an owner adds cases, runs them, and sees each verdict with the reply and the failed check", async () => {
    const { key } = await newTenant("Bench Clinic");
    const { page, errors } = await openTab(key, "Test");
    const panel = page.getByRole("tabpanel", { name: "Test" });
    await panel.getByText("No test cases yet").waitFor();

    await panel.getByLabel("Visitor asks").fill("What are your opening hours?");
    await panel.getByLabel("The answer contains").fill("Monday");
    await panel.getByRole("button", { name: "Add case" }).click();
    await panel.getByText("Case added.").waitFor();
    await panel.getByLabel("Visitor asks").fill("Can I talk to a human please?");
    await panel.getByLabel("Action").selectOption("none");
    await panel.getByRole("button", { name: "Add case" }).click();
    await panel.getByRole("cell", { name: "action: none" }).waitFor();

    await panel.getByRole("button", { name: "Run all cases" }).click();
    await panel.getByText("Last run: 1 passed, 1 failed.").waitFor();
    const hours = panel.getByRole("row").filter({ hasText: "What are your opening hours?" });
    expect(await hours.getByRole("cell").nth(2).textContent()).toBe("Pass");
    expect(await hours.getByRole("cell").nth(4).textContent()).toContain("Monday");
    const human = panel.getByRole("row").filter({ hasText: "Can I talk to a human please?" });
    expect(await human.getByRole("cell").nth(2).textContent()).toBe("FAIL");
    expect(await human.getByRole("cell").nth(6).textContent()).toBe("action “none”");
    expect(errors).toEqual([]);
  });

  test("Unanswered: a question the bot could not answer is answered from the tab, and the bot then knows it", async () => {
    const { tenantId, key } = await newTenant("Pet Clinic");
    const tenant = await requireTenant(deps, tenantId);
    await handleMessage(deps, { tenant, text: "Do you accept pets in the waiting room?", channel: "api" });
    await handleMessage(deps, { tenant, text: "Are pets allowed in the waiting room?", channel: "api" });

    const { page, errors } = await openTab(key, "Unanswered");
    const panel = page.getByRole("tabpanel", { name: "Unanswered" });
    const row = panel.getByRole("row").filter({ hasText: "Are pets allowed in the waiting room?" }).first();
    await row.waitFor();
    expect(await row.getByRole("cell").nth(1).textContent()).toBe("2");
    await row
      .getByLabel("Answer to “Are pets allowed in the waiting room?”")
      .fill("Pets are welcome in the waiting room.");
    await row.getByRole("button", { name: "Add FAQ answer: Are pets allowed in the waiting room?" }).click();
    await panel.getByText("The FAQ now answers").waitFor();
    await panel.getByText("Nothing unanswered").waitFor();

    const again = await handleMessage(deps, {
      tenant: await requireTenant(deps, tenantId),
      text: "Are pets allowed in the waiting room?",
      channel: "api",
    });
    expect(again.reply?.text).toContain("Pets are welcome in the waiting room.");
    expect(errors).toEqual([]);
  });

  test('AI settings that would break a case are tried first and saved only after "save anyway"', async () => {
    const { tenantId, key } = await newTenant("Careful Clinic");
    await createTestCase(deps, tenantId, {
      question: "What are your opening hours?",
      expect: { contains: ["Monday"] },
    });
    const { page, errors } = await openTab(key, "AI");
    const panel = page.getByRole("tabpanel", { name: "AI" });
    // A provider nobody listens on: with it the model would answer, fail, and fail the case.
    await panel.getByLabel("Enabled").check();
    await panel.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
    await panel.getByLabel("Model", { exact: true }).fill("absent-model");
    await panel.getByRole("button", { name: "Save AI settings" }).click();
    await panel.getByText("1 case of 1 pass now, 1 would fail after this change — save anyway?").waitFor();
    expect((await getBotConfig(deps, tenantId)).ai?.enabled ?? false).toBe(false);

    await panel.getByRole("button", { name: "Save anyway" }).click();
    await panel.getByText("AI settings saved.").waitFor();
    expect((await getBotConfig(deps, tenantId)).ai).toMatchObject({ enabled: true, model: "absent-model" });
    expect(await panel.getByRole("button", { name: "Save AI settings" }).count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
