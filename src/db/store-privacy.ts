import type {
  AnalyticsEventRow,
  AppointmentRow,
  ChatMessageRow,
  ChatSessionRow,
  DeliveryRow,
  EventRow,
  LeadRow,
} from "./rows.ts";

/**
 * What erasure and export (src/chat/person-records.ts) read and delete, and the chat-retention
 * sweep. Every finder is scoped to one tenant; an empty list of values finds nothing.
 */
export interface PrivacyQueries {
  findLeads(tenantId: string, by: "id" | "sessionId" | "phone", values: readonly string[]): Promise<LeadRow[]>;
  findAppointments(tenantId: string, by: "sessionId" | "phone", values: readonly string[]): Promise<AppointmentRow[]>;
  /** Case-insensitive on the stored e-mail; `emails` are lower case. */
  findLeadsByEmail(tenantId: string, emails: readonly string[]): Promise<LeadRow[]>;
  findAppointmentsByEmail(tenantId: string, emails: readonly string[]): Promise<AppointmentRow[]>;
  findSessions(tenantId: string, by: "id" | "visitorRef", values: readonly string[]): Promise<ChatSessionRow[]>;
  /** Sessions whose transcript or conversation state contains one of `needles`, case-insensitively. */
  findSessionsMentioning(tenantId: string, needles: readonly string[]): Promise<ChatSessionRow[]>;
  listMessagesOfSessions(
    sessionIds: readonly string[],
  ): Promise<Array<Pick<ChatMessageRow, "id" | "sessionId" | "role" | "text" | "authorName" | "createdAt">>>;
  /** Events whose payload contains one of `needles`, case-insensitively, by id. */
  findEventsMentioning(
    tenantId: string,
    needles: readonly string[],
  ): Promise<Array<Pick<EventRow, "id" | "event" | "data" | "occurredAt">>>;
  listDeliveriesOfEvents(
    eventIds: readonly string[],
  ): Promise<
    Array<Pick<DeliveryRow, "id" | "eventId" | "ruleId" | "url" | "status" | "attempts" | "createdAt" | "completedAt">>
  >;
  listAnalyticsOfSessions(
    tenantId: string,
    sessionIds: readonly string[],
  ): Promise<Array<Pick<AnalyticsEventRow, "id" | "sessionId" | "name" | "occurredAt">>>;
  /** Deletes rows by id; deliveries, attempts and dead letters go with their events, messages with their sessions. */
  deleteRows(
    table: "events" | "analyticsEvents" | "appointments" | "leads" | "chatSessions",
    ids: ReadonlyArray<string | number>,
  ): Promise<void>;
  /** Tenants whose bot config sets a retention (`retention.chat_days`, `retention.analytics_days`). */
  listTenantRetention(): Promise<Array<{ tenantId: string; chatDays: number | null; analyticsDays: number | null }>>;
  /** Deletes up to `limit` of the tenant's sessions created before `beforeId` whose last activity is at or before `cutoffMs`. */
  purgeInactiveSessions(tenantId: string, beforeId: string, cutoffMs: number, limit: number): Promise<number>;
}

/** Housekeeping of the storage itself. */
export interface MaintenanceQueries {
  /** SQLite: copies the WAL into the database file (PASSIVE, never waits for anyone). Other stores: nothing. */
  checkpoint(): Promise<void>;
}
