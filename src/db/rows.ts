import type {
  analyticsEvents,
  apiKeys,
  knowledgeChunks,
  knowledgeDocuments,
  knowledgeSources,
  paymentEvents,
  tenantSecrets,
  appointments,
  chatMessages,
  chatSessions,
  leads,
  usageCounters,
  chatbots,
  deadLetters,
  deliveries,
  deliveryAttempts,
  events,
  memberships,
  refreshTokens,
  tenants,
  users,
  webhookRules,
} from "./schema.ts";

// Row types of the store, inferred from the drizzle schema: a column added to the schema shows
// up here, and in every store that must return it, without a hand-written interface to forget.

export type WebhookRuleRow = typeof webhookRules.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type DeliveryRow = typeof deliveries.$inferSelect;
export type DeliveryAttemptRow = typeof deliveryAttempts.$inferSelect;
export type DeadLetterRow = typeof deadLetters.$inferSelect;

export type TenantRow = typeof tenants.$inferSelect;
export type NewChatbot = typeof chatbots.$inferInsert;
export type UserRow = typeof users.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type ChatSessionRow = typeof chatSessions.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;
export type LeadRow = typeof leads.$inferSelect;
export type AppointmentRow = typeof appointments.$inferSelect;
export type UsageCounterRow = typeof usageCounters.$inferSelect;
export type AnalyticsEventRow = typeof analyticsEvents.$inferSelect;
export type TenantSecretRow = typeof tenantSecrets.$inferSelect;
export type PaymentEventRow = typeof paymentEvents.$inferSelect;
export type KnowledgeDocumentRow = typeof knowledgeDocuments.$inferSelect;
export type KnowledgeChunkRow = typeof knowledgeChunks.$inferSelect;
export type KnowledgeSourceRow = typeof knowledgeSources.$inferSelect;
