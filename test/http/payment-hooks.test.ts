import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { createUser } from "../../src/auth/create-user.ts";
import { buildTestApp, login, seedTenant, testSql, type TestContext } from "../helpers.ts";
import { deliverAll, subscribeToEverything } from "./chat-helpers.ts";

const SECRET = "whsec_test_0123456789abcdefABCDEF";
const CREATED = 1768467000; // 2026-01-15T08:50:00Z, ten minutes before the fake clock's start
const CREATED_ISO = "2026-01-15T08:50:00.000Z";

let context: TestContext;
let seeded: Awaited<ReturnType<typeof seedTenant>>;
const nowSec = () => Math.floor(context.clock.now() / 1000);

/** A Stripe-Signature header built by hand over the exact text sent. */
const sign = (body: string, secret = SECRET, timestamp = nowSec()) =>
  `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex")}`;

const stripeEvent = (type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: `evt_${type.replaceAll(".", "_")}`,
    object: "event",
    api_version: "2024-06-20",
    created: CREATED,
    livemode: false,
    type,
    data: { object },
    ...extra,
  });

function postHook(body: string, options: { tenantId?: string; signature?: string | null; contentType?: string } = {}) {
  const headers: Record<string, string> = { "content-type": options.contentType ?? "application/json; charset=utf-8" };
  const signature = options.signature === undefined ? sign(body) : options.signature;
  if (signature !== null) headers["stripe-signature"] = signature;
  return context.request("POST", `/api/v1/hooks/payments/${options.tenantId ?? seeded.tenant.id}`, {
    rawBody: body,
    headers,
  });
}

const countEvents = async () =>
  (await (await testSql(context.deps)).get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM events"))?.n;

beforeEach(async () => {
  context = buildTestApp({ allowPrivateWebhooks: true, rateLimits: false });
  seeded = await seedTenant(context.deps, "Payco");
  const response = await context.request("PUT", "/api/v1/integrations/payments", {
    body: { secret: SECRET },
    headers: { "x-api-key": seeded.apiKey },
  });
  expect(response.status).toBe(200);
  await subscribeToEverything(context, seeded.tenant.id);
});
afterEach(() => context.close());

describe("POST /api/v1/hooks/payments/:tenant_id — mapped Stripe events", () => {
  const cases: Array<{ type: string; object: Record<string, unknown>; event: string; data: Record<string, unknown> }> =
    [
      {
        type: "payment_intent.succeeded",
        object: {
          id: "pi_3QkF2nL8x9YzAbCd1EfGh2Ij",
          object: "payment_intent",
          amount: 5000,
          amount_received: 4900,
          currency: "eur",
          receipt_email: "billing@example-dental.com",
          status: "succeeded",
        },
        event: "payment.succeeded",
        data: {
          payment_id: "pi_3QkF2nL8x9YzAbCd1EfGh2Ij",
          amount: 4900,
          currency: "EUR",
          customer_email: "billing@example-dental.com",
          provider: "stripe",
          occurred_at: CREATED_ISO,
        },
      },
      {
        type: "charge.succeeded",
        object: {
          id: "ch_1",
          object: "charge",
          amount: 1999,
          currency: "usd",
          receipt_email: null,
          billing_details: { email: "payer@example.com", name: "Pat" },
        },
        event: "payment.succeeded",
        data: {
          payment_id: "ch_1",
          amount: 1999,
          currency: "USD",
          customer_email: "payer@example.com",
          provider: "stripe",
          occurred_at: CREATED_ISO,
        },
      },
      {
        type: "invoice.paid",
        object: {
          id: "in_1",
          object: "invoice",
          amount_due: 12900,
          amount_paid: 12900,
          amount_remaining: 0,
          total: 12900,
          currency: "gbp",
          customer_email: "ap@example.co.uk",
        },
        event: "payment.succeeded",
        data: {
          payment_id: "in_1",
          amount: 12900,
          currency: "GBP",
          customer_email: "ap@example.co.uk",
          provider: "stripe",
          occurred_at: CREATED_ISO,
        },
      },
      {
        type: "checkout.session.completed",
        object: {
          id: "cs_test_1",
          object: "checkout.session",
          amount_subtotal: 3000,
          amount_total: 2500,
          currency: "eur",
          customer_email: null,
          customer_details: { email: "buyer@example.com" },
          payment_status: "paid",
        },
        event: "payment.succeeded",
        data: {
          payment_id: "cs_test_1",
          amount: 2500,
          currency: "EUR",
          customer_email: "buyer@example.com",
          provider: "stripe",
          occurred_at: CREATED_ISO,
        },
      },
      {
        type: "payment_intent.payment_failed",
        object: {
          id: "pi_3QkF3pM9y0ZaBcDe2FgHi3Jk",
          object: "payment_intent",
          amount: 4900,
          amount_received: 0,
          currency: "eur",
          receipt_email: null,
          last_payment_error: {
            code: "card_declined",
            decline_code: "insufficient_funds",
            payment_method: { billing_details: { email: "billing@example-dental.com" } },
          },
        },
        event: "payment.failed",
        data: {
          payment_id: "pi_3QkF3pM9y0ZaBcDe2FgHi3Jk",
          amount: 4900,
          currency: "EUR",
          customer_email: "billing@example-dental.com",
          provider: "stripe",
          failure_reason: "card_declined",
          occurred_at: CREATED_ISO,
        },
      },
      {
        type: "charge.failed",
        object: {
          id: "ch_2",
          object: "charge",
          amount: 700,
          currency: "chf",
          receipt_email: null,
          billing_details: { email: null },
          failure_code: "expired_card",
        },
        event: "payment.failed",
        data: {
          payment_id: "ch_2",
          amount: 700,
          currency: "CHF",
          customer_email: null,
          provider: "stripe",
          failure_reason: "expired_card",
          occurred_at: CREATED_ISO,
        },
      },
      {
        type: "invoice.payment_failed",
        object: {
          id: "in_2",
          object: "invoice",
          amount_due: 12900,
          amount_paid: 0,
          currency: "eur",
          customer_email: "ap@example.com",
        },
        event: "payment.failed",
        data: {
          payment_id: "in_2",
          amount: 12900,
          currency: "EUR",
          customer_email: "ap@example.com",
          provider: "stripe",
          failure_reason: "unknown",
          occurred_at: CREATED_ISO,
        },
      },
    ];

  for (const { type, object, event, data } of cases) {
    test(`${type} becomes ${event} with the catalog's data shape`, async () => {
      const response = await postHook(stripeEvent(type, object));
      expect(response.status).toBe(200);
      const answer = await response.json();
      expect(answer).toEqual({ received: true, event, event_id: expect.stringMatching(/^evt_/) });
      const delivered = (await deliverAll(context)).filter((body) => body.event.startsWith("payment."));
      expect(delivered).toHaveLength(1);
      expect(delivered[0]?.event).toBe(event);
      expect(delivered[0]?.data).toEqual(data);
      // Same keys, same order as the catalog example receivers were promised.
      expect(Object.keys(delivered[0]?.data ?? {})).toEqual(Object.keys(data));
    });
  }

  test("an event without created is dated now", async () => {
    const body = JSON.stringify({
      id: "evt_nocreated",
      type: "charge.succeeded",
      data: { object: { id: "ch_3", amount: 100, currency: "eur" } },
    });
    expect((await postHook(body)).status).toBe(200);
    const [delivered] = await deliverAll(context);
    expect(delivered?.data).toMatchObject({ occurred_at: "2026-01-15T09:00:00.000Z", customer_email: null });
  });

  test("a checkout completed with an unpaid delayed payment is not reported as succeeded", async () => {
    const response = await postHook(
      stripeEvent("checkout.session.completed", {
        id: "cs_2",
        amount_total: 2500,
        currency: "eur",
        payment_status: "unpaid",
      }),
    );
    expect(await response.json()).toEqual({ received: true, ignored: true });
    expect(await countEvents()).toBe(0);
  });

  test("unmapped event types are acknowledged and ignored", async () => {
    for (const type of ["customer.created", "payment_intent.created", "charge.refunded"]) {
      const response = await postHook(stripeEvent(type, { id: "x_1" }));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true, ignored: true });
    }
    expect(await countEvents()).toBe(0);
    expect(await deliverAll(context)).toEqual([]);
  });

  test("the same provider event delivered twice produces one Parley event", async () => {
    const body = stripeEvent("payment_intent.succeeded", { id: "pi_dup", amount_received: 4900, currency: "eur" });
    const first = await (await postHook(body)).json();
    context.clock.advance(30_000);
    const retry = await postHook(body);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ received: true, duplicate: true, event_id: first.event_id });
    expect((await deliverAll(context)).filter((delivery) => delivery.event === "payment.succeeded")).toHaveLength(1);
  });

  test("the same provider event id for another tenant is that tenant's own event", async () => {
    const other = await seedTenant(context.deps, "Otherpay");
    await context.request("PUT", "/api/v1/integrations/payments", {
      body: { secret: "whsec_other_tenant_secret_42" },
      headers: { "x-api-key": other.apiKey },
    });
    const body = stripeEvent("charge.succeeded", { id: "ch_shared", amount: 100, currency: "eur" });
    expect(await (await postHook(body)).json()).toMatchObject({ event: "payment.succeeded" });
    expect(
      await (
        await postHook(body, { tenantId: other.tenant.id, signature: sign(body, "whsec_other_tenant_secret_42") })
      ).json(),
    ).toMatchObject({ event: "payment.succeeded" });
    expect(await countEvents()).toBe(2);
  });
});

describe("POST /api/v1/hooks/payments/:tenant_id — refusals", () => {
  const body = stripeEvent("payment_intent.succeeded", { id: "pi_1", amount_received: 4900, currency: "eur" });

  test("the signature is checked over the exact bytes sent, whitespace and escapes included", async () => {
    const spaced = `{\n  "id": "evt_spaced",\n  "type": "charge.succeeded",\n  "data": { "object": { "id": "ch_\\u00e9", "amount": 100, "currency": "eur", "receipt_email": "zo\u00eb@example.com" } }\n}`;
    const response = await postHook(spaced);
    expect(response.status).toBe(200);
    // The same event re-serialized compactly does not carry the signature of the original bytes.
    const reserialized = await postHook(JSON.stringify(JSON.parse(spaced)), { signature: sign(spaced) });
    expect(reserialized.status).toBe(401);
    const [delivered] = await deliverAll(context);
    expect(delivered?.data).toMatchObject({ payment_id: "ch_\u00e9", customer_email: "zo\u00eb@example.com" });
  });

  test("no Stripe-Signature header should return 401 invalid_signature", async () => {
    const response = await postHook(body, { signature: null });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "invalid_signature" });
  });

  test("a signature made with another secret should return 401", async () => {
    expect((await postHook(body, { signature: sign(body, "whsec_not_the_tenants_secret_0") })).status).toBe(401);
    expect((await postHook(body, { signature: "t=123,v1=nothex" })).status).toBe(401);
  });

  test("a correctly signed request replayed more than 5 minutes later should return 401", async () => {
    const signature = sign(body);
    context.clock.advance(5 * 60_000);
    expect((await postHook(body, { signature })).status).toBe(200);
    context.clock.advance(1_000);
    const replayed = await postHook(body, { signature });
    expect(replayed.status).toBe(401);
    expect((await replayed.json()).message).toContain("tolerance");
  });

  test("several v1 signatures are accepted when one matches", async () => {
    const good = sign(body).split(",")[1];
    expect((await postHook(body, { signature: `t=${nowSec()},v1=${"ab".repeat(32)},${good}` })).status).toBe(200);
  });

  test("an unknown tenant and a tenant without a secret both answer 404, alike", async () => {
    const bare = await seedTenant(context.deps, "Nosecret");
    const unknown = await postHook(body, { tenantId: "ten_00000000000000000000000000" });
    const withoutSecret = await postHook(body, { tenantId: bare.tenant.id });
    expect(unknown.status).toBe(404);
    expect(withoutSecret.status).toBe(404);
    expect(await withoutSecret.json()).toEqual(await unknown.json());
  });

  test("a request signed with one tenant's secret posted to another tenant's URL should return 401", async () => {
    const other = await seedTenant(context.deps, "Otherpay");
    await context.request("PUT", "/api/v1/integrations/payments", {
      body: { secret: "whsec_other_tenant_secret_42" },
      headers: { "x-api-key": other.apiKey },
    });
    expect((await postHook(body, { tenantId: other.tenant.id })).status).toBe(401);
    expect(await countEvents()).toBe(0);
  });

  test("a body that is not JSON should return 400; JSON without id or type 422 invalid_event", async () => {
    const broken = await postHook("{not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: "invalid_json" });
    const noType = await postHook('{"id":"evt_1","data":{}}');
    expect(noType.status).toBe(422);
    expect(await noType.json()).toMatchObject({ error: "invalid_event" });
    expect(await countEvents()).toBe(0);
  });

  test("a body over 64 KiB should return 413; a non-JSON content type 415", async () => {
    const big = JSON.stringify({ id: "evt_big", type: "charge.succeeded", pad: "x".repeat(65 * 1024) });
    const tooLarge = await postHook(big);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: "payload_too_large" });
    expect((await postHook(body, { contentType: "text/plain" })).status).toBe(415);
  });

  test("an oversized body streamed without Content-Length still answers 413 (the raw-body copy never stalls it)", async () => {
    const chunk = new Uint8Array(8 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 12; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const request = new Request(`http://localhost/api/v1/hooks/payments/${seeded.tenant.id}`, {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
    });
    const answer = await Promise.race([context.app.handle(request), Bun.sleep(2_000).then(() => null)]);
    expect(answer?.status).toBe(413);
  });

  test("a signed body streamed in small chunks is verified over the reassembled bytes", async () => {
    const bytes = new TextEncoder().encode(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const request = new Request(`http://localhost/api/v1/hooks/payments/${seeded.tenant.id}`, {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json", "stripe-signature": sign(body) },
    });
    expect((await context.app.handle(request)).status).toBe(200);
  });
});

describe("hooks rate groups: signed events per tenant, rejects per sender", () => {
  beforeEach(async () => {
    context.close();
    context = buildTestApp();
    seeded = await seedTenant(context.deps, "Busy");
    expect(
      (
        await context.request("PUT", "/api/v1/integrations/payments", {
          body: { secret: SECRET },
          headers: { "x-api-key": seeded.apiKey },
        })
      ).status,
    ).toBe(200);
  });

  test("500 unsigned posts to the tenant's hook never block its next signed event; the sender gets 429 after 60", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 500; i++) statuses.push((await postHook("{}", { signature: null })).status);
    // The first 60 rejects are answered 401; after that the junk sender is refused outright.
    expect(statuses.slice(0, 60).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(60).every((status) => status === 429)).toBe(true);
    // A minute later the sender's bucket has drained; the signed event is counted against the
    // tenant's allowance, which the junk never touched.
    context.clock.advance(61_000);
    const signed = await postHook(
      stripeEvent("payment_intent.succeeded", { id: "pi_1", amount_received: 100, currency: "usd" }),
    );
    expect(signed.status).toBe(200);
    expect(signed.headers.get("ratelimit-limit")).toBe("500");
    expect(signed.headers.get("ratelimit-remaining")).toBe("499");
  });

  test("signed events count against the tenant's 500 per 60 s; the 501st is 429 with Retry-After", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 501; i++)
      statuses.push((await postHook(stripeEvent("customer.created", { id: `cus_${i}` }, { id: `evt_${i}` }))).status);
    expect(statuses.slice(0, 500).every((status) => status === 200)).toBe(true);
    expect(statuses[500]).toBe(429);
    const limited = await postHook(stripeEvent("customer.created", { id: "cus_x" }, { id: "evt_x" }));
    expect(limited.headers.get("retry-after")).toBe("60");
  });
});

describe("PUT and GET /api/v1/integrations/payments", () => {
  test("an API key sets the secret; the answer and the status never echo it", async () => {
    const put = await context.request("PUT", "/api/v1/integrations/payments", {
      body: { secret: "whsec_another_secret_value_9" },
      headers: { "x-api-key": seeded.apiKey },
    });
    expect(put.status).toBe(200);
    const text = await put.text();
    expect(JSON.parse(text)).toEqual({ tenant_id: seeded.tenant.id, payment_secret_set: true });
    expect(text).not.toContain("whsec_");
    const get = await context.request("GET", "/api/v1/integrations/payments", {
      headers: { "x-api-key": seeded.apiKey },
    });
    expect(await get.json()).toEqual({ payment_secret_set: true });
  });

  test("a tenant without a secret reads payment_secret_set: false", async () => {
    const bare = await seedTenant(context.deps, "Nosecret");
    const get = await context.request("GET", "/api/v1/integrations/payments", {
      headers: { "x-api-key": bare.apiKey },
    });
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ payment_secret_set: false });
  });

  test("an owner's Bearer token works; an agent's gets 403; no credentials 401", async () => {
    const { access_token } = await login(context, seeded.email);
    const owner = await context.request("PUT", `/api/v1/integrations/payments?tenant_id=${seeded.tenant.id}`, {
      body: { secret: "whsec_owner_set_this_one_1" },
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(owner.status).toBe(200);
    await createUser(context.deps, {
      email: "agent@payco.test",
      tenantId: seeded.tenant.id,
      role: "agent",
      password: "correct horse battery",
    });
    const agent = await login(context, "agent@payco.test");
    const forbidden = await context.request("PUT", "/api/v1/integrations/payments", {
      body: { secret: "whsec_agent_tries_this_1" },
      headers: { authorization: `Bearer ${agent.access_token}` },
    });
    expect(forbidden.status).toBe(403);
    expect(
      (
        await context.request("GET", "/api/v1/integrations/payments", {
          headers: { authorization: `Bearer ${agent.access_token}` },
        })
      ).status,
    ).toBe(403);
    expect(
      (await context.request("PUT", "/api/v1/integrations/payments", { body: { secret: "whsec_anonymous_secret_1" } }))
        .status,
    ).toBe(401);
  });

  test("a short secret or an unknown body key should return 422; another tenant's id 404", async () => {
    const short = await context.request("PUT", "/api/v1/integrations/payments", {
      body: { secret: "short" },
      headers: { "x-api-key": seeded.apiKey },
    });
    expect(short.status).toBe(422);
    expect(await short.json()).toMatchObject({ error: "validation_failed", details: [{ field: "secret" }] });
    const extra = await context.request("PUT", "/api/v1/integrations/payments", {
      body: { secret: SECRET, provider: "stripe" },
      headers: { "x-api-key": seeded.apiKey },
    });
    expect(extra.status).toBe(422);
    const other = await seedTenant(context.deps, "Otherpay");
    const cross = await context.request("GET", `/api/v1/integrations/payments?tenant_id=${other.tenant.id}`, {
      headers: { "x-api-key": seeded.apiKey },
    });
    expect(cross.status).toBe(404);
  });
});
