import type {
  AnalyticsEventRow,
  AppointmentRow,
  ChatMessageRow,
  ChatSessionRow,
  DeliveryRow,
  EventRow,
  LeadRow,
} from "./rows.ts";

/** Erasure, export (src/chat/person-records.ts) and chat retention; an empty list finds nothing. */
export interface PrivacyQueries {
  findLeads(tenantId: string, by: "id" | "sessionId" | "phone", values: readonly string[]): Promise<LeadRow[]>;
  findAppointments(tenantId: string, by: "sessionId" | "phone", values: readonly string[]): Promise<AppointmentRow[]>;
  /** `emails` are lower case; the stored e-mail is compared lowered. */
  findLeadsByEmail(tenantId: string, emails: readonly string[]): Promise<LeadRow[]>;
  findAppointmentsByEmail(tenantId: string, emails: readonly string[]): Promise<AppointmentRow[]>;
  findSessions(tenantId: string, by: "id" | "visitorRef", values: readonly string[]): Promise<ChatSessionRow[]>;
  /** Transcript or state contains one of `needles`, case-insensitively. */
  findSessionsMentioning(tenantId: string, needles: readonly string[]): Promise<ChatSessionRow[]>;
  listMessagesOfSessions(
    sessionIds: readonly string[],
  ): Promise<Array<Pick<ChatMessageRow, "id" | "sessionId" | "role" | "text" | "authorName" | "createdAt">>>;
  /** Payload contains one of `needles`, case-insensitively. */
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
  /** Deliveries go with their events, messages with their sessions (cascade). */
  deleteRows(
    table: "events" | "analyticsEvents" | "appointments" | "leads" | "chatSessions",
    ids: ReadonlyArray<string | number>,
  ): Promise<void>;
  /** Tenants whose bot config sets `retention.chat_days` or `retention.analytics_days`. */
  listTenantRetention(): Promise<Array<{ tenantId: string; chatDays: number | null; analyticsDays: number | null }>>;
  /** Sessions created before `beforeId` whose last activity is at or before `cutoffMs`. */
  purgeInactiveSessions(tenantId: string, beforeId: string, cutoffMs: number, limit: number): Promise<number>;
}

export interface MaintenanceQueries {
  /** SQLite: a PASSIVE WAL checkpoint, which never waits. Other stores: nothing. */
  checkpoint(): Promise<void>;
}
