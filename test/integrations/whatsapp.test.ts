import { afterAll, afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli/run.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/client.ts";
import {
  answerWhatsappHandshake,
  parseWhatsappWebhook,
  purgeOldWhatsappMessages,
  verifyWhatsappSignature,
  WHATSAPP_MESSAGE_DEDUPE_MS,
} from "../../src/integrations/whatsapp.ts";
import { buildWhatsappMessage } from "../../src/integrations/whatsapp-send.ts";
import { findWhatsappSettings, setWhatsappSettings } from "../../src/integrations/whatsapp-settings.ts";
import { AppError } from "../../src/lib/app-error.ts";
import { buildTestApp, seedTenant, testSql, type TestContext } from "../helpers.ts";

const APP_SECRET = "0123456789abcdef0123456789abcdef";
const BODY = '{"object":"whatsapp_business_account","entry":[]}';
/** An X-Hub-Signature-256 header built by hand, independent of the code under test. */
const sign = (body: string, secret = APP_SECRET) =>
  `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;

async function thrown(work: () => unknown): Promise<AppError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("verifyWhatsappSignature", () => {
  test("a header signed with the app secret over the exact body is valid, as text or bytes, in either hex case", () => {
    expect(verifyWhatsappSignature(sign(BODY), BODY, APP_SECRET)).toEqual({ ok: true });
    expect(verifyWhatsappSignature(sign(BODY), new TextEncoder().encode(BODY), APP_SECRET)).toEqual({ ok: true });
    expect(verifyWhatsappSignature(`sha256=${sign(BODY).slice(7).toUpperCase()}`, BODY, APP_SECRET)).toEqual({
      ok: true,
    });
  });

  test("another secret or one changed byte is a mismatch", () => {
    expect(verifyWhatsappSignature(sign(BODY, "fedcba9876543210fedcba9876543210"), BODY, APP_SECRET)).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(verifyWhatsappSignature(sign(BODY), BODY.replace("[]", "[ ]"), APP_SECRET)).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });

  test("a missing header is missing; a header without sha256= or with short hex is malformed", () => {
    expect(verifyWhatsappSignature(undefined, BODY, APP_SECRET)).toEqual({ ok: false, reason: "missing" });
    expect(verifyWhatsappSignature("", BODY, APP_SECRET)).toEqual({ ok: false, reason: "missing" });
    expect(verifyWhatsappSignature(sign(BODY).slice(7), BODY, APP_SECRET)).toEqual({ ok: false, reason: "malformed" });
    expect(verifyWhatsappSignature("sha256=abcd", BODY, APP_SECRET)).toEqual({ ok: false, reason: "malformed" });
  });
});

describe("parseWhatsappWebhook", () => {
  const wrap = (messages: unknown[], phoneNumberId = "123") =>
    JSON.stringify({
      entry: [{ changes: [{ field: "messages", value: { metadata: { phone_number_id: phoneNumberId }, messages } }] }],
    });

  test("reads text, tapped buttons, list rows and template buttons; skips other kinds and bad senders", () => {
    const parsed = parseWhatsappWebhook(
      wrap([
        { from: "1555", id: "wamid.1", type: "text", text: { body: "hello" } },
        { from: "1555", id: "wamid.2", type: "interactive", interactive: { button_reply: { id: "x", title: "Yes" } } },
        {
          from: "1555",
          id: "wamid.3",
          type: "interactive",
          interactive: { list_reply: { id: "parley:Where are you located?", title: "Where are you…" } },
        },
        { from: "1555", id: "wamid.4", type: "button", button: { text: "Stop promotions", payload: "STOP" } },
        { from: "1555", id: "wamid.5", type: "sticker", sticker: {} },
        { from: "+1 555", id: "wamid.6", type: "text", text: { body: "bad sender" } },
        { from: "1555", id: "wamid.7", type: "text", text: { body: "   " } },
      ]),
      "123",
    );
    expect(parsed.messages).toEqual([
      { id: "wamid.1", from: "1555", text: "hello" },
      { id: "wamid.2", from: "1555", text: "Yes" },
      { id: "wamid.3", from: "1555", text: "Where are you located?" },
      { id: "wamid.4", from: "1555", text: "Stop promotions" },
    ]);
    expect(parsed.ignored).toBe(3);
  });

  test("messages to another phone number id are ignored", () => {
    expect(
      parseWhatsappWebhook(wrap([{ from: "1555", id: "wamid.1", type: "text", text: { body: "hi" } }], "999"), "123"),
    ).toEqual({ messages: [], ignored: 1 });
  });

  test("a body that is not the webhook envelope is a 400", async () => {
    expect((await thrown(() => parseWhatsappWebhook("nope", "1"))).code).toBe("invalid_json");
    for (const body of [
      "[]",
      "{}",
      '{"entry":{}}',
      '{"entry":[1]}',
      '{"entry":[{"changes":{}}]}',
      '{"entry":[{"changes":[{"value":[]}]}]}',
      '{"entry":[{"changes":[{"value":{"messages":{}}}]}]}',
    ]) {
      const error = await thrown(() => parseWhatsappWebhook(body, "1"));
      expect(error.status).toBe(400);
    }
  });
});

describe("buildWhatsappMessage", () => {
  test("a reply without quick replies is a text message", () => {
    expect(buildWhatsappMessage("1555", { text: "Hello" })).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "1555",
      type: "text",
      text: { body: "Hello" },
    });
  });

  test("a reply too long for an interactive body goes out as text without its options", () => {
    const long = "x".repeat(1025);
    expect(buildWhatsappMessage("1555", { text: long, quick_replies: ["Yes"] })).toMatchObject({
      type: "text",
      text: { body: long },
    });
  });

  test("more than 10 options keep the first 10 list rows", () => {
    const options = Array.from({ length: 12 }, (_, i) => `Option number ${i + 1} with a long label`);
    const message = buildWhatsappMessage("1555", { text: "Pick", quick_replies: options }) as {
      interactive: { action: { sections: Array<{ rows: Array<{ title: string }> }> } };
    };
    const rows = message.interactive.action.sections[0]?.rows ?? [];
    expect(rows).toHaveLength(10);
    expect(rows[0]?.title).toBe("Option number 1 with a …");
  });
});

describe("settings, handshake and purge", () => {
  let context: TestContext;
  let tenantId: string;
  beforeEach(async () => {
    context = buildTestApp();
    tenantId = (await seedTenant(context.deps, "Wa")).tenant.id;
  });
  afterEach(() => context.close());

  const settings = {
    verify_token: "verify-me-0123",
    app_secret: APP_SECRET,
    access_token: "EAAGaccesstoken0123456789",
    phone_number_id: "1065403522",
  };

  test("settings are stored for the tenant; an unknown tenant is 404; the payment secret is kept", async () => {
    const sql = await testSql(context.deps);
    await sql.run(
      "INSERT INTO tenant_secrets (tenant_id, payment_secret, updated_at) VALUES (?, 'whsec_keep_me_0123456', 1)",
      tenantId,
    );
    await setWhatsappSettings(context.deps, tenantId, settings);
    expect(await findWhatsappSettings(context.deps, tenantId)).toEqual({
      verifyToken: settings.verify_token,
      appSecret: APP_SECRET,
      accessToken: settings.access_token,
      phoneNumberId: "1065403522",
    });
    expect(
      (
        await sql.get<{ payment_secret: string }>(
          "SELECT payment_secret FROM tenant_secrets WHERE tenant_id = ?",
          tenantId,
        )
      )?.payment_secret,
    ).toBe("whsec_keep_me_0123456");
    expect((await thrown(() => setWhatsappSettings(context.deps, "ten_nope", settings))).status).toBe(404);
  });

  test("the handshake echoes the challenge only for the right token and mode", async () => {
    expect(
      (
        await thrown(() =>
          answerWhatsappHandshake(context.deps, tenantId, {
            mode: "subscribe",
            verifyToken: settings.verify_token,
            challenge: "42",
          }),
        )
      ).status,
    ).toBe(404);
    await setWhatsappSettings(context.deps, tenantId, settings);
    expect(
      await answerWhatsappHandshake(context.deps, tenantId, {
        mode: "subscribe",
        verifyToken: settings.verify_token,
        challenge: "42",
      }),
    ).toBe("42");
    expect(
      (
        await thrown(() =>
          answerWhatsappHandshake(context.deps, tenantId, {
            mode: "subscribe",
            verifyToken: "verify-me-0124",
            challenge: "42",
          }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await thrown(() =>
          answerWhatsappHandshake(context.deps, tenantId, { verifyToken: settings.verify_token, challenge: "42" }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await thrown(() =>
          answerWhatsappHandshake(context.deps, tenantId, { mode: "subscribe", verifyToken: settings.verify_token }),
        )
      ).status,
    ).toBe(400);
  });

  test("message ids older than the dedupe window are purged, newer ones kept", async () => {
    const now = context.clock.now();
    const sql = await testSql(context.deps);
    const insert = (messageId: string, receivedAt: number) =>
      sql.run(
        "INSERT INTO whatsapp_messages (tenant_id, message_id, received_at) VALUES (?, ?, ?)",
        tenantId,
        messageId,
        receivedAt,
      );
    await insert("wamid.old", now - WHATSAPP_MESSAGE_DEDUPE_MS - 1);
    await insert("wamid.new", now - 1000);
    expect(await purgeOldWhatsappMessages(context.deps, now)).toBe(1);
    expect(await sql.all<{ message_id: string }>("SELECT message_id FROM whatsapp_messages")).toEqual([
      { message_id: "wamid.new" },
    ]);
  });
});

describe("PARLEY_WHATSAPP_API_URL", () => {
  test("defaults to Meta's Graph API and takes any http(s) URL without a trailing slash", () => {
    expect(loadConfig({}).whatsappApiUrl).toBe("https://graph.facebook.com/v21.0");
    expect(loadConfig({ PARLEY_WHATSAPP_API_URL: "http://127.0.0.1:8080/v22.0/" }).whatsappApiUrl).toBe(
      "http://127.0.0.1:8080/v22.0",
    );
  });

  test("a URL that does not parse or is not http(s) stops the program", () => {
    expect(() => loadConfig({ PARLEY_WHATSAPP_API_URL: "not a url" })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_WHATSAPP_API_URL: "ftp://graph.example" })).toThrow(
      /PARLEY_WHATSAPP_API_URL=.*must be an http\(s\) URL/,
    );
  });
});

describe("parley tenant whatsapp", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-whatsapp-cli-"));
  const db = join(dir, "cli.db");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const SECRETS = {
    PARLEY_WHATSAPP_VERIFY_TOKEN: "verify-me-0123",
    PARLEY_WHATSAPP_APP_SECRET: APP_SECRET,
    PARLEY_WHATSAPP_ACCESS_TOKEN: "EAAGaccesstoken0123456789",
  };

  async function cli(args: string[], env: Record<string, string> = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      env: { PARLEY_LOG_LEVEL: "silent", PARLEY_PUBLIC_URL: "https://parley.example", ...env },
      out: (text) => out.push(text),
      err: (text) => err.push(text),
      readStdin: async () => "",
    };
    return { code: await runCli(args, io), out: out.join("\n"), err: err.join("\n") };
  }

  const stored = async (tenantId: string) => {
    const handle = openDatabase(db);
    try {
      return await findWhatsappSettings(handle, tenantId);
    } finally {
      handle.close();
    }
  };

  test("stores the phone number id from the flag and the secrets from the environment", async () => {
    const tenant = JSON.parse((await cli(["tenant", "create", "--name", "Wa Co", "--json", "--db", db])).out) as {
      tenant_id: string;
    };
    const done = await cli(
      ["tenant", "whatsapp", tenant.tenant_id, "--phone-number-id", "1065403522", "--db", db],
      SECRETS,
    );
    expect(done.code).toBe(0);
    expect(done.out).toContain(`https://parley.example/api/v1/hooks/whatsapp/${tenant.tenant_id}`);
    for (const secret of Object.values(SECRETS)) expect(done.out).not.toContain(secret);
    expect(await stored(tenant.tenant_id)).toEqual({
      verifyToken: "verify-me-0123",
      appSecret: APP_SECRET,
      accessToken: "EAAGaccesstoken0123456789",
      phoneNumberId: "1065403522",
    });

    const json = await cli(
      ["tenant", "whatsapp", tenant.tenant_id, "--phone-number-id", "2222", "--db", db, "--json"],
      SECRETS,
    );
    expect(JSON.parse(json.out)).toEqual({
      tenant_id: tenant.tenant_id,
      configured: true,
      callback_url: `https://parley.example/api/v1/hooks/whatsapp/${tenant.tenant_id}`,
    });
    expect((await stored(tenant.tenant_id))?.phoneNumberId).toBe("2222");
  });

  test("a missing secret, a secret as a flag, a missing id or tenant is a usage error; an unknown tenant a failure", async () => {
    const { PARLEY_WHATSAPP_ACCESS_TOKEN: _omitted, ...noToken } = SECRETS;
    const missing = await cli(["tenant", "whatsapp", "ten_x", "--phone-number-id", "1", "--db", db], noToken);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("PARLEY_WHATSAPP_ACCESS_TOKEN");
    expect(
      (
        await cli(
          ["tenant", "whatsapp", "ten_x", "--phone-number-id", "1", "--app-secret", APP_SECRET, "--db", db],
          SECRETS,
        )
      ).code,
    ).toBe(2);
    expect((await cli(["tenant", "whatsapp", "ten_x", "--db", db], SECRETS)).code).toBe(2);
    expect((await cli(["tenant", "whatsapp", "--phone-number-id", "1", "--db", db], SECRETS)).code).toBe(2);
    expect((await cli(["tenant", "whatsapp", "ten_x", "--phone-number-id", "12ab", "--db", db], SECRETS)).code).toBe(2);
    const unknown = await cli(["tenant", "whatsapp", "ten_nope", "--phone-number-id", "1", "--db", db], SECRETS);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("No such tenant");
  });

  test("tenant --help documents the command and its environment variables", async () => {
    const help = await cli(["tenant", "--help"]);
    expect(help.out).toContain("parley tenant whatsapp TENANT_ID --phone-number-id ID");
    expect(help.out).toContain("PARLEY_WHATSAPP_APP_SECRET");
  });
});
