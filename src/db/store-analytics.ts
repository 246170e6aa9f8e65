import type { AnalyticsEventRow } from "./rows.ts";

/** Widget telemetry and the daily summary (src/analytics/); counts are by UTC day (`YYYY-MM-DD`). */
export interface AnalyticsQueries {
  insertAnalyticsEvents(rows: ReadonlyArray<Omit<AnalyticsEventRow, "id">>): Promise<void>;
  purgeAnalyticsEventsBefore(tenantId: string, day: string, limit: number): Promise<number>;
  /** Sessions with a message, and how many were handed off. */
  countConversationsByDay(
    tenantId: string,
    fromMs: number,
    toMs: number,
  ): Promise<Array<{ day: string; conversations: number; handoffs: number }>>;
  countLeadsByDay(tenantId: string, fromMs: number, toMs: number): Promise<Array<{ day: string; n: number }>>;
  countAppointmentsByDay(tenantId: string, fromMs: number, toMs: number): Promise<Array<{ day: string; n: number }>>;
  /** `toDay` inclusive. */
  countWidgetEventsByDay(
    tenantId: string,
    fromDay: string,
    toDay: string,
  ): Promise<Array<{ day: string; name: string; n: number }>>;
}
