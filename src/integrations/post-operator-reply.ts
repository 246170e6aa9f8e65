import type { Deps } from "../deps.ts";
import { relayOperatorMessageToWhatsapp } from "./whatsapp-relay.ts";
import { postOperatorMessage, type MessageView } from "../chat/sessions.ts";

/**
 * An operator's reply: stored in the session (a session the bot still handles is taken over),
 * then, for a WhatsApp session, relayed to the visitor's number in the background (headed with
 * the operator's name when they have one). The reply stands even when the relay cannot be
 * queued (WhatsApp settings gone): that is logged.
 */
export async function postOperatorReply(
  deps: Deps,
  tenantId: string,
  sessionId: string,
  input: { text: string; authorId?: string },
): Promise<MessageView> {
  const message = await postOperatorMessage(deps, tenantId, sessionId, input);
  await relayOperatorMessageToWhatsapp(deps, tenantId, sessionId, message.text, message.author_name);
  return message;
}
