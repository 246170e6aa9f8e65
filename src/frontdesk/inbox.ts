import type { Deps } from "../deps.ts";
import type { SessionStatus } from "../db/schema.ts";
import { AppError } from "../lib/app-error.ts";
import type { Page } from "../lib/page.ts";
import { requireChat as requireSession } from "./session-view.ts";
import { describeChats, type InboxChat } from "./inbox-view.ts";
import { recordLiveEvent } from "./live-events.ts";

type InboxDeps = Pick<Deps, "store" | "clock">;

/** The inbox list: the tenant's chats waiting for a person (or the closed ones), newest first. */
export async function listInbox(
  deps: InboxDeps,
  tenantId: string,
  readerId: string | null,
  filter: { status: Extract<SessionStatus, "handoff" | "closed"> },
  page: { limit: number; cursor?: string },
): Promise<Page<InboxChat>> {
  const rows = await deps.store.chatSessions.listSessions(tenantId, filter.status, page.cursor ?? null, page.limit + 1);
  const shown = rows.slice(0, page.limit);
  return {
    data: await describeChats(deps, tenantId, readerId, shown),
    next_cursor: rows.length > page.limit ? (shown.at(-1)?.id ?? null) : null,
  };
}

/** One chat of the inbox (another tenant's is 404). */
export async function getInboxChat(
  deps: InboxDeps,
  tenantId: string,
  readerId: string | null,
  sessionId: string,
): Promise<InboxChat> {
  const session = await requireSession(deps.store, tenantId, sessionId);
  const [chat] = await describeChats(deps, tenantId, readerId, [session]);
  return chat as InboxChat;
}

/** The reader opened the chat: its messages so far are read (their unread count drops to 0). */
export async function markChatRead(
  deps: InboxDeps,
  tenantId: string,
  userId: string,
  sessionId: string,
): Promise<InboxChat> {
  await requireSession(deps.store, tenantId, sessionId);
  await deps.store.inbox.markRead({ tenantId, sessionId, userId, readAt: deps.clock.now() });
  return getInboxChat(deps, tenantId, userId, sessionId);
}

/**
 * A closed chat back in the inbox (status handoff), for a visitor who came back or a chat closed
 * too soon. From then on the bot does not answer it: the reopen is its hand-off if it had none,
 * within the team's hours or not as `withinBusinessHours` says of its time.
 */
export async function reopenChat(
  deps: Pick<Deps, "store" | "clock" | "liveEventsWritten">,
  tenantId: string,
  readerId: string | null,
  sessionId: string,
  withinBusinessHours: (at: number) => boolean,
): Promise<InboxChat> {
  const session = await requireSession(deps.store, tenantId, sessionId);
  if (session.status === "bot")
    throw new AppError(
      "session_not_closed",
      409,
      "The bot is still answering this chat; only a closed chat can be reopened.",
    );
  if (session.status === "closed") {
    const now = deps.clock.now();
    await deps.store.transaction(async (tx) => {
      if ((await tx.inbox.reopenSession(tenantId, sessionId, now)) > 0) {
        // A chat closed before any hand-off is handed to a person now, as a takeover: nobody asked
        // and waited, so it is no reply wait. One handed off before keeps that first hand-off.
        await tx.desk.insertHandoff({
          sessionId,
          tenantId,
          handoffAt: now,
          withinBusinessHours: withinBusinessHours(now),
          takenOver: true,
        });
        await recordLiveEvent(deps, tx, {
          tenantId,
          sessionId,
          kind: "session.reopened",
          data: { reopened_at: new Date(now).toISOString() },
        });
      }
    });
  }
  return getInboxChat(deps, tenantId, readerId, sessionId);
}
