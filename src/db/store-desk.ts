import type { handoffs, sessionRatings } from "./schema-desk.ts";

// The front desk's visitor side (src/frontdesk/): hand-offs (reply waits, "seen") and ratings.

export type HandoffRow = typeof handoffs.$inferSelect;
export type SessionRatingRow = typeof sessionRatings.$inferSelect;

export interface DeskQueries {
  /** The one record of a session's hand-off time, by every path; a later one (after a reopen) changes nothing. */
  insertHandoff(row: Omit<HandoffRow, "firstReplyAt" | "seenMessageId">): Promise<void>;
  /** Later replies change nothing. */
  recordFirstReply(sessionId: string, repliedAt: number): Promise<void>;
  findHandoff(sessionId: string): Promise<HandoffRow | null>;
  /** Unless a newer one is seen already (ids sort by time). */
  markHandoffSeen(sessionId: string, messageId: string): Promise<number>;
  findLastVisitorMessageId(sessionId: string): Promise<string | null>;
  /** Hand-off to first reply (ms) within business hours, newest first; takeovers left out: nobody waited. */
  listReplyWaits(tenantId: string, since: number, limit: number): Promise<number[]>;
  /** 0 when the session was already rated. */
  insertRating(row: SessionRatingRow): Promise<number>;
  countRatingsByDay(
    tenantId: string,
    fromMs: number,
    toMs: number,
  ): Promise<Array<{ day: string; score: number; n: number }>>;
}
