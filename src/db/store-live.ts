import type { liveEvents } from "./schema-live.ts";

// The front desk's live events (src/frontdesk/live-events.ts): one SQL operation per function.

export type LiveEventRow = typeof liveEvents.$inferSelect;

export interface LiveEventQueries {
  insertLiveEvent(row: Omit<LiveEventRow, "id">): Promise<void>;
  /** Every tenant's events after an id, oldest first: what a server's stream hub reads when woken. */
  listLiveEventsAfter(afterId: number, limit: number): Promise<LiveEventRow[]>;
  /** One tenant's events after an id (an operator's stream resuming with Last-Event-ID). */
  listTenantLiveEventsAfter(tenantId: string, afterId: number, limit: number): Promise<LiveEventRow[]>;
  /** One session's events after an id (the visitor's stream resuming). */
  listSessionLiveEventsAfter(sessionId: string, afterId: number, limit: number): Promise<LiveEventRow[]>;
  /** The newest event's id, 0 when there is none: where a stream without Last-Event-ID starts. */
  findLatestLiveEventId(): Promise<number>;
  /** Answers the rows removed. */
  purgeLiveEventsBefore(createdBefore: number): Promise<number>;
}
