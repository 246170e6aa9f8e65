import { describe, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";
import {
  deliveryHeaders,
  serializeDelivery,
  standardWebhookSignature,
  verifyServiceSignature,
} from "../../src/webhooks/sign.ts";

// The fixed vector, also printed in docs/webhooks.md. Computed once and cross-checked
// with `openssl dgst -sha256 -hmac`; if signing changes, receivers break, so this must fail.
const VECTOR = {
  secret: "whsec-test-secret-0123456789",
  event: "lead.created",
  webhookId: "wh_01jz0000000000000000000000",
  timestamp: "2026-01-15T09:00:00.000Z",
  data: { lead_id: "lead_1" },
  unixSeconds: 1768467600,
  signature: "sha256=874c48df583b0c4d929f5c4b368bf107e80a788a99d1ca02f85149f64a00c147",
  body: '{"event":"lead.created","webhook_id":"wh_01jz0000000000000000000000","timestamp":"2026-01-15T09:00:00.000Z","data":{"lead_id":"lead_1"},"signature":"sha256=874c48df583b0c4d929f5c4b368bf107e80a788a99d1ca02f85149f64a00c147"}',
  webhookSignature: "v1,gNmVeAfkdioTaSQX4muHk8JBhCX9wvROnrVdZ5abEbw=",
} as const;

/**
 * An independent receiver, written from the spec text alone: strip `sha256=`, HMAC-SHA256 with
 * the secret over the body without its signature member (the bytes up to `,"signature"`, closed
 * with `}`), hex, constant-time compare. It shares no code with src/webhooks/sign.ts.
 */
function receiverAccepts(secret: string, rawBody: string, header: string): boolean {
  if (!header.startsWith("sha256=")) return false;
  const received = Buffer.from(header.slice("sha256=".length), "utf8");
  // The last occurrence: a nested key named "signature" inside data must not cut the text short.
  const cut = rawBody.lastIndexOf(',"signature"');
  if (cut < 0) return false;
  const signedText = `${rawBody.slice(0, cut)}}`;
  const expected = Buffer.from(createHmac("sha256", secret).update(signedText, "utf8").digest("hex"), "utf8");
  return expected.length === received.length && timingSafeEqual(expected, received);
}

const flipOneByte = (text: string, index: number): string =>
  text.slice(0, index) + String.fromCharCode(text.charCodeAt(index) ^ 1) + text.slice(index + 1);

// The standardwebhooks library takes its key base64-encoded; Parley's key is the secret's UTF-8 bytes.
const standardVerifier = (secret: string): Webhook => new Webhook(Buffer.from(secret).toString("base64"));

describe("serializeDelivery", () => {
  test("produces the documented test vector byte for byte", () => {
    const { body, signature } = serializeDelivery(VECTOR, VECTOR.secret);
    expect(body).toBe(VECTOR.body);
    expect(signature).toBe(VECTOR.signature);
  });

  test("puts the body keys in the order event, webhook_id, timestamp, data, signature", () => {
    const { body } = serializeDelivery({ ...VECTOR, data: { z: 1, a: 2 } }, VECTOR.secret);
    expect(Object.keys(JSON.parse(body) as object)).toEqual(["event", "webhook_id", "timestamp", "data", "signature"]);
    expect(body).not.toContain(" ");
  });

  test("carries the same signature in the body as it returns for the header", () => {
    const { body, signature } = serializeDelivery(VECTOR, VECTOR.secret);
    expect((JSON.parse(body) as { signature: string }).signature).toBe(signature);
  });

  test("is accepted by an independent receiver written from the spec", () => {
    const data = { name: 'Zoë "Z" Ünal', phone: "+4915123456789", nested: { list: [1, 2.5, null], signature: "x" } };
    const { body, signature } = serializeDelivery({ ...VECTOR, data }, VECTOR.secret);
    expect(receiverAccepts(VECTOR.secret, body, signature)).toBe(true);
    expect(verifyServiceSignature(VECTOR.secret, body, signature)).toBe(true);
  });

  test("fails verification when one byte of the body is flipped", () => {
    const { body, signature } = serializeDelivery(VECTOR, VECTOR.secret);
    const tampered = flipOneByte(body, body.indexOf("lead_1"));
    expect(receiverAccepts(VECTOR.secret, tampered, signature)).toBe(false);
    expect(verifyServiceSignature(VECTOR.secret, tampered, signature)).toBe(false);
  });

  test("fails verification with a different secret", () => {
    const { body, signature } = serializeDelivery(VECTOR, VECTOR.secret);
    expect(receiverAccepts("another-secret", body, signature)).toBe(false);
    expect(verifyServiceSignature("another-secret", body, signature)).toBe(false);
  });
});

describe("verifyServiceSignature", () => {
  test("accepts the digest with or without the sha256= prefix", () => {
    expect(verifyServiceSignature(VECTOR.secret, VECTOR.body, VECTOR.signature)).toBe(true);
    expect(verifyServiceSignature(VECTOR.secret, VECTOR.body, VECTOR.signature.slice(7))).toBe(true);
  });

  test("rejects a body whose signature member is not the last one", () => {
    const moved = VECTOR.body.replace('"}', '","extra":1}');
    expect(verifyServiceSignature(VECTOR.secret, moved, VECTOR.signature)).toBe(false);
    expect(verifyServiceSignature(VECTOR.secret, "{}", VECTOR.signature)).toBe(false);
  });
});

describe("webhook-signature", () => {
  test("matches the documented vector and the standardwebhooks library's own signer", () => {
    expect(standardWebhookSignature(VECTOR.secret, VECTOR.webhookId, VECTOR.unixSeconds, VECTOR.body)).toBe(
      VECTOR.webhookSignature,
    );
    const librarySigned = standardVerifier(VECTOR.secret).sign(
      VECTOR.webhookId,
      new Date(VECTOR.unixSeconds * 1000),
      VECTOR.body,
    );
    expect(librarySigned).toBe(VECTOR.webhookSignature);
  });

  test("verifies with Webhook.verify and fails after a one-byte flip", () => {
    const { body, signature } = serializeDelivery(VECTOR, VECTOR.secret);
    // Webhook.verify refuses timestamps more than 5 minutes from its own wall clock.
    const sendTimeMs = Date.now();
    const headers = deliveryHeaders({ ...VECTOR, attempt: 1, sendTimeMs, body, signature });
    const verifier = standardVerifier(VECTOR.secret);
    expect(verifier.verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => verifier.verify(flipOneByte(body, 10), headers)).toThrow();
  });
});

describe("deliveryHeaders", () => {
  test("sets every header the spec and DESIGN §4 list", () => {
    const headers = deliveryHeaders({
      ...VECTOR,
      attempt: 3,
      sendTimeMs: VECTOR.unixSeconds * 1000 + 999,
      body: VECTOR.body,
      signature: VECTOR.signature,
    });
    expect(headers).toEqual({
      "content-type": "application/json",
      "user-agent": "Parley-Webhooks/1",
      "X-Service-Signature": VECTOR.signature,
      "X-Service-Event": "lead.created",
      "X-Service-Attempt": "3",
      "webhook-id": VECTOR.webhookId,
      "webhook-timestamp": String(VECTOR.unixSeconds),
      "webhook-signature": VECTOR.webhookSignature,
    });
  });
});

describe("docs/webhooks.md", () => {
  test("prints the same test vector the code produces", () => {
    const doc = readFileSync(new URL("../../docs/webhooks.md", import.meta.url), "utf8");
    for (const value of [
      VECTOR.secret,
      VECTOR.body,
      VECTOR.signature,
      VECTOR.webhookSignature,
      String(VECTOR.unixSeconds),
    ]) {
      expect(doc).toContain(value);
    }
  });
});
