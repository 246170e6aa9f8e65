import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { createUser } from "../../src/auth/create-user.ts";
import { periodOf } from "../../src/billing/usage.ts";
import { settleWhatsappReplies } from "../../src/integrations/whatsapp-send.ts";
import { buildTestApp, login, seedTenant, testSql, type TestContext } from "../helpers.ts";
import { deliverAll, subscribeToEverything } from "./chat-helpers.ts";

const SETTINGS = {
  verify_token: "verify-me-0123456789",
  app_secret: "0123456789abcdef0123456789abcdef",
  access_token: "EAAGtestaccesstoken0123456789",
  phone_number_id: "106540352242922",
};
const VISITOR = "14155550132";

/** A fake Cloud API on loopback: records what Parley sends and answers with `nextStatus`. */
interface Sent {
  path: string;
  authorization: string | null;
  body: Record<string, unknown>;
}
const sent: Sent[] = [];
let nextStatus = 200;
let cloudApi: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  cloudApi = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      sent.push({
        path: new URL(request.url).pathname,
        authorization: request.headers.get("authorization"),
        body: (await request.json()) as Record<string, unknown>,
      });
      return Response.json(
        nextStatus === 200
          ? { messaging_product: "whatsapp", messages: [{ id: "wamid.out" }] }
          : { error: { message: "boom", code: 131000 } },
        { status: nextStatus },
      );
    },
  });
});
afterAll(() => cloudApi.stop(true));

let context: TestContext;
let seeded: Awaited<ReturnType<typeof seedTenant>>;

const sign = (body: string, secret = SETTINGS.app_secret) =>
  `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;

let messageCounter = 0;
type Inbound = Record<string, unknown>;
const textMessage = (body: string, from = VISITOR, id = `wamid.in${++messageCounter}`): Inbound => ({
  from,
  id,
  timestamp: "1768467600",
  type: "text",
  text: { body },
});

/** Meta's webhook envelope around some messages (and/or statuses). */
const envelope = (value: Record<string, unknown>) =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: SETTINGS.phone_number_id },
              contacts: [{ profile: { name: "Ana" }, wa_id: VISITOR }],
              ...value,
            },
          },
        ],
      },
    ],
  });

async function postHook(body: string, options: { tenantId?: string; signature?: string | null } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const signature = options.signature === undefined ? sign(body) : options.signature;
  if (signature !== null) headers["x-hub-signature-256"] = signature;
  const response = await context.request("POST", `/api/v1/hooks/whatsapp/${options.tenantId ?? seeded.tenant.id}`, {
    rawBody: body,
    headers,
  });
  await settleWhatsappReplies();
  return response;
}

const say = (text: string, from = VISITOR, id?: string) =>
  postHook(envelope({ messages: [textMessage(text, from, id)] }));

const putSettings = (apiKey: string, body: Record<string, unknown> = SETTINGS) =>
  context.request("PUT", "/api/v1/integrations/whatsapp", { body, headers: { "x-api-key": apiKey } });

const sessions = async () =>
  (await testSql(context.deps)).all<{
    id: string;
    channel: string;
    visitor_ref: string;
    status: string;
    message_count: number;
  }>("SELECT id, channel, visitor_ref, status, message_count FROM chat_sessions");
const messageTexts = async (role: "visitor" | "bot") =>
  (
    await (
      await testSql(context.deps)
    ).all<{ text: string }>("SELECT text FROM chat_messages WHERE role = ? ORDER BY id", role)
  ).map((message) => message.text);

beforeEach(async () => {
  sent.length = 0;
  nextStatus = 200;
  context = buildTestApp({
    allowPrivateWebhooks: true,
    rateLimits: false,
    whatsappApiUrl: `http://127.0.0.1:${cloudApi.port}/v21.0`,
  });
  seeded = await seedTenant(context.deps, "Wadental");
  expect((await putSettings(seeded.apiKey)).status).toBe(200);
  await subscribeToEverything(context, seeded.tenant.id);
});
afterEach(() => context.close());

describe("GET /api/v1/hooks/whatsapp/:tenant_id — Meta's verification handshake", () => {
  const handshake = (token: string, tenantId = seeded.tenant.id, mode = "subscribe") =>
    context.request(
      "GET",
      `/api/v1/hooks/whatsapp/${tenantId}?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`,
    );

  test("the right verify token should return 200 with the challenge as text/plain", async () => {
    const response = await handshake(SETTINGS.verify_token);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/plain");
    expect(await response.text()).toBe("1158201444");
  });

  test("a wrong verify token or another mode should return 403", async () => {
    expect((await handshake("verify-me-wrong-token")).status).toBe(403);
    expect((await handshake("")).status).toBe(403);
    expect((await handshake(SETTINGS.verify_token, seeded.tenant.id, "unsubscribe")).status).toBe(403);
  });

  test("an unknown tenant and a tenant without WhatsApp settings both answer 404", async () => {
    const bare = await seedTenant(context.deps, "Nowhatsapp");
    expect((await handshake(SETTINGS.verify_token, "ten_00000000000000000000000000")).status).toBe(404);
    expect((await handshake(SETTINGS.verify_token, bare.tenant.id)).status).toBe(404);
  });
});

describe("POST /api/v1/hooks/whatsapp/:tenant_id — signatures", () => {
  const body = envelope({ messages: [textMessage("hello")] });

  test("a correctly signed message should return 200", async () => {
    const response = await postHook(body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, handled: 1, duplicates: 0, ignored: 0 });
  });

  test("no X-Hub-Signature-256 header should return 401 invalid_signature", async () => {
    const response = await postHook(body, { signature: null });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "invalid_signature" });
  });

  test("a signature made with another secret, a malformed one, or over other bytes should return 401", async () => {
    expect((await postHook(body, { signature: sign(body, "fedcba9876543210fedcba9876543210") })).status).toBe(401);
    expect((await postHook(body, { signature: "sha256=nothex" })).status).toBe(401);
    expect((await postHook(body, { signature: sign(body).replace("sha256=", "sha1=") })).status).toBe(401);
    expect((await postHook(JSON.stringify(JSON.parse(body), null, 2), { signature: sign(body) })).status).toBe(401);
    expect(await sessions()).toEqual([]);
    expect(sent).toEqual([]);
  });

  test("a request signed with tenant A's secret posted to tenant B's URL should return 401; to an unconfigured tenant 404", async () => {
    const other = await seedTenant(context.deps, "Otherwa");
    expect(
      (await putSettings(other.apiKey, { ...SETTINGS, app_secret: "another-app-secret-0123456789ab" })).status,
    ).toBe(200);
    expect((await postHook(body, { tenantId: other.tenant.id })).status).toBe(401);
    const bare = await seedTenant(context.deps, "Bare");
    expect((await postHook(body, { tenantId: bare.tenant.id })).status).toBe(404);
    expect(await sessions()).toEqual([]);
  });

  test("malformed JSON should return 400 invalid_json; a body without entry 400 invalid_payload", async () => {
    const broken = await postHook("{not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: "invalid_json" });
    const shapeless = await postHook('{"object":"whatsapp_business_account"}');
    expect(shapeless.status).toBe(400);
    expect(await shapeless.json()).toMatchObject({ error: "invalid_payload" });
    expect((await postHook('{"entry":[{"changes":{"value":{}}}]}')).status).toBe(400);
  });
});

describe("POST /api/v1/hooks/whatsapp/:tenant_id — the bot answers on WhatsApp", () => {
  test("a text message opens a whatsapp session for the number and the reply reaches the Cloud API", async () => {
    const response = await say("What are your opening hours?");
    expect(response.status).toBe(200);
    expect(await sessions()).toEqual([
      expect.objectContaining({ channel: "whatsapp", visitor_ref: VISITOR, status: "bot", message_count: 1 }),
    ]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.path).toBe(`/v21.0/${SETTINGS.phone_number_id}/messages`);
    expect(sent[0]?.authorization).toBe(`Bearer ${SETTINGS.access_token}`);
    const botText = (await messageTexts("bot"))[0];
    expect(sent[0]?.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: VISITOR,
      type: "text",
      text: { body: botText ?? "" },
    });
  });

  test("later messages from the same number continue its session; another number gets its own", async () => {
    await say("hello");
    await say("What are your opening hours?");
    await say("hello", "447911123456");
    const rows = await sessions();
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.visitor_ref === VISITOR)?.message_count).toBe(2);
    expect(sent.map((message) => message.body.to)).toEqual([VISITOR, VISITOR, "447911123456"]);
  });

  test("up to 3 quick replies become reply buttons: titles cut to 20 characters, ids carrying the full text", async () => {
    await say("Can I book an appointment?");
    const stored = await (await testSql(context.deps)).get<{ quick_replies: string }>(
      "SELECT CAST(quick_replies AS TEXT) AS quick_replies FROM chat_messages WHERE role = 'bot'",
    );
    const quickReplies = JSON.parse(stored?.quick_replies ?? "[]") as string[];
    expect(quickReplies).toEqual(["Thu, Jan 15, 9:00 AM", "Thu, Jan 15, 9:30 AM", "Thu, Jan 15, 10:00 AM"]);
    expect(sent[0]?.body).toMatchObject({ to: VISITOR, type: "interactive" });
    expect(sent[0]?.body.interactive).toEqual({
      type: "button",
      body: { text: expect.stringContaining("Which day and time") },
      action: {
        buttons: [
          { type: "reply", reply: { id: "parley:Thu, Jan 15, 9:00 AM", title: "Thu, Jan 15, 9:00 AM" } },
          { type: "reply", reply: { id: "parley:Thu, Jan 15, 9:30 AM", title: "Thu, Jan 15, 9:30 AM" } },
          { type: "reply", reply: { id: "parley:Thu, Jan 15, 10:00 AM", title: "Thu, Jan 15, 10:00 …" } },
        ],
      },
    });

    // Tapping the cut button gives the bot the slot it offered, not the cut title.
    const tap = {
      from: VISITOR,
      id: "wamid.tapslot",
      type: "interactive",
      interactive: {
        type: "button_reply",
        button_reply: { id: "parley:Thu, Jan 15, 10:00 AM", title: "Thu, Jan 15, 10:00 …" },
      },
    };
    await postHook(envelope({ messages: [tap] }));
    expect(sent[1]?.body.interactive).toMatchObject({ body: { text: expect.stringContaining("Jan 15, 10:00 AM") } });
  });

  test("more than 3 quick replies become a list message with one row each", async () => {
    await say("hi");
    const interactive = sent[0]?.body.interactive as {
      type: string;
      action: { button: string; sections: Array<{ rows: Array<{ id: string; title: string }> }> };
    };
    expect(interactive.type).toBe("list");
    const rows = interactive.action.sections[0]?.rows ?? [];
    expect(rows.map((row) => row.id)).toEqual(
      [
        "What are your opening hours?",
        "Where are you located?",
        "How much do your services cost?",
        "Book an appointment",
        "Talk to a person",
      ].map((option) => `parley:${option}`),
    );
    expect(rows.every((row) => row.title.length <= 24)).toBe(true);
  });

  test("a tapped button's title is handled as the visitor's message text", async () => {
    const tap = {
      from: VISITOR,
      id: "wamid.tap1",
      type: "interactive",
      interactive: { type: "button_reply", button_reply: { id: "someone-elses-id", title: "Opening hours" } },
    };
    expect((await postHook(envelope({ messages: [tap] }))).status).toBe(200);
    const visitorText = (await messageTexts("visitor"))[0];
    expect(visitorText).toBe("Opening hours");
    expect(sent).toHaveLength(1);
  });

  test("a tapped Parley button and a list row are read as the full quick-reply text", async () => {
    const button = {
      from: VISITOR,
      id: "wamid.tap2",
      type: "interactive",
      interactive: {
        type: "button_reply",
        button_reply: { id: "parley:Book an appointment now please", title: "Book an appointment…" },
      },
    };
    const row = {
      from: VISITOR,
      id: "wamid.tap3",
      type: "interactive",
      interactive: { type: "list_reply", list_reply: { id: "row-7", title: "Prices" } },
    };
    expect(await (await postHook(envelope({ messages: [button, row] }))).json()).toMatchObject({ handled: 2 });
    const texts = await messageTexts("visitor");
    expect(texts).toEqual(["Book an appointment now please", "Prices"]);
  });

  test("the same message id delivered twice is handled and answered once", async () => {
    const body = envelope({ messages: [textMessage("hello", VISITOR, "wamid.dup")] });
    expect(await (await postHook(body)).json()).toEqual({ received: true, handled: 1, duplicates: 0, ignored: 0 });
    context.clock.advance(60_000);
    const retry = await postHook(body);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ received: true, handled: 0, duplicates: 1, ignored: 0 });
    expect(sent).toHaveLength(1);
    expect((await sessions())[0]?.message_count).toBe(1);
  });

  test("a statuses-only payload should return 200 and send nothing", async () => {
    const body = envelope({
      statuses: [{ id: "wamid.out", status: "delivered", timestamp: "1768467601", recipient_id: VISITOR }],
    });
    const response = await postHook(body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, handled: 0, duplicates: 0, ignored: 0 });
    expect(sent).toEqual([]);
    expect(await sessions()).toEqual([]);
  });

  test("images and messages to another of the business's numbers are acknowledged and ignored", async () => {
    const image = { from: VISITOR, id: "wamid.img", type: "image", image: { id: "media1", mime_type: "image/jpeg" } };
    const elsewhere = JSON.parse(envelope({ messages: [textMessage("hello")] }));
    elsewhere.entry[0].changes[0].value.metadata.phone_number_id = "999999999";
    expect(await (await postHook(envelope({ messages: [image] }))).json()).toEqual({
      received: true,
      handled: 0,
      duplicates: 0,
      ignored: 1,
    });
    expect(await (await postHook(JSON.stringify(elsewhere))).json()).toEqual({
      received: true,
      handled: 0,
      duplicates: 0,
      ignored: 1,
    });
    expect(sent).toEqual([]);
  });

  test("a hand-off keyword emits handoff.requested and the bot stays silent afterwards", async () => {
    await say("Can I talk to a human please?");
    expect((await sessions())[0]?.status).toBe("handoff");
    const handoff = (await deliverAll(context)).find((delivery) => delivery.event === "handoff.requested");
    expect(handoff?.data).toMatchObject({
      session_id: (await sessions())[0]?.id,
      last_message: "Can I talk to a human please?",
    });
    const before = sent.length;
    const later = await say("hello? anyone there?");
    expect(later.status).toBe(200);
    expect(await later.json()).toMatchObject({ handled: 1 });
    expect(sent).toHaveLength(before);
    expect((await sessions())[0]?.message_count).toBe(2);
  });

  test("an operator's reply in a handed-off WhatsApp session reaches the visitor's number", async () => {
    await say("Can I talk to a human please?");
    await settleWhatsappReplies();
    const before = sent.length;
    const sessionId = (await sessions())[0]?.id ?? "";
    const posted = await context.request("POST", `/api/v1/sessions/${sessionId}/operator-messages`, {
      headers: { "x-api-key": seeded.apiKey },
      body: { text: "Hi, this is Sam from the front desk." },
    });
    expect(posted.status).toBe(201);
    await settleWhatsappReplies();
    expect(sent.slice(before)).toEqual([
      {
        path: `/v21.0/${SETTINGS.phone_number_id}/messages`,
        authorization: `Bearer ${SETTINGS.access_token}`,
        body: {
          messaging_product: "whatsapp",
          recipient_type: "individual",
          to: VISITOR,
          type: "text",
          text: { body: "Hi, this is Sam from the front desk." },
        },
      },
    ]);
  });

  test("a named operator's reply reaches WhatsApp headed with their name in bold", async () => {
    await say("Can I talk to a human please?");
    await settleWhatsappReplies();
    const before = sent.length;
    const sessionId = (await sessions())[0]?.id ?? "";
    await createUser(context.deps, {
      email: "sam@wadental.test",
      tenantId: seeded.tenant.id,
      role: "agent",
      password: "correct horse battery",
      displayName: "Sam *Front* Desk",
    });
    const sam = await login(context, "sam@wadental.test", "correct horse battery");
    const posted = await context.request("POST", `/api/v1/sessions/${sessionId}/operator-messages`, {
      headers: { authorization: `Bearer ${sam.access_token}` },
      body: { text: "On my way to help." },
    });
    expect(posted.status).toBe(201);
    expect((await posted.json()).text).toBe("On my way to help.");
    await settleWhatsappReplies();
    expect(sent.slice(before).map((request) => (request.body as { text: { body: string } }).text.body)).toEqual([
      "*Sam Front Desk:* On my way to help.",
    ]);
  });

  test("a lead captured over WhatsApp emits lead.created with source whatsapp", async () => {
    for (const text of ["I'd like a quote for Invisalign", "Ana Lopez", "(415) 555-0132", "ana@example.com"])
      expect((await say(text)).status).toBe(200);
    const lead = (await deliverAll(context)).find((delivery) => delivery.event === "lead.created");
    expect(lead?.data).toMatchObject({
      session_id: (await sessions())[0]?.id,
      name: "Ana Lopez",
      phone: "+14155550132",
      source: "whatsapp",
    });
  });

  test("the Cloud API answering 500 still answers Meta 200, and the failure is logged without the token", async () => {
    const logged: Record<string, unknown>[] = [];
    context.close();
    context = buildTestApp({
      allowPrivateWebhooks: true,
      rateLimits: false,
      whatsappApiUrl: `http://127.0.0.1:${cloudApi.port}/v21.0`,
    });
    (context.deps as { log: unknown }).log = {
      info: () => {},
      error: (fields: Record<string, unknown>) => logged.push(fields),
    };
    seeded = await seedTenant(context.deps, "Failing");
    await putSettings(seeded.apiKey);
    nextStatus = 500;
    const response = await say("hello");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ handled: 1 });
    expect(sent).toHaveLength(1);
    const failure = logged.find((fields) => fields.msg === "whatsapp_reply_failed");
    expect(failure).toMatchObject({ tenant_id: seeded.tenant.id, status: 500 });
    expect(JSON.stringify(logged)).not.toContain(SETTINGS.access_token);
  });

  test("an unreachable Cloud API still answers Meta 200", async () => {
    context.close();
    context = buildTestApp({
      allowPrivateWebhooks: true,
      rateLimits: false,
      whatsappApiUrl: "http://127.0.0.1:9/v21.0",
    });
    seeded = await seedTenant(context.deps, "Unreachable");
    await putSettings(seeded.apiKey);
    expect((await say("hello")).status).toBe(200);
    expect(await sessions()).toHaveLength(1);
  });

  test("a used-up quota answers Meta 200, stores nothing and sends no reply", async () => {
    await (await testSql(context.deps)).run(
      "INSERT INTO usage_counters (tenant_id, period, messages, threshold_notified_at) VALUES (?, ?, 1000, 1)",
      seeded.tenant.id,
      periodOf(context.clock.now()),
    );
    const response = await say("hello");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, handled: 0, duplicates: 0, ignored: 1 });
    expect(sent).toEqual([]);
    expect(await sessions()).toEqual([]);
  });
});

describe("GET/PUT /api/v1/integrations/whatsapp", () => {
  test("GET says what is set and never returns a secret", async () => {
    const response = await context.request("GET", "/api/v1/integrations/whatsapp", {
      headers: { "x-api-key": seeded.apiKey },
    });
    expect(response.status).toBe(200);
    const status = await response.json();
    expect(status).toEqual({
      configured: true,
      verify_token_set: true,
      app_secret_set: true,
      access_token_set: true,
      phone_number_id: SETTINGS.phone_number_id,
      callback_url: `http://localhost:3000/api/v1/hooks/whatsapp/${seeded.tenant.id}`,
    });
    for (const secret of [SETTINGS.verify_token, SETTINGS.app_secret, SETTINGS.access_token])
      expect(JSON.stringify(status)).not.toContain(secret);
    const bare = await seedTenant(context.deps, "Bare");
    expect(
      await (
        await context.request("GET", "/api/v1/integrations/whatsapp", { headers: { "x-api-key": bare.apiKey } })
      ).json(),
    ).toMatchObject({ configured: false, app_secret_set: false, phone_number_id: null });
  });

  test("an owner's Bearer token works; an agent's gets 403; no credentials 401", async () => {
    const { access_token } = await login(context, seeded.email);
    const owner = await context.request("PUT", `/api/v1/integrations/whatsapp?tenant_id=${seeded.tenant.id}`, {
      body: SETTINGS,
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(owner.status).toBe(200);
    await createUser(context.deps, {
      email: "agent@wadental.test",
      tenantId: seeded.tenant.id,
      role: "agent",
      password: "correct horse battery",
    });
    const agent = await login(context, "agent@wadental.test");
    expect(
      (
        await context.request("PUT", "/api/v1/integrations/whatsapp", {
          body: SETTINGS,
          headers: { authorization: `Bearer ${agent.access_token}` },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await context.request("GET", "/api/v1/integrations/whatsapp", {
          headers: { authorization: `Bearer ${agent.access_token}` },
        })
      ).status,
    ).toBe(403);
    expect((await context.request("PUT", "/api/v1/integrations/whatsapp", { body: SETTINGS })).status).toBe(401);
  });

  test("a short secret, a non-numeric phone number id, a missing or unknown key should return 422", async () => {
    const short = await putSettings(seeded.apiKey, { ...SETTINGS, app_secret: "short" });
    expect(short.status).toBe(422);
    expect(await short.json()).toMatchObject({ error: "validation_failed", details: [{ field: "app_secret" }] });
    const badId = await putSettings(seeded.apiKey, { ...SETTINGS, phone_number_id: "../../me" });
    expect(await badId.json()).toMatchObject({ details: [{ field: "phone_number_id" }] });
    const { access_token: _omitted, ...missing } = SETTINGS;
    expect((await putSettings(seeded.apiKey, missing)).status).toBe(422);
    expect((await putSettings(seeded.apiKey, { ...SETTINGS, provider: "meta" })).status).toBe(422);
  });

  test("new settings replace the old: the old app secret no longer verifies", async () => {
    const body = envelope({ messages: [textMessage("hello")] });
    expect(
      (await putSettings(seeded.apiKey, { ...SETTINGS, app_secret: "rotated-app-secret-0123456789" })).status,
    ).toBe(200);
    expect((await postHook(body)).status).toBe(401);
    expect((await postHook(body, { signature: sign(body, "rotated-app-secret-0123456789") })).status).toBe(200);
  });
});

describe("hooks rate groups on the WhatsApp hook", () => {
  test("unsigned posts are limited per sender (429 after 60) and do not use up the tenant's allowance for signed ones", async () => {
    context.close();
    context = buildTestApp({ whatsappApiUrl: `http://127.0.0.1:${cloudApi.port}/v21.0` });
    seeded = await seedTenant(context.deps, "Busy");
    expect((await putSettings(seeded.apiKey)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await postHook("{}", { signature: null })).status);
    expect(statuses.slice(0, 60).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(60).every((status) => status === 429)).toBe(true);
    context.clock.advance(61_000);
    const body = envelope({ messages: [textMessage("hello")] });
    const signed = await postHook(body);
    expect(signed.status).toBe(200);
    expect(signed.headers.get("ratelimit-remaining")).toBe("499");
  });
});
