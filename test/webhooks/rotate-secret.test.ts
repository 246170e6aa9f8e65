import { afterEach, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { DeliveryScheduler, type SendFn } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { verifyServiceSignature } from "../../src/webhooks/sign.ts";
import type { SendWebhookInput } from "../../src/webhooks/send-webhook.ts";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";

const HOUR = 3_600_000;
const OLD_SECRET = "whsec_old_0123456789abcdef";
const NEW_SECRET = "whsec_new_fedcba9876543210";
const fakeDns = async () => ["93.184.216.34"];

let context: TestContext;
let tenant: Awaited<ReturnType<typeof seedTenant>>;
let ruleId: string;
let sent: SendWebhookInput[];

const send: SendFn = async (input) => {
  sent.push(input);
  return { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "ok" };
};
const as = (key: string) => ({ "x-api-key": key });
const rotate = (id: string, body: unknown, key = tenant.apiKey) =>
  context.request("POST", `/api/v1/webhooks/rules-engine/rules/${id}/rotate-secret`, { body, headers: as(key) });

beforeEach(async () => {
  context = buildTestApp({ rateLimits: false }, {}, { resolveHost: fakeDns });
  tenant = await seedTenant(context.deps, "Alpha");
  sent = [];
  const created = await context.request("POST", "/api/v1/webhooks/rules-engine/rules", {
    body: { name: "CRM", event: "lead.created", url: "https://crm.example.com/hooks", secret: OLD_SECRET },
    headers: as(tenant.apiKey),
  });
  ruleId = (await created.json()).rule_id;
});
afterEach(() => {
  setSystemTime();
  context.close();
});

/** One lead.created delivered through the scheduler at the fake clock's time: the request it sent. */
async function deliverOne(): Promise<SendWebhookInput> {
  const deps = context.deps;
  await deps.store.transaction((tx) =>
    enqueueEvent(deps, tx, { tenantId: tenant.tenant.id, event: "lead.created", data: { lead_id: "lead_1" } }),
  );
  await new DeliveryScheduler(deps, { send }).runOnce();
  const request = sent.at(-1);
  if (!request) throw new Error("nothing was sent");
  return request;
}

/** Whether the standardwebhooks library accepts the request with `secret`, its clock at the send time. */
function standardVerifies(request: SendWebhookInput, secret: string): boolean {
  setSystemTime(new Date(Number(request.headers["webhook-timestamp"]) * 1000));
  try {
    new Webhook(Buffer.from(secret).toString("base64")).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  }
}

describe("rotating a rule's secret", () => {
  test("during the overlap both secrets verify, X-Service-Signature uses the new one; after it only the new", async () => {
    const response = await rotate(ruleId, { secret: NEW_SECRET, overlap: "2h" });
    expect(response.status).toBe(200);
    const rotatedAt = context.clock.now();
    expect(await response.json()).toEqual({
      ok: true,
      rule_id: ruleId,
      secret: NEW_SECRET,
      previous_secret_expires_at: new Date(rotatedAt + 2 * HOUR).toISOString(),
    });

    context.clock.advance(HOUR);
    const during = await deliverOne();
    expect(during.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(standardVerifies(during, NEW_SECRET)).toBe(true);
    expect(standardVerifies(during, OLD_SECRET)).toBe(true);
    expect(verifyServiceSignature(NEW_SECRET, during.body, during.headers["X-Service-Signature"] ?? "")).toBe(true);
    expect(verifyServiceSignature(OLD_SECRET, during.body, during.headers["X-Service-Signature"] ?? "")).toBe(false);
    expect(JSON.parse(during.body).signature).toBe(during.headers["X-Service-Signature"]);

    context.clock.set(rotatedAt + 2 * HOUR);
    const after = await deliverOne();
    expect(after.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
    expect(standardVerifies(after, NEW_SECRET)).toBe(true);
    expect(standardVerifies(after, OLD_SECRET)).toBe(false);
  });

  test("a delivery handed to a running scheduler as it is enqueued is signed with both secrets too", async () => {
    await rotate(ruleId, { secret: NEW_SECRET });
    const scheduler = new DeliveryScheduler(context.deps, { send });
    scheduler.start();
    try {
      const deps = context.deps;
      await deps.store.transaction((tx) =>
        enqueueEvent(deps, tx, { tenantId: tenant.tenant.id, event: "lead.created", data: { lead_id: "lead_2" } }),
      );
      for (let waited = 0; sent.length === 0 && waited < 2_000; waited += 5) await Bun.sleep(5);
    } finally {
      await scheduler.stop();
    }
    const [request] = sent;
    if (!request) throw new Error("nothing was sent");
    expect(standardVerifies(request, NEW_SECRET)).toBe(true);
    expect(standardVerifies(request, OLD_SECRET)).toBe(true);
  });

  test("the new signature comes first, as `v1,<new> v1,<old>`", async () => {
    await rotate(ruleId, { secret: NEW_SECRET });
    const request = await deliverOne();
    const [first, second] = request.headers["webhook-signature"]?.split(" ") ?? [];
    const withOnly = (signature = "") => ({
      ...request,
      headers: { ...request.headers, "webhook-signature": signature },
    });
    expect(standardVerifies(withOnly(first), NEW_SECRET)).toBe(true);
    expect(standardVerifies(withOnly(first), OLD_SECRET)).toBe(false);
    expect(standardVerifies(withOnly(second), OLD_SECRET)).toBe(true);
  });

  test("the default overlap is 24 hours, and the rule shows when it ends", async () => {
    const body = await (await rotate(ruleId, { secret: NEW_SECRET })).json();
    const ends = new Date(context.clock.now() + 24 * HOUR).toISOString();
    expect(body.previous_secret_expires_at).toBe(ends);
    const rule = await (
      await context.request("GET", `/api/v1/webhooks/rules-engine/rules/${ruleId}`, { headers: as(tenant.apiKey) })
    ).json();
    expect(rule.previous_secret_expires_at).toBe(ends);
    expect(JSON.stringify(rule)).not.toContain(NEW_SECRET);
    context.clock.advance(24 * HOUR - 1000);
    expect(standardVerifies(await deliverOne(), OLD_SECRET)).toBe(true);
    context.clock.advance(1000);
    expect(standardVerifies(await deliverOne(), OLD_SECRET)).toBe(false);
  });

  test("without a secret one is generated and returned once; overlap 0s replaces the old secret at once", async () => {
    const body = await (await rotate(ruleId, { overlap: "0s" })).json();
    expect(body.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(body.previous_secret_expires_at).toBeNull();
    const request = await deliverOne();
    expect(standardVerifies(request, body.secret)).toBe(true);
    expect(standardVerifies(request, OLD_SECRET)).toBe(false);
  });

  test("rotating again during an overlap keeps only the secret being replaced", async () => {
    await rotate(ruleId, { secret: NEW_SECRET });
    const third = "whsec_third_00112233445566";
    await rotate(ruleId, { secret: third });
    const request = await deliverOne();
    expect(standardVerifies(request, third)).toBe(true);
    expect(standardVerifies(request, NEW_SECRET)).toBe(true);
    expect(standardVerifies(request, OLD_SECRET)).toBe(false);
  });

  test("a secret set by PATCH replaces the old one at once, ending an overlap", async () => {
    await rotate(ruleId, { secret: NEW_SECRET });
    const revoked = "whsec_after_leak_99887766";
    const patched = await context.request("PATCH", `/api/v1/webhooks/rules-engine/rules/${ruleId}`, {
      body: { secret: revoked },
      headers: as(tenant.apiKey),
    });
    expect((await patched.json()).previous_secret_expires_at).toBeNull();
    const request = await deliverOne();
    expect(standardVerifies(request, revoked)).toBe(true);
    expect(standardVerifies(request, NEW_SECRET)).toBe(false);
  });

  test("another tenant's rule is 404 and stays as it was; no API key is 401", async () => {
    const other = await seedTenant(context.deps, "Beta");
    const response = await rotate(ruleId, { secret: NEW_SECRET }, other.apiKey);
    expect(response.status).toBe(404);
    expect(standardVerifies(await deliverOne(), OLD_SECRET)).toBe(true);
    const anonymous = await context.request("POST", `/api/v1/webhooks/rules-engine/rules/${ruleId}/rotate-secret`, {
      body: {},
    });
    expect(anonymous.status).toBe(401);
  });

  test("the delivery log shows each attempt's exact request, headers and body, also after the secret changed", async () => {
    await rotate(ruleId, { secret: NEW_SECRET });
    const sentRequest = await deliverOne();
    await rotate(ruleId, { overlap: "0s" });
    const webhookId = sentRequest.headers["webhook-id"] ?? "";
    const log = await (
      await context.request("GET", `/api/v1/webhooks/deliveries/${webhookId}`, { headers: as(tenant.apiKey) })
    ).json();
    expect(log.attempt_log).toHaveLength(1);
    expect(log.attempt_log[0].request).toEqual({ headers: sentRequest.headers, body: sentRequest.body });
    expect(log.attempt_log[0].request.headers["webhook-signature"].split(" ")).toHaveLength(2);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ["a short secret", { secret: "short" }, "secret"],
    ["the current secret", { secret: OLD_SECRET }, "secret"],
    ["an overlap that is not a duration", { overlap: "tomorrow" }, "overlap"],
    ["an overlap over 7 days", { overlap: "8d" }, "overlap"],
    ["an unknown key", { grace: "1h" }, "grace"],
  ];
  for (const [what, body, field] of invalid) {
    test(`${what} answers 422 naming ${field}`, async () => {
      const response = await rotate(ruleId, body);
      expect(response.status).toBe(422);
      expect(JSON.stringify(await response.json())).toContain(field);
    });
  }
});
