/**
 * The API's shapes, as the admin page reads them: the server's own view types, imported as
 * types only (erased from the browser bundle), so the page cannot drift from the API.
 */
import type { DeadLetterView } from "../../../src/webhooks/dead-letters.ts";
import type { AttemptView, DeliveryView } from "../../../src/webhooks/deliveries.ts";
import type { RetriggerResult } from "../../../src/webhooks/dead-letters.ts";
import type { RuleView } from "../../../src/webhooks/rules.ts";
import type { MessageView, SessionView } from "../../../src/chat/sessions.ts";

export type DeadLetter = DeadLetterView;
export type Delivery = DeliveryView;
export type Attempt = AttemptView;
export type Rule = RuleView;
export type Session = SessionView;
export type Message = MessageView;
export type Retriggered = RetriggerResult;
import type { DocumentView } from "../../../src/knowledge/documents.ts";
import type { KnowledgeHit } from "../../../src/knowledge/search.ts";
import type { AiConfigView } from "../../../src/assistant/ai-config.ts";

export type KnowledgeDocument = DocumentView;
export type Hit = KnowledgeHit;
export type AiSettingsView = AiConfigView;
