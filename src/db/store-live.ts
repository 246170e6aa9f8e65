import type { liveEvents } from "./schema-live.ts";

export type LiveEventRow = typeof liveEvents.$inferSelect;

export interface LiveEventQueries {
  insertLiveEvent(row: Omit<LiveEventRow, "id">): Promise<void>;
  /** Every tenant's, oldest first: what a server's stream hub reads when woken. */
  listLiveEventsAfter(afterId: number, limit: number): Promise<LiveEventRow[]>;
  /** An operator's stream resuming with Last-Event-ID. */
  listTenantLiveEventsAfter(tenantId: string, afterId: number, limit: number): Promise<LiveEventRow[]>;
  /** The visitor's stream resuming. */
  listSessionLiveEventsAfter(sessionId: string, afterId: number, limit: number): Promise<LiveEventRow[]>;
  /** Where a stream without Last-Event-ID starts; 0 when empty. */
  findLatestLiveEventId(): Promise<number>;
  purgeLiveEventsBefore(createdBefore: number): Promise<number>;
}
