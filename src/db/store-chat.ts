import type { SessionStatus } from "./schema.ts";
import type { AppointmentRow, ChatMessageRow, ChatSessionRow, LeadRow, UsageCounterRow } from "./rows.ts";

// The chat aggregates of the store seam (src/db/store.ts): sessions and their messages, the
// monthly usage counters, and what a conversation captures (leads, appointments). One SQL
// operation per function.

/** What a turn changes on its session, written once at the end of the turn. */
export interface SessionTurnUpdate {
  /** The new status, or null when it stays: SQLite rewrites an index entry for any status it is given, changed or not. */
  status: SessionStatus | null;
  state: string;
  messageCount: number;
  handoffReason: string | null;
  updatedAt: number;
}

/** The end of a chat turn (ChatSessionQueries.finishTurn). */
export interface FinishedTurn {
  /** The turn's messages in the order they were made (the visitor's, then the reply if any). */
  messages: ChatMessageRow[];
  sessionId: string;
  update: SessionTurnUpdate;
}

/** The quota a message is reserved against (UsageQueries.reserveMessage). */
export interface MessageLimits {
  /** The plan's monthly messages; null = unlimited. */
  quota: number | null;
  /** The share of the quota (in %) whose first crossing emits quota.threshold_reached. */
  thresholdPercent: number;
}

/** What a reservation found (UsageQueries.reserveMessage). */
export interface MessageReservation {
  /** Counted: the message fits the quota and crosses no line that has not been notified yet. */
  reserved: boolean;
  /** The counter as it stands when nothing was reserved (null when the message was: not read). */
  messages: number | null;
  /** The lookup version (TenantQueries.findLookupVersion) read by the same operation. */
  lookupVersion: string;
  /** The tenant's session asked for, read by the same operation (null: not asked for, or not the tenant's). */
  session: ChatSessionRow | null;
}

export interface ChatSessionQueries {
  /** The tenant's session; another tenant's is null. */
  findSession(tenantId: string, sessionId: string): Promise<ChatSessionRow | null>;
  /** The newest open session of a visitor on a channel (a WhatsApp number). */
  findOpenVisitorSession(tenantId: string, channel: string, visitorRef: string): Promise<ChatSessionRow | null>;
  /** Newest first, before `beforeId` when given. */
  listSessions(
    tenantId: string,
    status: SessionStatus | null,
    beforeId: string | null,
    limit: number,
  ): Promise<ChatSessionRow[]>;
  insertSession(row: ChatSessionRow): Promise<void>;
  updateSessionTurn(sessionId: string, update: SessionTurnUpdate): Promise<void>;
  closeSession(sessionId: string, closedAt: number): Promise<void>;
  insertMessage(row: ChatMessageRow): Promise<void>;
  /**
   * The end of a turn as one operation, and the last write of its transaction: its messages
   * inserted and the session's turn update. On PostgreSQL it is one statement, committed on its
   * own when the transaction wrote nothing before it (no BEGIN, no COMMIT); on SQLite the same
   * statements in a row.
   */
  finishTurn(turn: FinishedTurn): Promise<void>;
  /** The session's newest `limit` messages, oldest first (the model's transcript). */
  listRecentMessages(sessionId: string, limit: number): Promise<Array<Pick<ChatMessageRow, "role" | "text">>>;
  /** The transcript after `afterId` (exclusive), oldest first, at most 500. */
  listMessagesAfter(sessionId: string, afterId: string): Promise<ChatMessageRow[]>;
  /** The newest message of each of the tenant's sessions among `sessionIds`, its text cut to `maxChars`. */
  listNewestMessages(
    tenantId: string,
    sessionIds: readonly string[],
    maxChars: number,
  ): Promise<Array<Pick<ChatMessageRow, "sessionId" | "role" | "text" | "authorName" | "createdAt">>>;
}

export interface UsageQueries {
  findUsage(tenantId: string, period: string): Promise<UsageCounterRow | null>;
  /**
   * One more message this period if it stays clear of the plan's lines: within the quota, and
   * not the first to reach the threshold (unless it was notified already). Otherwise nothing
   * changes and the caller counts exactly with incrementMessages. On PostgreSQL it commits at
   * once, even inside a transaction (no row lock held while the turn goes on), and is taken back
   * if that transaction rolls back (on an unlimited plan it counts blocks of messages that the
   * instance then hands out: docs/scale-out.md); on SQLite it is part of the transaction. The
   * message's session and the lookup version come with it: a chat message's reads and count in
   * one round trip.
   */
  reserveMessage(
    tenantId: string,
    period: string,
    limits: MessageLimits,
    sessionId: string | null,
  ): Promise<MessageReservation>;
  /** One more message this period; the counter after it. */
  incrementMessages(
    tenantId: string,
    period: string,
  ): Promise<Pick<UsageCounterRow, "messages" | "thresholdNotifiedAt">>;
  markThresholdNotified(tenantId: string, period: string, at: number): Promise<void>;
  addAiUsage(
    tenantId: string,
    period: string,
    usage: { calls: number; promptTokens: number; completionTokens: number },
  ): Promise<void>;
  countVisitorRefusal(tenantId: string, period: string): Promise<void>;
  /**
   * For a store that is closing: what this instance counted ahead and did not use (PostgreSQL's
   * blocks on an unlimited plan, docs/scale-out.md) goes back on the counters, in one statement;
   * answers how many messages. SQLite counts each message in its turn and holds nothing: 0.
   */
  returnHeldMessages(): Promise<number>;
}

export interface CaptureQueries {
  insertLead(row: LeadRow): Promise<void>;
  /** Books the slot; false (nothing written) when the tenant has an appointment at that start already. */
  insertAppointment(row: AppointmentRow): Promise<boolean>;
  /** A corrected contact replaces the session's lead fields. */
  updateSessionLead(
    tenantId: string,
    sessionId: string,
    contact: { name: string; phone: string; email: string },
  ): Promise<void>;
  /** The tenant's leads, newest first, before `beforeId` when given. */
  listLeads(tenantId: string, beforeId: string | null, limit: number): Promise<LeadRow[]>;
  /** The tenant's appointments, newest first, before `beforeId` when given. */
  listAppointments(tenantId: string, beforeId: string | null, limit: number): Promise<AppointmentRow[]>;
  /** Starts of the tenant's appointments from `fromMs` to `toMs` (both included), in order. */
  listAppointmentStarts(tenantId: string, fromMs: number, toMs: number): Promise<number[]>;
}

export interface BotConfigQueries {
  /** The tenant's chatbot and the newest change to it or to the tenant row: a cheap cache probe on every message. */
  findBotConfigVersion(
    tenantId: string,
  ): Promise<{ chatbotId: string; updatedAt: number; tenantUpdatedAt: number } | null>;
  /** The chatbot's stored config document, with its tenant's sector and allowed origins. */
  findBotConfigDocument(
    chatbotId: string,
  ): Promise<{ config: Record<string, unknown>; sector: string; allowedOrigins: string[] } | null>;
  /** Stores the tenant's chatbot config; the chatbot's id, or null when the tenant has none. */
  updateBotConfig(
    tenantId: string,
    config: Record<string, unknown>,
    name: string,
    updatedAt: number,
  ): Promise<string | null>;
  /** The tenant row's copy of what the widget check and the templates read. */
  updateTenantProfile(
    tenantId: string,
    profile: { allowedOrigins: string[]; sector: string; updatedAt: number },
  ): Promise<void>;
}
