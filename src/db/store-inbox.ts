import type { cannedReplies, sessionDesk } from "./schema-inbox.ts";

// The front desk's inbox (src/frontdesk/): who has a chat, how far each person read it, the
// page of each chat (its hand-off time is its handoffs row: store-desk.ts), search over past
// chats, and the tenant's canned replies. One SQL operation per function; statements in src/db/sql/inbox.ts.

export type SessionDeskRow = typeof sessionDesk.$inferSelect;
export type CannedReplyRow = typeof cannedReplies.$inferSelect;

/** What the inbox shows of a chat beyond the session row: one row per listed session. */
export interface InboxDetailRow {
  sessionId: string;
  pageUrl: string | null;
  /** When the chat was handed to a person (its handoffs row); null when it never was. */
  handoffAt: number | null;
  assignedTo: string | null;
  assignedName: string | null;
  assignedAt: number | null;
  leadName: string | null;
  leadEmail: string | null;
  leadPhone: string | null;
  appointmentStartsAt: number | null;
  appointmentTimezone: string | null;
  /** The visitor's messages after the reader's read mark (all of them when they never opened the chat). */
  unread: number;
  /** The oldest visitor message since the hand-off that no operator reply came after; null when none waits. */
  waitingSince: number | null;
  /** Whether its hand-off came within business hours (handoffs); null when it was never handed off. */
  withinBusinessHours: boolean | null;
}

export interface InboxQueries {
  findDesk(sessionId: string): Promise<SessionDeskRow | null>;
  /** The page the visitor opened the chat on (once, at session start). */
  recordPageUrl(tenantId: string, sessionId: string, pageUrl: string): Promise<void>;
  /**
   * Gives the chat to `assignedTo` (null: nobody) only if it is still held by `expected`
   * (null: nobody): answers 0 when someone else changed it first, so two people taking the
   * same chat at once cannot both win.
   */
  assignSession(
    tenantId: string,
    sessionId: string,
    assignedTo: string | null,
    at: number,
    expected: string | null,
  ): Promise<number>;
  /** A closed chat back to the inbox (status handoff); 0 when it was not closed. */
  reopenSession(tenantId: string, sessionId: string, at: number): Promise<number>;
  /** Moves the reader's read mark forward to the chat's newest message (never back). */
  markRead(input: { tenantId: string; sessionId: string; userId: string; readAt: number }): Promise<void>;
  /** The inbox columns of the tenant's sessions among `sessionIds`, unread counted for `readerId` (null: an API key). */
  listInboxDetails(tenantId: string, readerId: string | null, sessionIds: readonly string[]): Promise<InboxDetailRow[]>;
  /**
   * The tenant's sessions whose visitor/operator messages or lead (name, e-mail, phone) match
   * `match` (the store's full-text query: FTS5 MATCH on SQLite, tsquery text on PostgreSQL),
   * newest first, before `beforeId` when given. Each store stops at the newest matches when it
   * can (SQLite: FTS5's rowid order and a check of newer sessions, src/db/sqlite/search-walk.ts;
   * PostgreSQL: a bounded walk of the newest sessions for a common word, src/db/postgres/inbox.ts)
   * and otherwise sorts every match; the answer is the same.
   */
  searchSessionIds(tenantId: string, match: string, beforeId: string | null, limit: number): Promise<string[]>;
  /**
   * SQLite: adds up to `limit` queued messages and leads (messages first, oldest first) to the
   * search index, in one transaction; answers how many. A chat write only queues its message (an
   * FTS5 insert inside the chat's savepoints cost more than the rest of the turn), and the terms
   * are made in JavaScript (src/db/search-terms.ts); the index is caught up by housekeeping and
   * before each search. PostgreSQL: the same for messages (their terms into chat_message_terms,
   * whose GIN index replaced one on chat_messages that every chat insert paid for); leads keep
   * a GIN index of their own, kept by the database.
   */
  indexPending(limit: number): Promise<number>;
}

export interface CannedReplyQueries {
  /** The tenant's canned replies by shortcut (bounded by CANNED_REPLY_LIMIT). */
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
