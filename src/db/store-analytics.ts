import type { AnalyticsEventRow } from "./rows.ts";

/**
 * Widget telemetry and the daily summary (src/analytics/). Each count is one grouped query over
 * one tenant's rows in a time range, by UTC day (`YYYY-MM-DD`).
 */
export interface AnalyticsQueries {
  insertAnalyticsEvents(rows: ReadonlyArray<Omit<AnalyticsEventRow, "id">>): Promise<void>;
  /** Deletes up to `limit` of the tenant's rows from days before `day`; how many went. */
  purgeAnalyticsEventsBefore(tenantId: string, day: string, limit: number): Promise<number>;
  /** Sessions with at least one message created in [fromMs, toMs), and how many of them were handed off. */
  countConversationsByDay(
    tenantId: string,
    fromMs: number,
    toMs: number,
  ): Promise<Array<{ day: string; conversations: number; handoffs: number }>>;
  countLeadsByDay(tenantId: string, fromMs: number, toMs: number): Promise<Array<{ day: string; n: number }>>;
  countAppointmentsByDay(tenantId: string, fromMs: number, toMs: number): Promise<Array<{ day: string; n: number }>>;
  /** Widget events per day and name, `fromDay` to `toDay` inclusive. */
  countWidgetEventsByDay(
    tenantId: string,
    fromDay: string,
    toDay: string,
  ): Promise<Array<{ day: string; name: string; n: number }>>;
}
