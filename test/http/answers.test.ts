import { afterEach, describe, expect, test } from "bun:test";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { getBotConfig } from "../../src/chat/bot-settings.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { seedDemo } from "../../src/cli/seed-demo.ts";
import { buildTestApp, type TestContext } from "../helpers.ts";
import { openWidgetSession, say } from "./chat-helpers.ts";

let context: TestContext;
afterEach(() => context.close());

interface ChatReply {
  status: string;
  reply: { text: string; quick_replies?: string[] };
}

/** A tenant of `sector` speaking the three languages, its API key headers, and a visitor who says each message in turn. */
async function tenantChat(sector: string, languages: string[] = ["en", "pt", "es"]) {
  context = buildTestApp();
  const tenant = await createTenant(context.deps, { name: "Shop", sector, plan: "pro" });
  const headers = { "x-api-key": (await createApiKey(context.deps, { tenantId: tenant.id })).key };
  const patched = await context.request("PATCH", "/api/v1/chatbot/config", { headers, body: { languages } });
  expect(patched.status).toBe(200);
  const visitor = await openWidgetSession(context, tenant.id);
  const chat = async (message: string): Promise<ChatReply> => {
    const response = await say(context, visitor.access_token, tenant.id, message);
    expect(response.status).toBe(200);
    return (await response.json()) as ChatReply;
  };
  return { tenant, headers, chat };
}

describe("the bot config's languages over HTTP", () => {
  test("a new tenant speaks English; a subset of en, pt and es is accepted; anything else is a 422", async () => {
    const { headers } = await tenantChat("dental-clinic", ["en"]);
    const config = (await (await context.request("GET", "/api/v1/chatbot/config", { headers })).json()) as {
      languages: string[];
    };
    expect(config.languages).toEqual(["en"]);
    const both = await context.request("PATCH", "/api/v1/chatbot/config", {
      headers,
      body: { languages: ["pt", "es"] },
    });
    expect(((await both.json()) as { languages: string[] }).languages).toEqual(["pt", "es"]);
    for (const languages of [["fr"], [], "pt"]) {
      const refused = await context.request("PATCH", "/api/v1/chatbot/config", { headers, body: { languages } });
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { error: string }).error).toBe("validation_failed");
    }
  });

  test("the demo tenant speaks English, Portuguese and Spanish", async () => {
    context = buildTestApp();
    const seed = await seedDemo(context.deps);
    expect((await getBotConfig(context.deps, seed.tenantId)).languages).toEqual(["en", "pt", "es"]);
  });
});

describe("conversations over HTTP", () => {
  test("dental: 'do you accept medicaid?' is not answered with the new-patients entry", async () => {
    const { chat } = await tenantChat("dental-clinic");
    const reply = await chat("do you accept medicaid?");
    expect(reply.reply.text).not.toContain("new patients");
    expect(reply.reply.text).toContain("I don't have that information");
  });

  test("car service: a Portuguese breakdown gets the tow number in Portuguese, and 'sim' hands off", async () => {
    const { chat } = await tenantChat("car-service");
    const urgent = await chat("meu carro quebrou na estrada, preciso de um guincho urgente");
    expect(urgent.reply.text).toContain("(312) 555-0142 e mandamos nosso guincho");
    expect((await chat("sim")).status).toBe("handoff");
  });

  test("beauty salon: 'quiero hablar con el encargado' hands the session to a person", async () => {
    const { chat } = await tenantChat("beauty-salon");
    const reply = await chat("quiero hablar con el encargado");
    expect(reply.status).toBe("handoff");
    expect(reply.reply.text).toContain("nuestro equipo");
  });

  test("dental: a booking offer answered with name, phone and e-mail books it and saves one lead", async () => {
    const { chat, headers } = await tenantChat("dental-clinic");
    expect((await chat("can I book tuesday at 12pm?")).reply.text).toContain("Shall I book it for you?");
    expect((await chat("Ana Lopez")).reply.text).toContain("to hold Tue, Jan 20, 12:00 PM");
    expect((await chat("+1 212 555 0187")).reply.text).toContain("You're booked in");
    await chat("ana@example.com");
    const leads = (await (await context.request("GET", "/api/v1/leads", { headers })).json()) as {
      data: Array<{ name: string; phone: string; email: string }>;
    };
    expect(leads.data).toEqual([
      expect.objectContaining({ name: "Ana Lopez", phone: "+12125550187", email: "ana@example.com" }),
    ]);
    const appointments = (await (await context.request("GET", "/api/v1/appointments", { headers })).json()) as {
      data: Array<{ name: string }>;
    };
    expect(appointments.data).toEqual([expect.objectContaining({ name: "Ana Lopez" })]);
  });

  test("dental: 'just email me' saves the lead without a phone", async () => {
    const { chat, headers } = await tenantChat("dental-clinic");
    await chat("can i pay for braces in installments?");
    await chat("Ana Lopez");
    expect((await chat("I'd rather not give my phone number, can you just email me?")).reply.text).toContain(
      "reply by e-mail",
    );
    await chat("ana@example.com");
    const leads = (await (await context.request("GET", "/api/v1/leads", { headers })).json()) as {
      data: Array<{ phone: string; email: string }>;
    };
    expect(leads.data).toEqual([expect.objectContaining({ phone: "", email: "ana@example.com" })]);
  });

  test("car service: '¿cuánto cuesta el cambio de aceite?' is answered in Spanish", async () => {
    const { chat } = await tenantChat("car-service");
    expect((await chat("¿cuánto cuesta el cambio de aceite?")).reply.text).toContain(
      "El cambio de aceite convencional cuesta 49,95 USD",
    );
  });
});
