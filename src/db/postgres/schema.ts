import * as sqliteSchema from "../schema.ts";
import { pgTwinsOf } from "./pg-twin.ts";

// Made from the SQLite schema by ./pg-twin.ts (docs/storage.md). `json`, not jsonb: a bot's config
// keeps its key order.

/** Integer columns past 2^31 besides the epoch-ms times (`*_at`, `*_until`) and durations (`*_ms`). */
const BIGINT_COLUMNS = new Set(["usage_counters.ai_prompt_tokens", "usage_counters.ai_completion_tokens"]);

/** The claim and a rule's walk end in id; the log's tenant-and-rule filter does with deliveries_rule_idx. */
const PG_INDEXES = {
  deliveries_due_idx: ["next_attempt_at", "id"],
  deliveries_rule_idx: ["rule_id", "id"],
  deliveries_tenant_rule_idx: null,
};

/**
 * Its check was a query per attempt; attempts are written only for deliveries their statement holds
 * locked, and a trigger stands in for the cascade (migrations/postgres/0014).
 */
const PG_WITHOUT_FOREIGN_KEYS = ["delivery_attempts.delivery_id"];

/**
 * Messages are keyed by id here, as the search queue's joins want; SQLite finds them by session
 * only, spares every insert that index, and makes its session index unique instead (src/db/schema-chat.ts).
 */
const PG_PRIMARY_KEYS = { chat_messages: "id" };
const PG_PLAIN_INDEXES = ["chat_messages_session_idx"];

const twins = pgTwinsOf(sqliteSchema, {
  indexes: PG_INDEXES,
  primaryKeys: PG_PRIMARY_KEYS,
  plainIndexes: PG_PLAIN_INDEXES,
  withoutForeignKeys: PG_WITHOUT_FOREIGN_KEYS,
  bigintColumn: (table, column) => /_(at|until|ms)$/.test(column) || BIGINT_COLUMNS.has(`${table}.${column}`),
});

export const {
  tenants,
  chatbots,
  users,
  memberships,
  apiKeys,
  refreshTokens,
  settings,
  chatSessions,
  chatMessages,
  leads,
  appointments,
  usageCounters,
  tenantSecrets,
  paymentEvents,
  whatsappMessages,
  analyticsEvents,
  knowledgeSources,
  knowledgeSettings,
  knowledgeDocuments,
  knowledgeChunks,
  chatbotTests,
  chatbotTestRuns,
  unansweredQuestions,
  liveEvents,
  handoffs,
  sessionRatings,
  sessionDesk,
  inboxReads,
  cannedReplies,
  webhookRules,
  events,
  deliveries,
  deliveryAttempts,
  deadLetters,
} = twins;
