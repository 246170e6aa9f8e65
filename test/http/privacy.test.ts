import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { DeliveryScheduler } from "../../src/scheduler/scheduler.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { buildTestApp, login, TEST_PASSWORD, testSql, type TestContext } from "../helpers.ts";
import { deliverAll, openWidgetSession, say, subscribeToEverything } from "./chat-helpers.ts";
import { findEverywhere as findIn } from "./privacy-helpers.ts";

const ANA = { email: "ana@example.com", phone: "+14155550132", typedPhone: "(415) 555-0132", name: "Ana Lopez" };
const BOB = { email: "bob@example.com", phone: "+14155550199", typedPhone: "(415) 555-0199", name: "Bob Stone" };
const ANA_NEEDLES = [ANA.email, ANA.phone, "555-0132", ANA.name];

let context: TestContext;
let tenantId: string;
let key: string;
let otherKey: string;

async function conversation(messages: readonly string[]): Promise<string> {
  const visitor = await openWidgetSession(context, tenantId);
  for (const message of messages)
    expect((await say(context, visitor.access_token, tenantId, message)).status).toBe(200);
  const telemetry = { tenant_id: tenantId, events: [{ name: "widget_opened" }] };
  expect(
    (
      await context.request("POST", "/api/v1/analytics/events", {
        headers: { authorization: `Bearer ${visitor.access_token}` },
        body: telemetry,
      })
    ).status,
  ).toBeLessThan(300);
  return visitor.session_id;
}

/** Where the needles occur in any table of the store under test. */
const findEverywhere = async (needles: readonly string[]) => findIn(await testSql(context.deps), needles);

const leadScript = (person: typeof ANA, interest: string) => [
  `I'd like a quote for ${interest}`,
  person.name,
  person.typedPhone,
  person.email,
];

async function leadsOf(apiKey: string) {
  return (await (await context.request("GET", "/api/v1/leads", { headers: { "x-api-key": apiKey } })).json())
    .data as Array<{ lead_id: string; email: string; session_id: string }>;
}

/** Fails every send: with no retry delays configured, each delivery dies at once into the dead-letter queue. */
const killAll = () =>
  new DeliveryScheduler(context.deps, {
    send: async () => ({
      ok: false,
      statusCode: 500,
      error: "http_status: 500",
      durationMs: 1,
      responseExcerpt: `echo ${ANA.email}`,
    }),
  }).runOnce();

beforeEach(async () => {
  context = buildTestApp({ allowPrivateWebhooks: true, retryDelaysMs: [] });
  const tenant = await createTenant(context.deps, { name: "Smile", sector: "dental-clinic", plan: "pro" });
  tenantId = tenant.id;
  key = (await createApiKey(context.deps, { tenantId })).key;
  await subscribeToEverything(context, tenantId);
  const other = await createTenant(context.deps, { name: "Other", sector: "dental-clinic", plan: "pro" });
  otherKey = (await createApiKey(context.deps, { tenantId: other.id })).key;
});
afterEach(() => context.close());

/** Ana talks three times (a lead, a booking, a chat where she only types her e-mail); Bob once. */
async function seedPeople() {
  const leadSession = await conversation(leadScript(ANA, "Invisalign"));
  await deliverAll(context); // delivered: succeeded deliveries with attempt logs
  const bookingSession = await conversation([
    "I'd like to book an appointment",
    "Monday at 10am",
    "yes",
    ANA.name,
    ANA.typedPhone,
  ]);
  await killAll(); // dead letters holding her events for re-trigger
  const mentionSession = await conversation(["hello", `you can write to ${ANA.email.toUpperCase()}`]); // pending deliveries
  const bobSession = await conversation(leadScript(BOB, "whitening"));
  const anaLead = (await leadsOf(key)).find((lead) => lead.email === ANA.email);
  if (!anaLead) throw new Error("Ana's lead was not captured");
  return { anaLead, leadSession, bookingSession, mentionSession, bobSession };
}

describe("GET /leads/:id/export", () => {
  test("an operator's message in the person's transcript carries the name the visitor saw", async () => {
    const { anaLead, leadSession } = await seedPeople();
    await createUser(context.deps, {
      email: "maria@smile.test",
      tenantId,
      role: "agent",
      password: TEST_PASSWORD,
      displayName: "Maria",
    });
    const maria = await login(context, "maria@smile.test");
    const posted = await context.request("POST", `/api/v1/sessions/${leadSession}/operator-messages`, {
      headers: { authorization: `Bearer ${maria.access_token}` },
      body: { text: "Hi Ana, Maria here." },
    });
    expect(posted.status).toBe(201);
    const exported = await (
      await context.request("GET", `/api/v1/leads/${anaLead.lead_id}/export`, { headers: { "x-api-key": key } })
    ).json();
    const messages = exported.sessions.find((session: { session_id: string }) => session.session_id === leadSession)
      .messages as Array<{ role: string; text: string; author_name: string | null }>;
    expect(messages.at(-1)).toMatchObject({ role: "operator", text: "Hi Ana, Maria here.", author_name: "Maria" });
    expect(
      messages.filter((message) => message.role !== "operator").every((message) => message.author_name === null),
    ).toBe(true);
  });

  test("returns everything held about the person, and nothing about anyone else", async () => {
    const { anaLead, leadSession, bookingSession, mentionSession } = await seedPeople();
    const response = await context.request("GET", `/api/v1/leads/${anaLead.lead_id}/export`, {
      headers: { "x-api-key": key },
    });
    expect(response.status).toBe(200);
    const exported = await response.json();
    expect(exported.contact.emails).toEqual([ANA.email]);
    expect(exported.leads.map((lead: { lead_id: string }) => lead.lead_id)).toEqual([anaLead.lead_id]);
    expect(exported.appointments).toHaveLength(1);
    expect(exported.appointments[0]).toMatchObject({
      name: ANA.name,
      phone: ANA.phone,
      starts_at: expect.stringMatching(/Z$/),
    });
    expect(exported.sessions.map((session: { session_id: string }) => session.session_id).sort()).toEqual(
      [leadSession, bookingSession, mentionSession].sort(),
    );
    const transcript = exported.sessions.flatMap((session: { messages: Array<{ text: string }> }) =>
      session.messages.map((message) => message.text),
    );
    expect(transcript).toContain(ANA.email);
    const events = exported.events.map((event: { event: string }) => event.event);
    expect(events).toContain("lead.created");
    expect(events).toContain("appointment.created");
    expect(
      exported.events.find((event: { event: string }) => event.event === "lead.created").deliveries[0],
    ).toMatchObject({ status: "succeeded" });
    expect(exported.analytics_events).toHaveLength(3);
    expect(JSON.stringify(exported)).not.toContain(BOB.email);
    expect(JSON.stringify(exported)).not.toContain(BOB.name);
  });

  test("needs the tenant's key or an owner/admin; another tenant's lead is 404", async () => {
    const { anaLead } = await seedPeople();
    const path = `/api/v1/leads/${anaLead.lead_id}/export`;
    expect((await context.request("GET", path)).status).toBe(401);
    expect((await context.request("GET", path, { headers: { "x-api-key": otherKey } })).status).toBe(404);
    expect(
      (await context.request("DELETE", `/api/v1/leads/${anaLead.lead_id}`, { headers: { "x-api-key": otherKey } }))
        .status,
    ).toBe(404);
    expect(
      (
        await context.request("GET", "/api/v1/leads/lead_01jz4k9a7n3p5r7t9v1x3z5b7d/export", {
          headers: { "x-api-key": key },
        })
      ).status,
    ).toBe(404);
    await createUser(context.deps, { email: "agent@smile.test", tenantId, role: "agent", password: TEST_PASSWORD });
    await createUser(context.deps, { email: "owner@smile.test", tenantId, role: "owner", password: TEST_PASSWORD });
    const agent = await login(context, "agent@smile.test");
    expect(
      (await context.request("GET", path, { headers: { authorization: `Bearer ${agent.access_token}` } })).status,
    ).toBe(403);
    expect(
      (
        await context.request("DELETE", `/api/v1/leads/${anaLead.lead_id}`, {
          headers: { authorization: `Bearer ${agent.access_token}` },
        })
      ).status,
    ).toBe(403);
    const owner = await login(context, "owner@smile.test");
    expect(
      (await context.request("GET", path, { headers: { authorization: `Bearer ${owner.access_token}` } })).status,
    ).toBe(200);
    expect(await leadsOf(key)).toHaveLength(2); // nothing was erased by the refused calls
  });
});

describe("DELETE /leads/:id", () => {
  test("leaves no trace of the person's e-mail, phone or name in any table; others are untouched", async () => {
    const { anaLead, leadSession, bobSession } = await seedPeople();
    expect((await findEverywhere(ANA_NEEDLES)).length).toBeGreaterThan(5);
    const held = await (
      await context.request("GET", "/api/v1/webhooks/dead-letters", { headers: { "x-api-key": key } })
    ).json();
    expect(held.data.length).toBeGreaterThan(0);

    const response = await context.request("DELETE", `/api/v1/leads/${anaLead.lead_id}`, {
      headers: { "x-api-key": key },
    });
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result).toMatchObject({ erased: true, leads: 1, appointments: 1, sessions: 3, analytics_events: 3 });
    expect(result.events).toBeGreaterThanOrEqual(5);

    expect(await findEverywhere([...ANA_NEEDLES, leadSession])).toEqual([]);
    // Bob, his transcript and his events are all still there.
    expect((await leadsOf(key)).map((lead) => lead.email)).toEqual([BOB.email]);
    expect((await findEverywhere([BOB.email, BOB.phone, bobSession])).length).toBeGreaterThan(3);
    // Nothing about her is left to send: what is still pending is Bob's.
    const sent = await deliverAll(context);
    expect(sent.length).toBeGreaterThan(0);
    expect(JSON.stringify(sent)).not.toContain(ANA.email);
    expect(JSON.stringify(sent)).not.toContain(ANA.phone);
    const deadLetters = await (
      await context.request("GET", "/api/v1/webhooks/dead-letters", { headers: { "x-api-key": key } })
    ).json();
    expect(deadLetters.data).toEqual([]);

    expect(
      (await context.request("GET", `/api/v1/leads/${anaLead.lead_id}/export`, { headers: { "x-api-key": key } }))
        .status,
    ).toBe(404);
    expect(
      (await context.request("DELETE", `/api/v1/leads/${anaLead.lead_id}`, { headers: { "x-api-key": key } })).status,
    ).toBe(404);
  });
});

describe("DELETE /sessions/:id", () => {
  test("erases the visitor of a session: transcript, their lead and its events; another tenant's session is 404", async () => {
    const { leadSession, bobSession } = await seedPeople();
    expect(
      (await context.request("DELETE", `/api/v1/sessions/${bobSession}`, { headers: { "x-api-key": otherKey } }))
        .status,
    ).toBe(404);
    const response = await context.request("DELETE", `/api/v1/sessions/${bobSession}`, {
      headers: { "x-api-key": key },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ erased: true, leads: 1, sessions: 1 });
    expect(await findEverywhere([BOB.email, BOB.phone, BOB.name, bobSession])).toEqual([]);
    expect(
      (
        await context.request("GET", `/api/v1/chatbot/sessions/${bobSession}/messages`, {
          headers: { "x-api-key": key },
        })
      ).status,
    ).toBe(404);
    expect((await leadsOf(key)).map((lead) => lead.session_id)).toEqual([leadSession]);
    expect(
      (await context.request("DELETE", `/api/v1/sessions/${bobSession}`, { headers: { "x-api-key": key } })).status,
    ).toBe(404);
  });
});
