import type { Deps } from "../deps.ts";
import { requireSession } from "../chat/sessions.ts";
import { queueWhatsappReplies } from "./whatsapp-send.ts";
import { findWhatsappSettings } from "./whatsapp-settings.ts";

/**
 * An operator's reply in a WhatsApp session goes to the visitor's WhatsApp number too (in the
 * background, like the bot's replies). Returns whether it was queued: false for sessions of
 * other channels, or when the tenant's WhatsApp settings are gone (logged).
 */
export function relayOperatorMessageToWhatsapp(deps: Deps, tenantId: string, sessionId: string, text: string): boolean {
  const session = requireSession(deps, tenantId, sessionId);
  if (session.channel !== "whatsapp" || !session.visitor_ref) return false;
  const settings = findWhatsappSettings(deps, tenantId);
  if (!settings) {
    deps.log.error({ msg: "whatsapp_operator_reply_not_sent", tenant_id: tenantId, session_id: sessionId, reason: "WhatsApp is not configured for this tenant" });
    return false;
  }
  queueWhatsappReplies(deps, tenantId, settings, [{ to: session.visitor_ref, reply: { text } }]);
  return true;
}
