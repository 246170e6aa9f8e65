// Imported as text so the binary carries its schema; test/db/migrate.test.ts fails on a missing entry.
import journal from "../../migrations/meta/_journal.json" with { type: "json" };
import foundation from "../../migrations/0000_foundation.sql" with { type: "text" };
import webhooks from "../../migrations/0001_webhooks.sql" with { type: "text" };
import chat from "../../migrations/0002_chat.sql" with { type: "text" };
import payments from "../../migrations/0003_payments.sql" with { type: "text" };
import sessionIndex from "../../migrations/0004_session_index.sql" with { type: "text" };
import analytics from "../../migrations/0005_analytics.sql" with { type: "text" };
import whatsapp from "../../migrations/0006_whatsapp.sql" with { type: "text" };
import aiUsage from "../../migrations/0007_ai_usage.sql" with { type: "text" };
import knowledge from "../../migrations/0008_knowledge.sql" with { type: "text" };
import retention from "../../migrations/0009_retention.sql" with { type: "text" };
import visitorRefused from "../../migrations/0010_visitor_refused.sql" with { type: "text" };
import listIndexes from "../../migrations/0011_list_indexes.sql" with { type: "text" };
import operatorNames from "../../migrations/0012_operator_names.sql" with { type: "text" };
import chatbotTests from "../../migrations/0013_chatbot_tests.sql" with { type: "text" };
import liveEvents from "../../migrations/0014_live_events.sql" with { type: "text" };
import webhookFeatures from "../../migrations/0015_webhook_features.sql" with { type: "text" };
import orderedDelivery from "../../migrations/0016_ordered_delivery.sql" with { type: "text" };
import frontDeskVisitor from "../../migrations/0017_front_desk_visitor.sql" with { type: "text" };
import frontDeskInbox from "../../migrations/0018_front_desk_inbox.sql" with { type: "text" };
import knowledgeSources from "../../migrations/0019_knowledge_sources.sql" with { type: "text" };
import searchVocabulary from "../../migrations/0020_search_vocabulary.sql" with { type: "text" };
import handoffTimeOnce from "../../migrations/0021_handoff_time_once.sql" with { type: "text" };
import messageIndexBySession from "../../migrations/0022_message_index_by_session.sql" with { type: "text" };

export const MIGRATION_JOURNAL = journal;

export const EMBEDDED_MIGRATIONS: ReadonlyArray<{ tag: string; sql: string }> = [
  { tag: "0000_foundation", sql: foundation },
  { tag: "0001_webhooks", sql: webhooks },
  { tag: "0002_chat", sql: chat },
  { tag: "0003_payments", sql: payments },
  { tag: "0004_session_index", sql: sessionIndex },
  { tag: "0005_analytics", sql: analytics },
  { tag: "0006_whatsapp", sql: whatsapp },
  { tag: "0007_ai_usage", sql: aiUsage },
  { tag: "0008_knowledge", sql: knowledge },
  { tag: "0009_retention", sql: retention },
  { tag: "0010_visitor_refused", sql: visitorRefused },
  { tag: "0011_list_indexes", sql: listIndexes },
  { tag: "0012_operator_names", sql: operatorNames },
  { tag: "0013_chatbot_tests", sql: chatbotTests },
  { tag: "0014_live_events", sql: liveEvents },
  { tag: "0015_webhook_features", sql: webhookFeatures },
  { tag: "0016_ordered_delivery", sql: orderedDelivery },
  { tag: "0017_front_desk_visitor", sql: frontDeskVisitor },
  { tag: "0018_front_desk_inbox", sql: frontDeskInbox },
  { tag: "0019_knowledge_sources", sql: knowledgeSources },
  { tag: "0020_search_vocabulary", sql: searchVocabulary },
  { tag: "0021_handoff_time_once", sql: handoffTimeOnce },
  { tag: "0022_message_index_by_session", sql: messageIndexBySession },
];
