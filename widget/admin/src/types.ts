/**
 * The API's shapes, as the admin page reads them: the server's own view types, imported as
 * types only (erased from the browser bundle), so the page cannot drift from the API.
 */
import type { DeadLetterView } from "../../../src/webhooks/dead-letters.ts";
import type { AttemptView, DeliveryView } from "../../../src/webhooks/deliveries.ts";
import type { RetriggerResult } from "../../../src/webhooks/dead-letters.ts";
import type { RuleView } from "../../../src/webhooks/rules.ts";
import type { MessageView, SessionView } from "../../../src/chat/sessions.ts";
import type { summarizeRatings } from "../../../src/frontdesk/csat.ts";

export type DeadLetter = DeadLetterView;
export type Delivery = DeliveryView;
export type Attempt = AttemptView;
export type Rule = RuleView;
export type Session = SessionView;
export type Message = MessageView;
export type Retriggered = RetriggerResult;
import type { DocumentView } from "../../../src/knowledge/documents.ts";
import type { KnowledgeHit } from "../../../src/knowledge/search.ts";
import type { SourceView } from "../../../src/knowledge/sources.ts";
import type { AiConfigView } from "../../../src/chat/engine/ai-config.ts";

export type KnowledgeDocument = DocumentView;
export type Hit = KnowledgeHit;
export type KnowledgeSource = SourceView;
export type AiSettingsView = AiConfigView;
import type { DayDeliveryStats, DeliveryDetails, RuleDeliveryStats } from "../../../src/webhooks/delivery-stats.ts";
import type { InboxChat as InboxChatView } from "../../../src/frontdesk/inbox-view.ts";
import type { CannedReplyView } from "../../../src/frontdesk/canned-replies.ts";
import type { summarizeAnalytics } from "../../../src/analytics/summary.ts";

/** A row of GET /webhooks/dead-letters or /webhooks/deliveries: the view plus url and attempts across cycles. */
export type ListedDeadLetter = DeadLetterView & DeliveryDetails;
export type ListedDelivery = DeliveryView & DeliveryDetails;
export type InboxChat = InboxChatView;
export type CannedReply = CannedReplyView;
export type AnalyticsSummary = Awaited<ReturnType<typeof summarizeAnalytics>>;

export interface WebhookStats {
  days: number;
  rules: RuleDeliveryStats[];
  daily: DayDeliveryStats[];
}

export interface RetryPolicy {
  attempts_per_cycle: number;
  retry_delays_s: number[];
  delivery_timeout_s: number;
  dead_letter_retention_s: number;
  event_retention_s: number;
}

/** GET /analytics/ratings: the visitors' 1–5 ratings of closed chats. */
export type Csat = Awaited<ReturnType<typeof summarizeRatings>>;
