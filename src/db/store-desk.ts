import type { handoffs, sessionRatings } from "./schema-desk.ts";

// The front desk's visitor side (src/frontdesk/): hand-offs (reply waits, "seen") and ratings.
// One SQL operation per function; statements written once in src/db/sql/desk.ts.

export type HandoffRow = typeof handoffs.$inferSelect;
export type SessionRatingRow = typeof sessionRatings.$inferSelect;

export interface DeskQueries {
  /**
   * A session's first hand-off, by every path that hands a chat to a person (the bot's turn, a
   * person's reply taking it over): the one record of its time, read by the inbox and the reply
   * waits. A later one (after a reopen) changes nothing.
   */
  insertHandoff(row: Omit<HandoffRow, "firstReplyAt" | "seenMessageId">): Promise<void>;
  /** The first person's reply to the hand-off; later replies change nothing. */
  recordFirstReply(sessionId: string, repliedAt: number): Promise<void>;
  findHandoff(sessionId: string): Promise<HandoffRow | null>;
  /** Marks a visitor message seen unless a newer one already is (ids sort by time); answers rows changed. */
  markHandoffSeen(sessionId: string, messageId: string): Promise<number>;
  /** The newest visitor message of a session, null when there is none. */
  findLastVisitorMessageId(sessionId: string): Promise<string | null>;
  /** Waits (ms) from hand-off to first reply within business hours since a time, newest first (takeovers left out: nobody waited). */
  listReplyWaits(tenantId: string, since: number, limit: number): Promise<number[]>;
  /** Answers 1, or 0 when the session was already rated. */
  insertRating(row: SessionRatingRow): Promise<number>;
  /** Ratings per UTC day and score in [from, to). */
  countRatingsByDay(
    tenantId: string,
    fromMs: number,
    toMs: number,
  ): Promise<Array<{ day: string; score: number; n: number }>>;
}
