import { afterAll, afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli/run.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { openDatabase } from "../../src/db/client.ts";
import {
  handlePaymentEvent,
  hasPaymentSecret,
  setPaymentSecret,
  verifyStripeSignature,
  purgeOldPaymentEvents,
  PAYMENT_EVENT_DEDUPE_MS,
} from "../../src/integrations/payments.ts";
import { AppError } from "../../src/lib/app-error.ts";
import { buildTestApp, seedTenant, testSql, type TestContext } from "../helpers.ts";

const SECRET = "whsec_test_0123456789abcdefABCDEF";
const NOW_MS = Date.UTC(2026, 0, 15, 9, 0, 0);
const NOW_SEC = NOW_MS / 1000;

/** A Stripe-Signature header built by hand, independent of the code under test. */
const sign = (body: string, secret = SECRET, timestamp = NOW_SEC) =>
  `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex")}`;

const BODY = '{"id":"evt_1","type":"payment_intent.succeeded","data":{"object":{"id":"pi_1","amount":4900}}}';

async function thrown(work: () => unknown): Promise<AppError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("verifyStripeSignature", () => {
  test("a header signed with the secret over the exact body is valid", () => {
    expect(verifyStripeSignature(sign(BODY), BODY, SECRET, NOW_MS)).toEqual({ ok: true });
  });

  test("the raw bytes may be given as a Uint8Array", () => {
    expect(verifyStripeSignature(sign(BODY), new TextEncoder().encode(BODY), SECRET, NOW_MS)).toEqual({ ok: true });
  });

  test("one changed byte of the body is a mismatch", () => {
    expect(verifyStripeSignature(sign(BODY), BODY.replace("4900", "4901"), SECRET, NOW_MS)).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });

  test("a header signed with another secret is a mismatch", () => {
    expect(verifyStripeSignature(sign(BODY, "whsec_someone_elses_secret_000"), BODY, SECRET, NOW_MS)).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });

  test("a timestamp changed after signing is a mismatch: it is part of the signed text", () => {
    const header = sign(BODY).replace(`t=${NOW_SEC}`, `t=${NOW_SEC + 1}`);
    expect(verifyStripeSignature(header, BODY, SECRET, NOW_MS)).toEqual({ ok: false, reason: "mismatch" });
  });

  test("exactly 5 minutes old is accepted; one second more is refused as expired", () => {
    expect(verifyStripeSignature(sign(BODY, SECRET, NOW_SEC - 300), BODY, SECRET, NOW_MS)).toEqual({ ok: true });
    expect(verifyStripeSignature(sign(BODY, SECRET, NOW_SEC - 301), BODY, SECRET, NOW_MS)).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  test("a timestamp more than 5 minutes in the future is refused too", () => {
    expect(verifyStripeSignature(sign(BODY, SECRET, NOW_SEC + 301), BODY, SECRET, NOW_MS)).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  test("the tolerance is configurable", () => {
    expect(verifyStripeSignature(sign(BODY, SECRET, NOW_SEC - 60), BODY, SECRET, NOW_MS, 30)).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  test("any one of several v1 entries may match (a secret being rolled)", () => {
    const good = sign(BODY).split(",")[1];
    const header = `t=${NOW_SEC},v1=${"0".repeat(64)},${good},v0=deadbeef`;
    expect(verifyStripeSignature(header, BODY, SECRET, NOW_MS)).toEqual({ ok: true });
    expect(
      verifyStripeSignature(`t=${NOW_SEC},v1=${"0".repeat(64)},v1=${"f".repeat(64)}`, BODY, SECRET, NOW_MS),
    ).toEqual({ ok: false, reason: "mismatch" });
  });

  test("a missing header, a header without t or v1, or a non-numeric t is refused", () => {
    expect(verifyStripeSignature(undefined, BODY, SECRET, NOW_MS)).toEqual({ ok: false, reason: "missing" });
    expect(verifyStripeSignature("", BODY, SECRET, NOW_MS)).toEqual({ ok: false, reason: "missing" });
    const v1 = sign(BODY).split(",")[1];
    expect(verifyStripeSignature(`${v1}`, BODY, SECRET, NOW_MS)).toEqual({ ok: false, reason: "malformed" });
    expect(verifyStripeSignature(`t=${NOW_SEC}`, BODY, SECRET, NOW_MS)).toEqual({ ok: false, reason: "malformed" });
    expect(verifyStripeSignature(`t=${NOW_SEC},v0=${"a".repeat(64)}`, BODY, SECRET, NOW_MS)).toEqual({
      ok: false,
      reason: "malformed",
    });
    expect(verifyStripeSignature(`t=soon,${v1}`, BODY, SECRET, NOW_MS)).toEqual({ ok: false, reason: "malformed" });
  });
});

describe("payment secrets and handlePaymentEvent", () => {
  let context: TestContext;
  let tenantId: string;
  beforeEach(async () => {
    context = buildTestApp({ rateLimits: false });
    tenantId = (await seedTenant(context.deps)).tenant.id;
  });
  afterEach(() => context.close());

  const countEvents = async () =>
    (await (await testSql(context.deps)).get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM events"))?.n;

  test("a secret must be 16 to 256 characters and the tenant must exist", async () => {
    expect(await thrown(() => setPaymentSecret(context.deps, tenantId, "x".repeat(15)))).toMatchObject({
      status: 422,
      code: "validation_failed",
    });
    expect(await thrown(() => setPaymentSecret(context.deps, tenantId, "x".repeat(257)))).toMatchObject({
      status: 422,
    });
    expect(await thrown(() => setPaymentSecret(context.deps, "ten_nope", SECRET))).toMatchObject({
      status: 404,
      code: "tenant_not_found",
    });
    expect(await hasPaymentSecret(context.deps, tenantId)).toBe(false);
    await setPaymentSecret(context.deps, tenantId, "x".repeat(16));
    await setPaymentSecret(context.deps, tenantId, "y".repeat(256));
    expect(await hasPaymentSecret(context.deps, tenantId)).toBe(true);
  });

  test("setting a new secret replaces the old one", async () => {
    await setPaymentSecret(context.deps, tenantId, SECRET);
    await setPaymentSecret(context.deps, tenantId, "whsec_the_rotated_secret_1234");
    expect(await thrown(() => handlePaymentEvent(context.deps, tenantId, BODY, sign(BODY)))).toMatchObject({
      status: 401,
      code: "invalid_signature",
    });
    expect(
      await handlePaymentEvent(context.deps, tenantId, BODY, sign(BODY, "whsec_the_rotated_secret_1234")),
    ).toMatchObject({ received: true, event: "payment.succeeded" });
  });

  test("an unknown tenant and a tenant without a secret get the same 404", async () => {
    const unknown = await thrown(() => handlePaymentEvent(context.deps, "ten_nope", BODY, sign(BODY)));
    const withoutSecret = await thrown(() => handlePaymentEvent(context.deps, tenantId, BODY, sign(BODY)));
    expect(unknown).toMatchObject({ status: 404, code: "tenant_not_found" });
    expect({ code: withoutSecret.code, status: withoutSecret.status, message: withoutSecret.message }).toEqual({
      code: unknown.code,
      status: unknown.status,
      message: unknown.message,
    });
  });

  test("signed events with a negative, fractional or absurd amount, a made-up currency or no object id are 422 and emit nothing", async () => {
    await setPaymentSecret(context.deps, tenantId, SECRET);
    const event = (object: Record<string, unknown>) =>
      JSON.stringify({ id: `evt_${crypto.randomUUID()}`, type: "payment_intent.succeeded", data: { object } });
    const bad = [
      { id: "pi_1", amount_received: -500, currency: "usd" },
      { id: "pi_1", amount_received: 12.5, currency: "usd" },
      { id: "pi_1", amount_received: 1e300, currency: "usd" },
      { id: "pi_1", amount_received: "4900", currency: "usd" },
      { id: "pi_1", amount_received: 4900, currency: "xyz" },
      { id: "pi_1", amount_received: 4900, currency: 840 },
      { amount_received: 4900, currency: "usd" },
      { id: "", amount_received: 4900, currency: "usd" },
      { id: "p".repeat(256), amount_received: 4900, currency: "usd" },
    ];
    for (const object of bad) {
      const body = event(object);
      expect({
        object,
        error: await thrown(() => handlePaymentEvent(context.deps, tenantId, body, sign(body))),
      }).toMatchObject({ object, error: { status: 422, code: "invalid_event" } });
    }
    expect(await countEvents()).toBe(0);
    const good = event({ id: "pi_1", amount_received: 0, currency: "eur" });
    expect(await handlePaymentEvent(context.deps, tenantId, good, sign(good))).toMatchObject({
      received: true,
      event: "payment.succeeded",
    });
    expect(await countEvents()).toBe(1);
  });

  test("the signature is checked before the body is parsed: unsigned garbage is 401, signed garbage 400 or 422", async () => {
    await setPaymentSecret(context.deps, tenantId, SECRET);
    expect(await thrown(() => handlePaymentEvent(context.deps, tenantId, "not json", undefined))).toMatchObject({
      status: 401,
    });
    expect(await thrown(() => handlePaymentEvent(context.deps, tenantId, "not json", sign("not json")))).toMatchObject({
      status: 400,
      code: "invalid_json",
    });
    for (const body of [
      '{"type":"charge.succeeded"}',
      '{"id":"evt_1"}',
      "[1,2]",
      '{"id":7,"type":"charge.succeeded"}',
      `{"id":"${"e".repeat(256)}","type":"charge.succeeded"}`,
      '{"id":"  ","type":"charge.succeeded"}',
    ]) {
      expect(await thrown(() => handlePaymentEvent(context.deps, tenantId, body, sign(body)))).toMatchObject({
        status: 422,
        code: "invalid_event",
      });
    }
    expect(await countEvents()).toBe(0);
  });

  test("a replayed event id is acknowledged as a duplicate and emits nothing more", async () => {
    await setPaymentSecret(context.deps, tenantId, SECRET);
    const first = await handlePaymentEvent(context.deps, tenantId, BODY, sign(BODY));
    context.clock.advance(60_000);
    const retry = await handlePaymentEvent(context.deps, tenantId, BODY, sign(BODY, SECRET, NOW_SEC + 60));
    expect(first).toMatchObject({ received: true, event: "payment.succeeded" });
    expect(retry).toEqual({ received: true, duplicate: true, event_id: (first as { event_id: string }).event_id });
    expect(await countEvents()).toBe(1);
  });

  test("provider event ids are remembered 30 days, then purged by the scheduler's housekeeping", async () => {
    await setPaymentSecret(context.deps, tenantId, SECRET);
    await handlePaymentEvent(context.deps, tenantId, BODY, sign(BODY));
    const rows = async () =>
      (
        await (
          await testSql(context.deps)
        ).get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM payment_events")
      )?.n;
    const receivedAt = context.clock.now();
    expect(await purgeOldPaymentEvents(context.deps, receivedAt + PAYMENT_EVENT_DEDUPE_MS - 1)).toBe(0);
    expect(await rows()).toBe(1);
    expect(await purgeOldPaymentEvents(context.deps, receivedAt + PAYMENT_EVENT_DEDUPE_MS)).toBe(1);
    expect(await rows()).toBe(0);
  });

  test("the dedupe row and the Parley event commit together", async () => {
    await setPaymentSecret(context.deps, tenantId, SECRET);
    await handlePaymentEvent(context.deps, tenantId, BODY, sign(BODY));
    const sql = await testSql(context.deps);
    const row = await sql.get<{ event_id: string; provider: string }>("SELECT provider, event_id FROM payment_events");
    const event = await sql.get<{ id: string; event: string }>("SELECT id, event FROM events");
    expect(row).toEqual({ provider: "stripe", event_id: event?.id ?? "" });
    expect(event?.event).toBe("payment.succeeded");
  });
});

describe("parley tenant payment-secret", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-payments-cli-"));
  const db = join(dir, "cli.db");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function cli(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      env: { PARLEY_LOG_LEVEL: "silent", PARLEY_PUBLIC_URL: "https://parley.example", ...options.env },
      out: (text) => out.push(text),
      err: (text) => err.push(text),
      readStdin: async () => options.stdin ?? "",
    };
    return { code: await runCli(args, io), out: out.join("\n"), err: err.join("\n") };
  }

  const storedSecret = (tenantId: string) => {
    const handle = openDatabase(db);
    try {
      return (
        handle.sqlite
          .prepare<{ payment_secret: string }, [string]>(
            "SELECT payment_secret FROM tenant_secrets WHERE tenant_id = ?",
          )
          .get(tenantId)?.payment_secret ?? null
      );
    } finally {
      handle.close();
    }
  };

  test("reads the secret from PARLEY_PAYMENT_SECRET or standard input, never a flag", async () => {
    const tenant = JSON.parse((await cli(["tenant", "create", "--name", "Pay Co", "--json", "--db", db])).out) as {
      tenant_id: string;
    };

    const fromStdin = await cli(["tenant", "payment-secret", tenant.tenant_id, "--db", db], {
      stdin: "whsec_from_stdin_0123456789\nignored\n",
    });
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.out).toContain(`https://parley.example/api/v1/hooks/payments/${tenant.tenant_id}`);
    expect(fromStdin.out).not.toContain("whsec_");
    expect(storedSecret(tenant.tenant_id)).toBe("whsec_from_stdin_0123456789");

    const fromEnv = await cli(["tenant", "payment-secret", tenant.tenant_id, "--db", db, "--json"], {
      env: { PARLEY_PAYMENT_SECRET: "whsec_from_env_0123456789" },
      stdin: "whsec_not_this_one_000000",
    });
    expect(fromEnv.code).toBe(0);
    expect(JSON.parse(fromEnv.out)).toEqual({ tenant_id: tenant.tenant_id, payment_secret_set: true });
    expect(storedSecret(tenant.tenant_id)).toBe("whsec_from_env_0123456789");

    expect(
      (await cli(["tenant", "payment-secret", tenant.tenant_id, "--secret", "whsec_on_the_command_line", "--db", db]))
        .code,
    ).toBe(2);
  });

  test("no secret, a short one or a missing tenant id is a usage error; an unknown tenant a failure", async () => {
    expect((await cli(["tenant", "payment-secret", "ten_x", "--db", db])).code).toBe(2);
    expect((await cli(["tenant", "payment-secret", "--db", db], { stdin: "whsec_long_enough_secret_1" })).code).toBe(2);
    const short = await cli(["tenant", "payment-secret", "ten_x", "--db", db], { stdin: "short" });
    expect(short.code).toBe(2);
    expect(short.err).toContain("16 to 256");
    const unknown = await cli(["tenant", "payment-secret", "ten_nope", "--db", db], {
      stdin: "whsec_long_enough_secret_1",
    });
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("No such tenant");
  });

  test("tenant --help documents the command", async () => {
    const help = await cli(["tenant", "--help"]);
    expect(help.out).toContain("parley tenant payment-secret TENANT_ID");
    expect(help.out).toContain("PARLEY_PAYMENT_SECRET");
  });
});
