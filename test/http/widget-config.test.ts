import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, testSql, type TestContext } from "../helpers.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { getBotConfig, updateBotConfig } from "../../src/chat/bot-settings.ts";
import { validateBotConfigPatch } from "../../src/chat/engine/bot-config-patch.ts";
import { AppError } from "../../src/lib/app-error.ts";

let context: TestContext;
afterEach(() => context?.close());

const SITE = "https://shop.example";
const sessionCount = async (tenantId: string) =>
  (
    await (
      await testSql(context.deps)
    ).get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM chat_sessions WHERE tenant_id = ?", tenantId)
  )?.n;

describe("GET /api/v1/widget/config (asked before the launcher is drawn)", () => {
  test("an allowed origin gets the bot's name, greeting and starter quick replies, readable cross-origin, and no session is started", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Smile", sector: "dental-clinic", origins: [SITE] });
    const response = await context.request("GET", `/api/v1/widget/config?tenant_id=${tenant.id}`, {
      headers: { origin: SITE },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(SITE);
    const body = (await response.json()) as { bot_name: string; greeting: string; quick_replies: string[] };
    expect(body.bot_name).toBe("Ava");
    expect(body.greeting).toBe((await getBotConfig(context.deps, tenant.id)).greeting);
    expect(body.quick_replies).toEqual([
      "What are your opening hours?",
      "How much does a cleaning cost?",
      "Which dental insurance plans do you accept?",
      "Book an appointment",
      "Talk to a person",
    ]);
    expect(await sessionCount(tenant.id)).toBe(0);
  });

  test("a refused origin gets 403 origin_not_allowed, which the widget can read", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Smile", origins: [SITE] });
    const response = await context.request("GET", `/api/v1/widget/config?tenant_id=${tenant.id}`, {
      headers: { origin: "https://elsewhere.example" },
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toBe("origin_not_allowed");
    expect(response.headers.get("access-control-allow-origin")).toBe("https://elsewhere.example");
  });

  test("an unknown tenant is 404 and a missing tenant_id is a 4xx JSON error", async () => {
    context = buildTestApp();
    const unknown = await context.request("GET", "/api/v1/widget/config?tenant_id=ten_nope", {
      headers: { origin: SITE },
    });
    expect(unknown.status).toBe(404);
    const missing = await context.request("GET", "/api/v1/widget/config", { headers: { origin: SITE } });
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect(missing.status).toBeLessThan(500);
    expect(((await missing.json()) as { error: string }).error).toBeString();
  });

  test("the tenant's own starter_quick_replies replace the template's, and the session start carries them too", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Smile", sector: "dental-clinic" });
    await updateBotConfig(context.deps, tenant.id, { starter_quick_replies: ["Prices", "Book a cleaning"] });
    const config = (await (
      await context.request("GET", `/api/v1/widget/config?tenant_id=${tenant.id}`, { headers: { origin: SITE } })
    ).json()) as { quick_replies: string[] };
    expect(config.quick_replies).toEqual(["Prices", "Book a cleaning"]);
    const session = await context.request("POST", "/api/v1/widget/session", {
      body: { tenant_id: tenant.id },
      headers: { origin: SITE },
    });
    expect(session.status).toBe(201);
    expect(((await session.json()) as { quick_replies: string[] }).quick_replies).toEqual([
      "Prices",
      "Book a cleaning",
    ]);
  });
});

describe("bot config starter_quick_replies", () => {
  const fieldOf = async (patch: unknown) => {
    const current = await getBotConfig(context.deps, (await createTenant(context.deps, { name: "Smile" })).id);
    try {
      validateBotConfigPatch(patch, current);
      return null;
    } catch (error) {
      return error instanceof AppError ? { status: error.status, message: error.message } : null;
    }
  };

  test("must be an array of at most 6 strings of 1 to 60 characters", async () => {
    context = buildTestApp();
    expect(await fieldOf({ starter_quick_replies: "Prices" })).toEqual({
      status: 422,
      message: expect.stringContaining("starter_quick_replies"),
    });
    expect(await fieldOf({ starter_quick_replies: ["a", "b", "c", "d", "e", "f", "g"] })).toEqual({
      status: 422,
      message: expect.stringContaining("at most 6"),
    });
    expect(await fieldOf({ starter_quick_replies: [""] })).toEqual({
      status: 422,
      message: expect.stringContaining("starter_quick_replies[0]"),
    });
    expect(await fieldOf({ starter_quick_replies: ["Prices", "Opening hours"] })).toBeNull();
  });
});

describe("the welcome in the visitor's language", () => {
  const welcome = async (tenantId: string, lang: string) =>
    (await (
      await context.request("GET", `/api/v1/widget/config?tenant_id=${tenantId}&lang=${lang}`, {
        headers: { origin: SITE },
      })
    ).json()) as {
      greeting: string;
      quick_replies: string[];
    };

  test("a Portuguese or Spanish visitor of a bot that speaks it is greeted in it, with starters in it", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Smile", sector: "dental-clinic", origins: [SITE] });
    await updateBotConfig(context.deps, tenant.id, { languages: ["en", "pt", "es"] });
    const pt = await welcome(tenant.id, "pt-BR");
    expect(pt.greeting).toStartWith("Olá!");
    expect(pt.quick_replies).toContain("Falar com uma pessoa");
    const es = await welcome(tenant.id, "es");
    expect(es.greeting).toStartWith("¡Hola!");
    const session = await context.request("POST", "/api/v1/widget/session", {
      headers: { origin: SITE },
      body: { tenant_id: tenant.id, lang: "es" },
    });
    expect(((await session.json()) as { greeting: string }).greeting).toBe(es.greeting);
  });

  test("a language the bot does not offer, or one it does not know, gets the tenant's own greeting", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Smile", sector: "dental-clinic", origins: [SITE] });
    const config = await getBotConfig(context.deps, tenant.id);
    expect((await welcome(tenant.id, "pt")).greeting).toBe(config.greeting);
    expect((await welcome(tenant.id, "fr-FR")).greeting).toBe(config.greeting);
  });
});
