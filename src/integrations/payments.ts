import type { Deps } from "../deps.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { constantTimeEqual, hmacSha256 } from "../lib/crypto.ts";
import { parseRequestJson } from "../lib/safe-json.ts";
import { invalidField } from "../lib/validate.ts";
import { enqueueEvent } from "../webhooks/emit-event.ts";
import type { EventName } from "../webhooks/events.ts";

export const PAYMENT_SECRET_MIN_LENGTH = 16;
export const PAYMENT_SECRET_MAX_LENGTH = 256;
/** Stripe's own default: a signed request older (or newer) than this is refused as a replay. */
export const SIGNATURE_TOLERANCE_SEC = 300;

/**
 * Stripe event types Parley turns into its payment events. Everything else is acknowledged
 * and ignored, so a tenant may point a Stripe endpoint at "all events" without errors.
 */
export const STRIPE_EVENT_MAP: Readonly<Record<string, EventName>> = Object.freeze({
  "payment_intent.succeeded": "payment.succeeded",
  "charge.succeeded": "payment.succeeded",
  "invoice.paid": "payment.succeeded",
  "checkout.session.completed": "payment.succeeded",
  "checkout.session.async_payment_succeeded": "payment.succeeded",
  "payment_intent.payment_failed": "payment.failed",
  "charge.failed": "payment.failed",
  "invoice.payment_failed": "payment.failed",
  "checkout.session.async_payment_failed": "payment.failed",
});

/** Stores (or replaces) the tenant's payment signing secret, e.g. Stripe's `whsec_…`. */
export async function setPaymentSecret(deps: Deps, tenantId: string, secret: string): Promise<void> {
  if (secret.length < PAYMENT_SECRET_MIN_LENGTH || secret.length > PAYMENT_SECRET_MAX_LENGTH) {
    throw invalidField("secret", `must be ${PAYMENT_SECRET_MIN_LENGTH} to ${PAYMENT_SECRET_MAX_LENGTH} characters`);
  }
  await deps.store.transaction(async (tx) => {
    if (!(await tx.tenants.findTenantPlan(tenantId))) throw notFound("tenant");
    await tx.integrations.upsertPaymentSecret(tenantId, secret, deps.clock.now());
  });
}

/**
 * The tenant's payment signing secret. tenant_secrets rows cascade with their tenant, so this
 * one look-up answers both "no such tenant" and "no secret" — the caller cannot (and must not)
 * tell them apart.
 */
async function findPaymentSecret(deps: Pick<Deps, "store">, tenantId: string): Promise<string | null> {
  return (await deps.store.integrations.findTenantSecrets(tenantId))?.paymentSecret ?? null;
}

export async function hasPaymentSecret(deps: Deps, tenantId: string): Promise<boolean> {
  return (await findPaymentSecret(deps, tenantId)) !== null;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: "missing" | "malformed" | "mismatch" | "expired" };

/**
 * Verifies a `Stripe-Signature` header: `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, where each
 * v1 is hex HMAC-SHA256(secret, `${t}.${rawBody}`) over the exact bytes received. Several v1
 * entries appear while a secret is being rolled; any one matching is enough. The timestamp is
 * inside the signed text, so checking it against the clock stops a captured request from being
 * replayed later.
 */
export function verifyStripeSignature(
  header: string | null | undefined,
  rawBody: string | Uint8Array,
  secret: string,
  nowMs: number,
  toleranceSec = SIGNATURE_TOLERANCE_SEC,
): SignatureCheck {
  if (!header) return { ok: false, reason: "missing" };
  let timestamp: string | undefined;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === "t") timestamp = value;
    else if (key === "v1") candidates.push(value.toLowerCase());
  }
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || candidates.length === 0) return { ok: false, reason: "malformed" };

  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  const expected = hmacSha256(secret, Buffer.concat([Buffer.from(`${timestamp}.`, "utf8"), body])).toString("hex");
  // Compare against every candidate without stopping early: which entry matched must not show in timing.
  let matched = false;
  for (const candidate of candidates) matched = constantTimeEqual(candidate, expected) || matched;
  if (!matched) return { ok: false, reason: "mismatch" };
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > toleranceSec) return { ok: false, reason: "expired" };
  return { ok: true };
}

export type PaymentHookResult =
  | { received: true; event: EventName; event_id: string }
  | { received: true; duplicate: true; event_id: string }
  | { received: true; ignored: true };

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The value at a dotted path, or undefined when any step is missing. */
function pathOf(object: JsonObject, path: string): unknown {
  let current: unknown = object;
  for (const key of path.split(".")) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

function firstInteger(object: JsonObject, paths: readonly string[]): number | null {
  for (const path of paths) {
    const value = pathOf(object, path);
    if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  }
  return null;
}

function firstString(object: JsonObject, paths: readonly string[]): string | null {
  for (const path of paths) {
    const value = pathOf(object, path);
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return null;
}

// Which amount field means "what was paid" (or "what failed to be paid") depends on the object:
// a payment intent's amount_received, an invoice's amount_paid / amount_due, a checkout
// session's amount_total, a charge's amount. The generic tail covers anything else.
const AMOUNT_PATHS: Readonly<Record<string, readonly string[]>> = {
  "payment_intent.succeeded": ["amount_received", "amount"],
  "payment_intent.payment_failed": ["amount"],
  "invoice.paid": ["amount_paid", "total"],
  "invoice.payment_failed": ["amount_due", "total"],
};
const GENERIC_AMOUNT_PATHS = ["amount_total", "amount", "amount_received", "amount_paid", "amount_due"] as const;

const EMAIL_PATHS = [
  "receipt_email",
  "customer_email",
  "customer_details.email",
  "billing_details.email",
  "last_payment_error.payment_method.billing_details.email",
] as const;

const FAILURE_PATHS = [
  "last_payment_error.code",
  "failure_code",
  "last_payment_error.decline_code",
  "outcome.reason",
] as const;

function occurredAt(event: JsonObject, nowMs: number): string {
  const created = event.created;
  return typeof created === "number" && Number.isFinite(created) && created > 0 && created < 1e11
    ? toIso(created * 1000)
    : toIso(nowMs);
}

/** Parley's event data for a Stripe event, in the key order of EVENT_CATALOG's examples. */
function paymentData(event: JsonObject, type: string, parleyEvent: EventName, nowMs: number): Record<string, unknown> {
  const object = isObject(pathOf(event, "data.object")) ? (pathOf(event, "data.object") as JsonObject) : {};
  const currency = firstString(object, ["currency"]);
  const data: Record<string, unknown> = {
    payment_id: firstString(object, ["id"]),
    amount: firstInteger(object, [...(AMOUNT_PATHS[type] ?? []), ...GENERIC_AMOUNT_PATHS]),
    currency: currency ? currency.toUpperCase() : null,
    customer_email: firstString(object, EMAIL_PATHS),
    provider: "stripe",
  };
  if (parleyEvent === "payment.failed") data.failure_reason = firstString(object, FAILURE_PATHS) ?? "unknown";
  data.occurred_at = occurredAt(event, nowMs);
  return data;
}

const MAX_PROVIDER_ID_LENGTH = 255;
const isBoundedId = (value: unknown): value is string =>
  typeof value === "string" && value.trim() !== "" && value.length <= MAX_PROVIDER_ID_LENGTH;

// ISO 4217 codes as the runtime's ICU knows them (about 300): a made-up currency is refused.
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/**
 * A signed event still carries data a receiver will trust: the paid object's id, a finite
 * non-negative amount in minor units and a real currency. Anything else is refused (422) and
 * nothing is emitted, rather than passing `-5 XYZ` on to a CRM.
 */
function checkPaymentObject(object: JsonObject, type: string): void {
  const invalid = (message: string) =>
    new AppError("invalid_event", 422, `The ${type} event is not valid: ${message}.`);
  if (!isBoundedId(object.id))
    throw invalid(`data.object.id must be a string of 1 to ${MAX_PROVIDER_ID_LENGTH} characters`);
  for (const path of [...(AMOUNT_PATHS[type] ?? []), ...GENERIC_AMOUNT_PATHS]) {
    const amount = object[path];
    if (amount === undefined || amount === null) continue;
    if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount < 0)
      throw invalid(`data.object.${path} must be a non-negative whole number of minor units`);
  }
  const currency = object.currency;
  if (
    currency !== undefined &&
    currency !== null &&
    (typeof currency !== "string" || !ISO_CURRENCIES.has(currency.toUpperCase()))
  ) {
    throw invalid("data.object.currency must be an ISO 4217 currency code");
  }
}

function parseEvent(rawBody: string | Uint8Array): { id: string; type: string; event: JsonObject } {
  const parsed = parseRequestJson(typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8"));
  if (!isObject(parsed) || !isBoundedId(parsed.id) || !isBoundedId(parsed.type)) {
    throw new AppError(
      "invalid_event",
      422,
      `The body must be a provider event object whose id and type are strings of 1 to ${MAX_PROVIDER_ID_LENGTH} characters.`,
    );
  }
  return { id: parsed.id, type: parsed.type, event: parsed };
}

/**
 * Turns one signed Stripe event into payment.succeeded / payment.failed for `tenantId`.
 * Order matters: the secret look-up (404 for an unknown tenant and for one without a secret,
 * alike), then the signature over the raw bytes (401), and only then is the body parsed —
 * nothing unauthenticated is interpreted. A provider event already accepted for this tenant
 * is acknowledged without a second Parley event, because providers retry until they get a 2xx.
 */
export async function handlePaymentEvent(
  deps: Deps,
  tenantId: string,
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  /** Called once the signature holds, before anything is parsed: the route counts the tenant's allowance there. */
  onAuthenticated: () => void | Promise<void> = () => {},
): Promise<PaymentHookResult> {
  const secret = await findPaymentSecret(deps, tenantId);
  if (!secret) throw new AppError("tenant_not_found", 404, "No such tenant.");

  const now = deps.clock.now();
  const check = verifyStripeSignature(signatureHeader, rawBody, secret, now);
  if (!check.ok) {
    const why =
      check.reason === "expired"
        ? "its timestamp is outside the 5-minute tolerance"
        : check.reason === "missing"
          ? "the Stripe-Signature header is missing"
          : "it does not match the tenant's payment secret";
    throw new AppError("invalid_signature", 401, `The Stripe-Signature is not valid: ${why}.`);
  }
  await onAuthenticated();

  const { id, type, event } = parseEvent(rawBody);
  const parleyEvent = STRIPE_EVENT_MAP[type];
  if (!parleyEvent) return { received: true, ignored: true };
  // A completed checkout for a delayed payment method is not paid yet; the async_payment_*
  // event that follows reports the outcome.
  if (type === "checkout.session.completed" && pathOf(event, "data.object.payment_status") === "unpaid")
    return { received: true, ignored: true };

  checkPaymentObject(isObject(pathOf(event, "data.object")) ? (pathOf(event, "data.object") as JsonObject) : {}, type);
  const data = paymentData(event, type, parleyEvent, now);
  // The dedupe row and the outbox rows commit together: a retry racing the first copy either
  // finds the row (duplicate) or waits on the write lock and then finds it.
  return deps.store.transaction(async (tx): Promise<PaymentHookResult> => {
    const seen = await tx.integrations.findPaymentEvent("stripe", id, tenantId);
    if (seen) return { received: true, duplicate: true, event_id: seen.eventId };
    const emitted = await enqueueEvent(deps, tx, { tenantId, event: parleyEvent, data });
    await tx.integrations.insertPaymentEvent({
      provider: "stripe",
      providerEventId: id,
      tenantId,
      eventId: emitted.eventId,
      receivedAt: now,
    });
    return { received: true, event: parleyEvent, event_id: emitted.eventId };
  });
}

/**
 * How long a provider event id is remembered for de-duplication. Stripe retries an event for
 * up to three days; a month is a wide margin, and the table stays small.
 */
export const PAYMENT_EVENT_DEDUPE_MS = 30 * 86_400_000;

/** Forgets provider event ids older than the de-duplication window. */
export function purgeOldPaymentEvents(deps: Pick<Deps, "store">, nowMs: number): Promise<number> {
  return deps.store.integrations.purgePaymentEventsBefore(nowMs - PAYMENT_EVENT_DEDUPE_MS);
}
