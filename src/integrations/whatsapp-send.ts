import type { Deps } from "../deps.ts";
import type { WhatsappSettings } from "./whatsapp-settings.ts";

/** Outbound calls to the Cloud API give up after this; the visitor's message is already handled. */
export const WHATSAPP_SEND_TIMEOUT_MS = 10_000;

/** Cloud API limits for interactive messages (Meta's documentation). */
export const WHATSAPP_LIMITS = Object.freeze({
  buttons: 3,
  buttonTitle: 20,
  listRows: 10,
  listRowTitle: 24,
  interactiveBody: 1024,
  textBody: 4096,
  replyId: 256,
});

/**
 * Quick-reply ids carry the whole quick-reply text behind this prefix: a button's title is
 * cut to 20 characters, and the id is what comes back when the visitor taps it, so the bot
 * sees the words it offered rather than a truncated title.
 */
export const QUICK_REPLY_ID_PREFIX = "parley:";

export interface BotReply {
  text: string;
  quick_replies?: string[];
}

export interface OutboundWhatsappMessage {
  /** The visitor's WhatsApp number (wa_id), digits only. */
  to: string;
  reply: BotReply;
}

const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const replyId = (option: string): string => (QUICK_REPLY_ID_PREFIX + option).slice(0, WHATSAPP_LIMITS.replyId);

/**
 * The Cloud API message body for one bot reply: plain text; up to 3 quick replies as reply
 * buttons; 4 to 10 as a list (WhatsApp has no more than 3 buttons). An interactive body is
 * limited to 1,024 characters, so a longer reply goes out as plain text without its options.
 */
export function buildWhatsappMessage(to: string, reply: BotReply): Record<string, unknown> {
  const options = (reply.quick_replies ?? []).slice(0, WHATSAPP_LIMITS.listRows);
  const base = { messaging_product: "whatsapp", recipient_type: "individual", to };
  if (options.length === 0 || reply.text.length > WHATSAPP_LIMITS.interactiveBody) {
    return { ...base, type: "text", text: { body: cut(reply.text, WHATSAPP_LIMITS.textBody) } };
  }
  if (options.length <= WHATSAPP_LIMITS.buttons) {
    return {
      ...base,
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: reply.text },
        action: {
          buttons: options.map((option) => ({
            type: "reply",
            reply: { id: replyId(option), title: cut(option, WHATSAPP_LIMITS.buttonTitle) },
          })),
        },
      },
    };
  }
  return {
    ...base,
    type: "interactive",
    interactive: {
      type: "list",
      body: { text: reply.text },
      action: {
        button: "Options",
        sections: [
          {
            rows: options.map((option) => ({ id: replyId(option), title: cut(option, WHATSAPP_LIMITS.listRowTitle) })),
          },
        ],
      },
    },
  };
}

export type SendOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/** POSTs one message to `{PARLEY_WHATSAPP_API_URL}/{phone_number_id}/messages`. Never throws. */
export async function sendWhatsappMessage(
  deps: Pick<Deps, "config">,
  settings: WhatsappSettings,
  message: OutboundWhatsappMessage,
): Promise<SendOutcome> {
  try {
    const response = await fetch(`${deps.config.whatsappApiUrl}/${settings.phoneNumberId}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${settings.accessToken}`, "content-type": "application/json" },
      body: JSON.stringify(buildWhatsappMessage(message.to, message.reply)),
      redirect: "error",
      signal: AbortSignal.timeout(WHATSAPP_SEND_TIMEOUT_MS),
    });
    // Meta explains a refusal in the body (an expired token, a number outside the 24-hour window).
    const excerpt = (await response.text().catch(() => "")).slice(0, 500);
    return response.ok ? { ok: true, status: response.status } : { ok: false, status: response.status, error: excerpt };
  } catch (error) {
    return {
      ok: false,
      status: null,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
}

const IN_FLIGHT = new Set<Promise<void>>();

/**
 * Sends a webhook's replies in the background, one after another so a visitor's answers keep
 * their order, after Meta already has its 200: a slow or failing Cloud API must not make Meta
 * redeliver messages the bot has handled. Failures are logged, not retried.
 */
export function queueWhatsappReplies(
  deps: Pick<Deps, "config" | "log">,
  tenantId: string,
  settings: WhatsappSettings,
  messages: readonly OutboundWhatsappMessage[],
): void {
  if (messages.length === 0) return;
  const run = (async () => {
    for (const message of messages) {
      const outcome = await sendWhatsappMessage(deps, settings, message);
      if (!outcome.ok)
        deps.log.error({
          msg: "whatsapp_reply_failed",
          tenant_id: tenantId,
          to: message.to,
          status: outcome.status,
          error: outcome.error,
        });
    }
  })();
  IN_FLIGHT.add(run);
  void run.finally(() => IN_FLIGHT.delete(run));
}

/** Resolves once every queued reply has been sent or has failed (tests, graceful shutdown). */
export async function settleWhatsappReplies(): Promise<void> {
  while (IN_FLIGHT.size > 0) await Promise.allSettled([...IN_FLIGHT]);
}
