import type { Deps } from "../deps.ts";
import { requireSession } from "../chat/sessions.ts";
import { queueWhatsappReplies } from "./whatsapp-send.ts";
import { findWhatsappSettings } from "./whatsapp-settings.ts";

/**
 * An operator's reply in a WhatsApp session goes to the visitor's WhatsApp number too (in the
 * background, like the bot's replies), headed with the operator's name in bold when they have
 * one — the widget shows it beside the message, and on WhatsApp every message comes from the
 * business's one number. Returns whether it was queued: false for sessions of other channels,
 * or when the tenant's WhatsApp settings are gone (logged).
 */
export async function relayOperatorMessageToWhatsapp(
  deps: Deps,
  tenantId: string,
  sessionId: string,
  text: string,
  authorName: string | null = null,
): Promise<boolean> {
  const session = await requireSession(deps.store, tenantId, sessionId);
  if (session.channel !== "whatsapp" || !session.visitorRef) return false;
  const settings = await findWhatsappSettings(deps, tenantId);
  if (!settings) {
    deps.log.error({
      msg: "whatsapp_operator_reply_not_sent",
      tenant_id: tenantId,
      session_id: sessionId,
      reason: "WhatsApp is not configured for this tenant",
    });
    return false;
  }
  queueWhatsappReplies(deps, tenantId, settings, [
    { to: session.visitorRef, reply: { text: withAuthor(text, authorName) } },
  ]);
  return true;
}

/** "*Maria:* Hi…" (WhatsApp's bold); asterisks in the name would end the bold early, so they go. */
function withAuthor(text: string, authorName: string | null): string {
  const name = authorName?.replaceAll("*", "").trim();
  return name ? `*${name}:* ${text}` : text;
}
