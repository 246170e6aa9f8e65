import { constantTimeEqual, hmacSha256 } from "../lib/crypto.ts";
import type { EventData } from "./events.ts";
import type { ClaimedDelivery } from "../db/store-webhooks.ts";
import { toIso } from "../lib/clock.ts";

export interface DeliveryEnvelope {
  event: string;
  webhookId: string;
  /** The event time as an ISO 8601 UTC string; identical on every retry of the delivery. */
  timestamp: string;
  data: EventData;
}

export interface SerializedDelivery {
  body: string;
  /** `sha256=<hex>`, the body's `signature` member and the X-Service-Signature header. */
  signature: string;
}

const SIGNATURE_PREFIX = "sha256=";
const SIGNATURE_MEMBER = ',"signature":';

/**
 * The delivery body, keys in the order `event, webhook_id, timestamp, data, signature`.
 *
 * The signed text S is the body without its `signature` member. S is serialized exactly once
 * and the body is S with its closing `}` replaced by the signature member, so the bytes a
 * receiver gets up to `,"signature"` are, by construction, the bytes that were signed. Two
 * separate JSON.stringify calls could not promise that.
 */
export function serializeDelivery(envelope: DeliveryEnvelope, secret: string): SerializedDelivery {
  return serializeDeliveryJson({ ...envelope, dataJson: JSON.stringify(envelope.data) }, secret);
}

/**
 * The same, from the event's stored compact JSON: the scheduler signs straight from the row
 * without a parse/stringify round trip. The result is byte-identical to JSON.stringify of the
 * object with keys in this order, because `dataJson` is itself JSON.stringify output.
 */
export function serializeDeliveryJson(envelope: JsonEnvelope, secret: string): SerializedDelivery {
  const signedText = signedTextOf(envelope);
  const signature = SIGNATURE_PREFIX + hmacSha256(secret, signedText).toString("hex");
  return { body: withSignature(signedText, signature), signature };
}

type JsonEnvelope = Omit<DeliveryEnvelope, "data"> & { dataJson: string };

const signedTextOf = (envelope: JsonEnvelope): string =>
  `{"event":${JSON.stringify(envelope.event)},"webhook_id":${JSON.stringify(envelope.webhookId)},"timestamp":${JSON.stringify(envelope.timestamp)},"data":${envelope.dataJson}}`;
const withSignature = (signedText: string, signature: string): string =>
  `${signedText.slice(0, -1)}${SIGNATURE_MEMBER}${JSON.stringify(signature)}}`;

/**
 * The body an attempt sent, from the event and the signature it carried (X-Service-Signature):
 * the same bytes, since the signed text depends only on the event, whatever secret signed it.
 */
export const rebuildDeliveryBody = (envelope: JsonEnvelope, signature: string): string =>
  withSignature(signedTextOf(envelope), signature);

/**
 * The Standard Webhooks `webhook-signature` value: `v1,` + base64 HMAC-SHA256 over
 * `id.timestamp.body`. The key is the UTF-8 bytes of the rule secret as typed; the
 * `standardwebhooks` libraries expect that key base64-encoded (see docs/webhooks.md).
 */
export function standardWebhookSignature(
  secret: string,
  webhookId: string,
  unixSeconds: number,
  rawBody: string,
): string {
  return `v1,${hmacSha256(secret, `${webhookId}.${unixSeconds}.${rawBody}`).toString("base64")}`;
}

/** What a claimed delivery's attempt sends: the signed body and this attempt's headers. */
export function signedRequest(
  delivery: ClaimedDelivery,
  sendTimeMs: number,
): { body: string; headers: Record<string, string> } {
  const { body, signature } = serializeDeliveryJson(
    { event: delivery.event, webhookId: delivery.id, timestamp: toIso(delivery.occurredAt), dataJson: delivery.data },
    delivery.secret,
  );
  const headers = deliveryHeaders({
    event: delivery.event,
    webhookId: delivery.id,
    attempt: delivery.attempts + 1,
    sendTimeMs,
    body,
    signature,
    secret: delivery.secret,
    previousSecret: activePreviousSecret(delivery, sendTimeMs),
  });
  return { body, headers };
}

export interface DeliveryHeaderInput {
  event: string;
  webhookId: string;
  /** 1–4 on the first cycle; a re-triggered dead letter starts again at 1. */
  attempt: number;
  /** The send time in epoch ms: `webhook-timestamp` is when this attempt leaves, not the event time. */
  sendTimeMs: number;
  body: string;
  signature: string;
  secret: string;
  /** The secret a rotation replaced, while its overlap lasts (activePreviousSecret): signed with too. */
  previousSecret?: string | null;
}

/**
 * The replaced secret if the rotation's overlap still runs at `now`, else null. Decided per
 * attempt at send time, so a retry after the overlap carries the new signature only.
 */
export function activePreviousSecret(
  rule: { previousSecret?: string | null; previousSecretUntil?: number | null },
  now: number,
): string | null {
  const until = rule.previousSecretUntil ?? null;
  return rule.previousSecret && until !== null && now < until ? rule.previousSecret : null;
}

export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  // The Standard Webhooks timestamp is the send time so receivers' replay windows (usually
  // 5 minutes) accept a retry sent 30 minutes after the event; it is therefore re-signed
  // per attempt, while the body and its signature stay byte-identical across attempts.
  const unixSeconds = Math.floor(input.sendTimeMs / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "Parley-Webhooks/1",
    "X-Service-Signature": input.signature,
    "X-Service-Event": input.event,
    "X-Service-Attempt": String(input.attempt),
    "webhook-id": input.webhookId,
    "webhook-timestamp": String(unixSeconds),
    "webhook-signature": signatureList(input, unixSeconds),
  };
}

/**
 * Space-separated signatures, the new secret's first, as Standard Webhooks defines for a
 * rotation: a receiver accepts the message when any one of them verifies with a key it has.
 */
function signatureList(input: DeliveryHeaderInput, unixSeconds: number): string {
  const current = standardWebhookSignature(input.secret, input.webhookId, unixSeconds, input.body);
  if (!input.previousSecret) return current;
  return `${current} ${standardWebhookSignature(input.previousSecret, input.webhookId, unixSeconds, input.body)}`;
}

/**
 * Receiver-side check of X-Service-Signature against the raw request body (never a re-encoded
 * parse of it: re-serializing may reorder keys or change number formatting). The signed text
 * is the raw body cut at its final `,"signature":` member and closed with `}`; a body whose tail
 * is anything but that member is rejected rather than guessed at.
 */
export function verifyServiceSignature(secret: string, rawBody: string, header: string): boolean {
  const cut = rawBody.lastIndexOf(SIGNATURE_MEMBER);
  if (cut < 0) return false;
  if (!/^,"signature":"sha256=[0-9a-f]*"}$/.test(rawBody.slice(cut))) return false;
  const received = header.startsWith(SIGNATURE_PREFIX) ? header.slice(SIGNATURE_PREFIX.length) : header;
  const expected = hmacSha256(secret, `${rawBody.slice(0, cut)}}`).toString("hex");
  // Constant time, so response timing cannot be used to guess the digest byte by byte.
  return constantTimeEqual(expected, received.toLowerCase());
}
