import * as sqliteSchema from "../schema.ts";
import { pgTwinsOf } from "./pg-twin.ts";

// The PostgreSQL tables, made from the SQLite schema (src/db/schema*.ts) by ./pg-twin.ts: the
// same tables, column names, keys and indexes, with PostgreSQL's types — `bigint` epoch-ms times
// (selected as float8 so they come back as numbers: src/db/postgres/columns.ts), `boolean`,
// `double precision`, `bytea`, and `json` (not jsonb: a bot's config document keeps its key
// order); three delivery indexes differ (PG_INDEXES). Migrations:
// migrations/postgres (drizzle-kit, dialect postgresql); 0001 (custom) gives every text column
// COLLATE "C" so ids sort byte by byte, as on SQLite.

/** Integer columns past 2^31 besides the epoch-ms times (`*_at`, `*_until`) and durations (`*_ms`). */
const BIGINT_COLUMNS = new Set(["usage_counters.ai_prompt_tokens", "usage_counters.ai_completion_tokens"]);

/**
 * PostgreSQL's claim walks due deliveries in (due time, id) order and stops at its window, and a
 * rule's deliveries are read in id order, so those two indexes end in id; the tenant-and-rule
 * filter of the delivery log does with deliveries_rule_idx there (one index less to write at each
 * state change of a delivery).
 */
const PG_INDEXES = {
  deliveries_due_idx: ["next_attempt_at", "id"],
  deliveries_rule_idx: ["rule_id", "id"],
  deliveries_tenant_rule_idx: null,
};

/**
 * The attempt log's foreign key to its delivery: its check was a query per attempt logged (one a
 * delivery). Attempts are only written for deliveries the same statement holds locked
 * (./delivery-queue-record.ts), and a trigger deletes the attempts of deleted deliveries in one
 * statement per DELETE, as the cascade did (migrations/postgres/0014_attempts_without_fk.sql).
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
