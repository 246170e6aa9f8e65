import { afterEach, describe, expect, test } from "bun:test";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { buildTestApp, login, seedTenant, type TestContext } from "../helpers.ts";
import { deliverAll, openWidgetSession, say, subscribeToEverything } from "./chat-helpers.ts";

let context: TestContext;
afterEach(() => context.close());

const LEAD_DATA_KEYS = [
  "lead_id",
  "chatbot_id",
  "session_id",
  "sector",
  "name",
  "phone",
  "email",
  "interest",
  "source",
  "captured_at",
  "confidence",
];

const SECTOR_SCRIPTS = [
  {
    sector: "dental-clinic",
    messages: [
      "I'd like a quote for Invisalign",
      "Ana Lopez",
      "555-123-4567",
      "(415) 555-0132",
      "ana@example",
      "ana@example.com",
    ],
    phone: "+14155550132",
    name: "Ana Lopez",
  },
  {
    sector: "real-estate",
    messages: ["I want to sell my house", "Harper Jones", "07911 123456", "harper@example.co.uk"],
    phone: "+447911123456",
    name: "Harper Jones",
  },
  {
    sector: "beauty-salon",
    messages: [
      "I'm interested in a bridal package for my wedding",
      "I'm Chloe Nguyen, 0412 345 678, chloe@example.com.au",
    ],
    phone: "+61412345678",
    name: "Chloe Nguyen",
  },
  {
    sector: "car-service",
    messages: [
      "Can I get an estimate for a transmission repair?",
      "Marcus Reed",
      "(312) 555-0147",
      "marcus.reed@example.com",
    ],
    phone: "+13125550147",
    name: "Marcus Reed",
  },
];

describe("a visitor talking to a sector template's bot over HTTP", () => {
  for (const script of SECTOR_SCRIPTS) {
    test(`${script.sector}: the conversation ends in exactly one lead.created with the spec's data`, async () => {
      context = buildTestApp({ allowPrivateWebhooks: true });
      const tenant = await createTenant(context.deps, { name: script.sector, sector: script.sector, plan: "pro" });
      await subscribeToEverything(context, tenant.id);
      const visitor = await openWidgetSession(context, tenant.id, "https://shop.example");
      expect(visitor.greeting.length).toBeGreaterThan(0);
      let last: { reply: { text: string }; status: string; session_id: string } | null = null;
      for (const message of script.messages) {
        const response = await say(
          context,
          visitor.access_token,
          tenant.id,
          message,
          {},
          { origin: "https://shop.example" },
        );
        expect(response.status).toBe(200);
        expect(response.headers.get("access-control-allow-origin")).toBe("https://shop.example");
        last = await response.json();
      }
      expect(last?.session_id).toBe(visitor.session_id);
      expect(last?.status).toBe("bot");

      const delivered = await deliverAll(context);
      expect(delivered.map((body) => body.event).sort()).toEqual(["lead.created", "session.started"]);
      const lead = delivered.find((body) => body.event === "lead.created");
      expect(Object.keys(lead?.data ?? {})).toEqual(LEAD_DATA_KEYS);
      expect(lead?.data).toMatchObject({
        chatbot_id: tenant.chatbotId,
        session_id: visitor.session_id,
        sector: script.sector,
        name: script.name,
        phone: script.phone,
        source: "widget:https://shop.example",
        captured_at: new Date(context.clock.now()).toISOString(),
      });
      expect(lead?.data.confidence).toBeNumber();
      const leads = await (
        await context.request("GET", "/api/v1/leads", {
          headers: { "x-api-key": (await createApiKey(context.deps, { tenantId: tenant.id })).key },
        })
      ).json();
      expect(leads.data).toHaveLength(1);
      expect(leads.data[0].lead_id).toBe(lead?.data.lead_id);
    });
  }

  test("the first message of a session emits session.started once", async () => {
    context = buildTestApp({ allowPrivateWebhooks: true });
    const tenant = await createTenant(context.deps, { name: "S", sector: "dental-clinic" });
    await subscribeToEverything(context, tenant.id);
    const visitor = await openWidgetSession(context, tenant.id);
    await say(context, visitor.access_token, tenant.id, "hello");
    await say(context, visitor.access_token, tenant.id, "what are your opening hours?");
    const started = (await deliverAll(context)).filter((body) => body.event === "session.started");
    expect(started).toHaveLength(1);
    expect(started[0]?.data).toEqual({
      session_id: visitor.session_id,
      chatbot_id: tenant.chatbotId,
      channel: "widget",
      started_at: new Date(context.clock.now()).toISOString(),
    });
  });
});

describe("appointments over HTTP (fixed clock: Thu 15 Jan 2026, 04:00 in New York)", () => {
  test("a booking is stored, listed and announced; the same slot is then refused to another visitor", async () => {
    context = buildTestApp({ allowPrivateWebhooks: true });
    const tenant = await createTenant(context.deps, { name: "Smile", sector: "dental-clinic", plan: "pro" });
    await subscribeToEverything(context, tenant.id);
    const first = await openWidgetSession(context, tenant.id);
    for (const message of ["I'd like to book an appointment", "Monday at 10am", "yes", "Ana Lopez", "(415) 555-0132"]) {
      await say(context, first.access_token, tenant.id, message);
    }
    const appointment = (await deliverAll(context)).find((body) => body.event === "appointment.created");
    expect(appointment?.data).toMatchObject({
      session_id: first.session_id,
      name: "Ana Lopez",
      phone: "+14155550132",
      starts_at: "2026-01-19T15:00:00.000Z",
      ends_at: "2026-01-19T15:30:00.000Z",
      timezone: "America/New_York",
    });
    const key = (await createApiKey(context.deps, { tenantId: tenant.id })).key;
    const listed = await (
      await context.request("GET", "/api/v1/appointments", { headers: { "x-api-key": key } })
    ).json();
    expect(listed.data.map((row: { starts_at: string }) => row.starts_at)).toEqual(["2026-01-19T15:00:00.000Z"]);

    const second = await openWidgetSession(context, tenant.id);
    const refused = await (await say(context, second.access_token, tenant.id, "Can I come in Monday at 10am?")).json();
    expect(refused.reply.text).not.toContain("is available");
    expect(refused.reply.quick_replies.length).toBeGreaterThan(0);
  });
});

describe("hand-off to an operator", () => {
  test("by keyword: the session waits for an operator, the bot stays silent, operator replies reach the transcript", async () => {
    context = buildTestApp({ allowPrivateWebhooks: true });
    const seeded = await seedTenant(context.deps, "Desk");
    await subscribeToEverything(context, seeded.tenant.id);
    const visitor = await openWidgetSession(context, seeded.tenant.id);
    const handoff = await (
      await say(context, visitor.access_token, seeded.tenant.id, "Can I talk to a human please?")
    ).json();
    expect(handoff.status).toBe("handoff");
    const event = (await deliverAll(context)).find((body) => body.event === "handoff.requested");
    expect(event?.data).toMatchObject({
      session_id: visitor.session_id,
      reason: "keyword",
      last_message: "Can I talk to a human please?",
      confidence: 0.95,
    });

    const silent = await (await say(context, visitor.access_token, seeded.tenant.id, "hello? anyone?")).json();
    expect(silent).toMatchObject({ status: "handoff", reply: null });

    const { access_token } = await login(context, seeded.email);
    const operator = { authorization: `Bearer ${access_token}` };
    const waiting = await (
      await context.request("GET", "/api/v1/sessions?status=handoff", { headers: operator })
    ).json();
    expect(waiting.data.map((session: { session_id: string }) => session.session_id)).toEqual([visitor.session_id]);
    const posted = await context.request("POST", `/api/v1/sessions/${visitor.session_id}/operator-messages`, {
      headers: operator,
      body: { text: "Hi, this is Sam from the front desk." },
    });
    expect(posted.status).toBe(201);

    const transcript = await (
      await context.request("GET", `/api/v1/chatbot/sessions/${visitor.session_id}/messages`, {
        headers: { authorization: `Bearer ${visitor.access_token}` },
      })
    ).json();
    expect(transcript.data.map((message: { role: string }) => message.role)).toEqual([
      "visitor",
      "bot",
      "visitor",
      "operator",
    ]);
    const lastSeen = transcript.data[2].message_id;
    const poll = await (
      await context.request("GET", `/api/v1/chatbot/sessions/${visitor.session_id}/messages?after=${lastSeen}`, {
        headers: { authorization: `Bearer ${visitor.access_token}` },
      })
    ).json();
    expect(poll.data).toEqual([
      expect.objectContaining({ role: "operator", text: "Hi, this is Sam from the front desk." }),
    ]);
    // Not a message id: refused, not read as "from the start" (which would repeat the whole transcript).
    const garbled = await context.request(
      "GET",
      `/api/v1/chatbot/sessions/${visitor.session_id}/messages?after=last-one`,
      { headers: { authorization: `Bearer ${visitor.access_token}` } },
    );
    expect(garbled.status).toBe(422);
    expect((await garbled.json()).details).toEqual([
      { field: "after", message: "must be an id as the API gives them, such as ses_01kb5r8yzqxq9c3d4e5f6g7h8j" },
    ]);

    const closed = await (
      await context.request("POST", `/api/v1/sessions/${visitor.session_id}/close`, { headers: operator })
    ).json();
    expect(closed.status).toBe("closed");
    expect((await say(context, visitor.access_token, seeded.tenant.id, "still there?")).status).toBe(409);
  });

  test("after two low-confidence turns in a row", async () => {
    context = buildTestApp({ allowPrivateWebhooks: true });
    const tenant = await createTenant(context.deps, { name: "Vague", sector: "dental-clinic" });
    await subscribeToEverything(context, tenant.id);
    const visitor = await openWidgetSession(context, tenant.id);
    const first = await (await say(context, visitor.access_token, tenant.id, "blorp zib quantum llama")).json();
    expect(first.status).toBe("bot");
    const second = await (await say(context, visitor.access_token, tenant.id, "frobnicate the wibble")).json();
    expect(second.status).toBe("handoff");
    const event = (await deliverAll(context)).find((body) => body.event === "handoff.requested");
    expect(event?.data.reason).toBe("low_confidence");
  });
});

describe("who may talk to which bot", () => {
  test("a visitor token cannot post to another tenant or another session", async () => {
    context = buildTestApp();
    const a = await createTenant(context.deps, { name: "A" });
    const b = await createTenant(context.deps, { name: "B" });
    const visitor = await openWidgetSession(context, a.id);
    const other = await openWidgetSession(context, a.id);
    expect((await say(context, visitor.access_token, b.id, "hi")).status).toBe(404);
    expect((await say(context, visitor.access_token, a.id, "hi", { session_id: other.session_id })).status).toBe(404);
    expect(
      (
        await context.request("GET", `/api/v1/chatbot/sessions/${other.session_id}/messages`, {
          headers: { authorization: `Bearer ${visitor.access_token}` },
        })
      ).status,
    ).toBe(404);
    // A visitor token is no member token.
    expect(
      (await context.request("GET", "/api/v1/me", { headers: { authorization: `Bearer ${visitor.access_token}` } }))
        .status,
    ).toBe(401);
    expect(
      (await context.request("GET", "/api/v1/leads", { headers: { authorization: `Bearer ${visitor.access_token}` } }))
        .status,
    ).toBe(401);
  });

  test("a member of tenant A cannot message tenant B's bot, but can message A's", async () => {
    context = buildTestApp();
    const a = await seedTenant(context.deps, "A");
    const b = await seedTenant(context.deps, "B");
    const { access_token } = await login(context, a.email);
    expect((await say(context, access_token, b.tenant.id, "hi")).status).toBe(404);
    const own = await say(context, access_token, a.tenant.id, "hi");
    expect(own.status).toBe(200);
    const reply = await own.json();
    expect(reply.session_id).toMatch(/^ses_/);
    expect((await say(context, access_token, a.tenant.id, "and again", { session_id: reply.session_id })).status).toBe(
      200,
    );
    expect(
      (
        await context.request("GET", `/api/v1/sessions?tenant_id=${b.tenant.id}`, {
          headers: { authorization: `Bearer ${access_token}` },
        })
      ).status,
    ).toBe(404);
  });

  test("an Origin outside the tenant's allowed origins gets 403; a listed one gets CORS headers; null is never reflected", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Locked", origins: ["https://clinic.example"] });
    const denied = await context.request("POST", "/api/v1/widget/session", {
      body: { tenant_id: tenant.id },
      headers: { origin: "https://evil.example" },
    });
    expect(denied.status).toBe(403);
    expect((await denied.json()).error).toBe("origin_not_allowed");
    expect(
      (
        await context.request("POST", "/api/v1/widget/session", {
          body: { tenant_id: tenant.id },
          headers: { origin: "null" },
        })
      ).status,
    ).toBe(403);
    expect((await context.request("POST", "/api/v1/widget/session", { body: { tenant_id: tenant.id } })).status).toBe(
      403,
    );
    const allowed = await openWidgetSession(context, tenant.id, "https://clinic.example");
    const fromElsewhere = await say(
      context,
      allowed.access_token,
      tenant.id,
      "hi",
      {},
      { origin: "https://evil.example" },
    );
    expect(fromElsewhere.status).toBe(403);

    const preflight = await context.request("OPTIONS", "/api/v1/chatbot/message", {
      headers: { origin: "https://clinic.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://clinic.example");
    const badPreflight = await context.request("OPTIONS", "/api/v1/widget/session", { headers: { origin: "null" } });
    expect(badPreflight.status).toBe(403);
    expect(badPreflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("an open tenant accepts any origin but never reflects null", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Open" });
    const response = await context.request("POST", "/api/v1/widget/session", {
      body: { tenant_id: tenant.id },
      headers: { origin: "null" },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("the chat limit answers the 61st message in 60 s with 429", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Busy", plan: "pro" });
    const visitor = await openWidgetSession(context, tenant.id);
    for (let i = 0; i < 60; i++) {
      expect((await say(context, visitor.access_token, tenant.id, `question ${i}`)).status).toBe(200);
      context.clock.advance(500);
    }
    const limited = await say(context, visitor.access_token, tenant.id, "one more");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("30");
    // Another visitor has its own window.
    const other = await openWidgetSession(context, tenant.id);
    expect((await say(context, other.access_token, tenant.id, "hi")).status).toBe(200);
  });
});

describe("CRM reads are tenant-scoped", () => {
  test("tenant B's key sees none of A's leads, appointments or sessions", async () => {
    context = buildTestApp();
    const a = await seedTenant(context.deps, "Alpha");
    const b = await seedTenant(context.deps, "Beta");
    const visitor = await openWidgetSession(context, a.tenant.id);
    for (const message of ["I'd like a quote", "I'm Ana Lopez, (415) 555-0132, ana@example.com"])
      await say(context, visitor.access_token, a.tenant.id, message);
    const asA = { "x-api-key": a.apiKey };
    const asB = { "x-api-key": b.apiKey };
    expect((await (await context.request("GET", "/api/v1/leads", { headers: asA })).json()).data).toHaveLength(1);
    expect((await (await context.request("GET", "/api/v1/leads", { headers: asB })).json()).data).toEqual([]);
    expect((await (await context.request("GET", "/api/v1/appointments", { headers: asB })).json()).data).toEqual([]);
    expect((await (await context.request("GET", "/api/v1/sessions", { headers: asB })).json()).data).toEqual([]);
    expect(
      (await context.request("GET", `/api/v1/chatbot/sessions/${visitor.session_id}/messages`, { headers: asB }))
        .status,
    ).toBe(404);
    expect(
      (
        await context.request("POST", `/api/v1/sessions/${visitor.session_id}/operator-messages`, {
          headers: asB,
          body: { text: "hi" },
        })
      ).status,
    ).toBe(404);
    expect(
      (await context.request("POST", `/api/v1/sessions/${visitor.session_id}/close`, { headers: asB })).status,
    ).toBe(404);
    expect((await context.request("GET", `/api/v1/leads?tenant_id=${a.tenant.id}`, { headers: asB })).status).toBe(404);
    expect((await context.request("GET", "/api/v1/leads?limit=abc", { headers: asA })).status).toBe(422);
    expect((await context.request("GET", "/api/v1/sessions?status=sleeping", { headers: asA })).status).toBe(422);
  });
});

describe("errors on visitor routes", () => {
  test("are readable by the widget's page (CORS) but never by the null origin", async () => {
    context = buildTestApp();
    const tenant = await createTenant(context.deps, { name: "Locked", origins: ["https://clinic.example"] });
    const refused = await context.request("POST", "/api/v1/widget/session", {
      body: { tenant_id: tenant.id },
      headers: { origin: "https://evil.example" },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBe("https://evil.example");
    const expired = await context.request("POST", "/api/v1/chatbot/message", {
      body: { tenant_id: tenant.id, message: "hi" },
      headers: { origin: "https://clinic.example", authorization: "Bearer nope" },
    });
    expect(expired.status).toBe(401);
    expect(expired.headers.get("access-control-allow-origin")).toBe("https://clinic.example");
    const fromNull = await context.request("POST", "/api/v1/widget/session", {
      body: { tenant_id: tenant.id },
      headers: { origin: "null" },
    });
    expect(fromNull.headers.get("access-control-allow-origin")).toBeNull();
    const management = await context.request("GET", "/api/v1/leads", { headers: { origin: "https://clinic.example" } });
    expect(management.headers.get("access-control-allow-origin")).toBeNull();
  });
});
