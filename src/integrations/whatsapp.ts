import type { Deps } from "../deps.ts";
import type { Transaction } from "../db/store.ts";
import { handleMessage } from "../chat/handle-message.ts";
import { AppError } from "../lib/app-error.ts";
import { constantTimeEqual, hmacSha256 } from "../lib/crypto.ts";
import { parseRequestJson } from "../lib/safe-json.ts";
import { findTenant } from "../tenants/find-tenant.ts";
import { findWhatsappSettings } from "./whatsapp-settings.ts";
import { QUICK_REPLY_ID_PREFIX, queueWhatsappReplies, type OutboundWhatsappMessage } from "./whatsapp-send.ts";

/**
 * How long a WhatsApp message id is remembered. Meta redelivers an unacknowledged webhook for
 * up to 7 days; a month is a wide margin and the table stays small.
 */
export const WHATSAPP_MESSAGE_DEDUPE_MS = 30 * 86_400_000;

const notFound = () => new AppError("tenant_not_found", 404, "No such tenant.");

export interface WhatsappHandshakeQuery {
  mode?: string;
  verifyToken?: string;
  challenge?: string;
}

/**
 * Meta's subscription handshake: echo `hub.challenge` when `hub.verify_token` is the one the
 * tenant chose. 404 for an unknown tenant and an unconfigured one alike, then 403 for a wrong
 * token, compared in constant time.
 */
export async function answerWhatsappHandshake(
  deps: Deps,
  tenantId: string,
  query: WhatsappHandshakeQuery,
): Promise<string> {
  const settings = await findWhatsappSettings(deps, tenantId);
  if (!settings) throw notFound();
  const tokenMatches = constantTimeEqual(query.verifyToken ?? "", settings.verifyToken);
  if (query.mode !== "subscribe" || !tokenMatches)
    throw new AppError("forbidden", 403, "The verify token does not match the tenant's WhatsApp settings.");
  if (!query.challenge) throw new AppError("invalid_handshake", 400, "hub.challenge is missing.");
  return query.challenge;
}

export type WhatsappSignatureCheck = { ok: true } | { ok: false; reason: "missing" | "malformed" | "mismatch" };

/** Checks `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret, raw body)>` over the exact bytes received. */
export function verifyWhatsappSignature(
  header: string | null | undefined,
  rawBody: string | Uint8Array,
  appSecret: string,
): WhatsappSignatureCheck {
  if (!header) return { ok: false, reason: "missing" };
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match?.[1]) return { ok: false, reason: "malformed" };
  const expected = hmacSha256(appSecret, rawBody).toString("hex");
  return constantTimeEqual(match[1].toLowerCase(), expected) ? { ok: true } : { ok: false, reason: "mismatch" };
}

/** One inbound visitor message the bot can read, taken out of Meta's webhook envelope. */
export interface InboundWhatsappMessage {
  id: string;
  from: string;
  text: string;
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/** A tapped quick reply: the full text Parley put in the id, else (someone else's button) its title. */
function tappedReply(reply: unknown): string | null {
  if (!isObject(reply)) return null;
  if (
    nonEmpty(reply.id) &&
    reply.id.startsWith(QUICK_REPLY_ID_PREFIX) &&
    reply.id.length > QUICK_REPLY_ID_PREFIX.length
  )
    return reply.id.slice(QUICK_REPLY_ID_PREFIX.length);
  return nonEmpty(reply.title) ? reply.title : null;
}

/** The words of a message: typed text, a tapped button or list row, a template button. */
function textOf(message: JsonObject): string | null {
  switch (message.type) {
    case "text":
      return isObject(message.text) && nonEmpty(message.text.body) ? message.text.body : null;
    case "interactive":
      if (!isObject(message.interactive)) return null;
      return tappedReply(message.interactive.button_reply) ?? tappedReply(message.interactive.list_reply);
    case "button":
      return isObject(message.button) && nonEmpty(message.button.text) ? message.button.text : null;
    default:
      // Images, audio, locations, reactions…: acknowledged, not read.
      return null;
  }
}

const MESSAGE_ID_PATTERN = /^[\w.=:+/-]{1,255}$/;
const WA_ID_PATTERN = /^\d{1,32}$/;

/**
 * The readable messages of a Cloud API webhook (`entry[].changes[].value.messages[]`), and how
 * many others (statuses excepted) were skipped. Only a body that is not the webhook envelope is
 * refused: a message of a kind the bot cannot read is acknowledged, or Meta would redeliver it
 * for a week. Messages sent to another of the business's numbers are not this tenant's to answer.
 */
export function parseWhatsappWebhook(
  rawBody: string | Uint8Array,
  phoneNumberId: string,
): { messages: InboundWhatsappMessage[]; ignored: number } {
  const parsed = parseRequestJson(typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8"));
  const invalid = () =>
    new AppError(
      "invalid_payload",
      400,
      "The body must be a WhatsApp Cloud API webhook: an object with an entry array of objects with changes arrays.",
    );
  if (!isObject(parsed) || !Array.isArray(parsed.entry)) throw invalid();
  const messages: InboundWhatsappMessage[] = [];
  let ignored = 0;
  for (const entry of parsed.entry) {
    if (!isObject(entry) || (entry.changes !== undefined && !Array.isArray(entry.changes))) throw invalid();
    for (const change of (entry.changes ?? []) as unknown[]) {
      if (!isObject(change) || !isObject(change.value)) throw invalid();
      const value = change.value;
      if (value.messages === undefined) continue;
      if (!Array.isArray(value.messages)) throw invalid();
      const metadataNumber = isObject(value.metadata) ? value.metadata.phone_number_id : undefined;
      const ours = metadataNumber === undefined || String(metadataNumber) === phoneNumberId;
      for (const message of value.messages) {
        const text = ours && isObject(message) ? textOf(message) : null;
        if (
          text === null ||
          !isObject(message) ||
          typeof message.id !== "string" ||
          !MESSAGE_ID_PATTERN.test(message.id) ||
          typeof message.from !== "string" ||
          !WA_ID_PATTERN.test(message.from)
        ) {
          ignored += 1;
          continue;
        }
        messages.push({ id: message.id, from: message.from, text });
      }
    }
  }
  return { messages, ignored };
}

/** Thrown inside the write transaction when a concurrent delivery of the same message won the dedupe row. */
const ALREADY_SEEN = new Error("whatsapp message already handled");

export interface WhatsappHookResult {
  received: true;
  /** Messages the bot handled (answered, or stored in silence during a hand-off). */
  handled: number;
  /** Message ids already handled: Meta's redeliveries. */
  duplicates: number;
  /** Messages not read: other kinds than text, another number's, refused (quota, length). */
  ignored: number;
}

/**
 * One signed Cloud API webhook for `tenantId`. Order matters, as for payments: the settings
 * look-up (404, alike for unknown and unconfigured tenants), the signature over the raw bytes
 * (401), and only then is the body parsed. Each message is handled in its own transaction with
 * its dedupe row, so a redelivery of a half-handled batch answers only what was not yet
 * answered. The bot's replies are sent after the response, in the background.
 */
export async function handleWhatsappWebhook(
  deps: Deps,
  tenantId: string,
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  /** Called once the signature holds, before anything is parsed: the route counts the tenant's allowance there. */
  onAuthenticated: () => void | Promise<void> = () => {},
): Promise<WhatsappHookResult> {
  const settings = await findWhatsappSettings(deps, tenantId);
  const tenant = settings ? await findTenant(deps, tenantId) : null;
  if (!settings || !tenant) throw notFound();
  const check = verifyWhatsappSignature(signatureHeader, rawBody, settings.appSecret);
  if (!check.ok) {
    const why =
      check.reason === "missing"
        ? "the X-Hub-Signature-256 header is missing"
        : "it does not match the tenant's app secret";
    throw new AppError("invalid_signature", 401, `The X-Hub-Signature-256 is not valid: ${why}.`);
  }
  await onAuthenticated();

  const { messages, ignored } = parseWhatsappWebhook(rawBody, settings.phoneNumberId);
  const result: WhatsappHookResult = { received: true, handled: 0, duplicates: 0, ignored };
  const replies: OutboundWhatsappMessage[] = [];
  for (const message of messages) {
    try {
      if (await deps.store.integrations.hasWhatsappMessage(tenantId, message.id)) {
        result.duplicates += 1;
        continue;
      }
      // The dedupe row commits with the message, inside handleMessage's write transaction (the
      // assistant's model call runs before it): a refused message (rolled back) leaves none.
      const markSeen = async (tx: Transaction) => {
        if (!(await tx.integrations.insertWhatsappMessage(tenantId, message.id, deps.clock.now()))) throw ALREADY_SEEN;
      };
      const outcome = await handleMessage(deps, {
        tenant,
        visitorRef: message.from,
        text: message.text,
        channel: "whatsapp",
        withinWrite: markSeen,
      }).catch((error: unknown) => {
        if (error === ALREADY_SEEN) return null;
        throw error;
      });
      if (!outcome) {
        result.duplicates += 1;
        continue;
      }
      result.handled += 1;
      if (outcome.reply) replies.push({ to: message.from, reply: outcome.reply });
    } catch (error) {
      // A refusal (quota used up, a message over the length limit) is final: answering Meta
      // with an error would only bring the same message back. Anything else is unexpected and
      // answered 500, so Meta redelivers; the messages already handled are then duplicates.
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      deps.log.info({
        msg: "whatsapp_message_refused",
        tenant_id: tenantId,
        message_id: message.id,
        error: error.code,
      });
      result.ignored += 1;
    }
  }
  queueWhatsappReplies(deps, tenantId, settings, replies);
  return result;
}

/** Forgets WhatsApp message ids older than the de-duplication window. */
export function purgeOldWhatsappMessages(deps: Pick<Deps, "store">, nowMs: number): Promise<number> {
  return deps.store.integrations.purgeWhatsappMessagesBefore(nowMs - WHATSAPP_MESSAGE_DEDUPE_MS);
}
