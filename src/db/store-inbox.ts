import type { cannedReplies, sessionDesk } from "./schema-inbox.ts";

// The front desk's inbox (src/frontdesk/): assignment, read marks, search and canned replies.

export type SessionDeskRow = typeof sessionDesk.$inferSelect;
export type CannedReplyRow = typeof cannedReplies.$inferSelect;

/** What the inbox shows of a chat beyond the session row: one row per listed session. */
export interface InboxDetailRow {
  sessionId: string;
  pageUrl: string | null;
  handoffAt: number | null;
  assignedTo: string | null;
  assignedName: string | null;
  assignedAt: number | null;
  leadName: string | null;
  leadEmail: string | null;
  leadPhone: string | null;
  appointmentStartsAt: number | null;
  appointmentTimezone: string | null;
  /** Visitor messages after the reader's read mark. */
  unread: number;
  /** The oldest visitor message since the hand-off with no operator reply after it. */
  waitingSince: number | null;
  withinBusinessHours: boolean | null;
}

export interface InboxQueries {
  findDesk(sessionId: string): Promise<SessionDeskRow | null>;
  recordPageUrl(tenantId: string, sessionId: string, pageUrl: string): Promise<void>;
  /** Only if still held by `expected` (null: nobody), so two people taking a chat cannot both win; 0 otherwise. */
  assignSession(
    tenantId: string,
    sessionId: string,
    assignedTo: string | null,
    at: number,
    expected: string | null,
  ): Promise<number>;
  /** 0 when it was not closed. */
  reopenSession(tenantId: string, sessionId: string, at: number): Promise<number>;
  /** To the chat's newest message, never back. */
  markRead(input: { tenantId: string; sessionId: string; userId: string; readAt: number }): Promise<void>;
  /** Unread counted for `readerId` (null: an API key). */
  listInboxDetails(tenantId: string, readerId: string | null, sessionIds: readonly string[]): Promise<InboxDetailRow[]>;
  /**
   * Sessions whose messages or lead match (FTS5 MATCH / tsquery text), newest first. Each store
   * walks the newest matches when it can (sqlite/search-walk.ts, postgres/inbox.ts), else sorts.
   */
  searchSessionIds(tenantId: string, match: string, beforeId: string | null, limit: number): Promise<string[]>;
  /**
   * Indexes up to `limit` queued rows: a chat write only queues, since indexing inside the turn
   * cost more than the turn (docs/storage.md). PostgreSQL's leads keep a GIN index of their own.
   */
  indexPending(limit: number): Promise<number>;
}

export interface CannedReplyQueries {
  /** By shortcut (bounded by CANNED_REPLY_LIMIT). */
  listCannedReplies(tenantId: string): Promise<CannedReplyRow[]>;
  findCannedReply(tenantId: string, id: string): Promise<CannedReplyRow | null>;
  countCannedReplies(tenantId: string): Promise<number>;
  /** false (nothing written) when the tenant has that shortcut already. */
  insertCannedReply(row: CannedReplyRow): Promise<boolean>;
  /** 0 when there is no such reply, or another of the tenant's replies has the new shortcut. */
  updateCannedReply(
    tenantId: string,
    id: string,
    change: { shortcut: string; text: string; updatedAt: number },
  ): Promise<number>;
  deleteCannedReply(tenantId: string, id: string): Promise<number>;
}
