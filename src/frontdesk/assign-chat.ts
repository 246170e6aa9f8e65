import type { Deps } from "../deps.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { requireChat as requireSession } from "./session-view.ts";
import { getInboxChat } from "./inbox.ts";
import type { InboxChat } from "./inbox-view.ts";
import { recordLiveEvent } from "./live-events.ts";

/** Who asks: a person (their user id) or the tenant's API key (null), and whether they manage the tenant. */
export interface DeskActor {
  userId: string | null;
  manager: boolean;
}

const taken = (holder: string | null) =>
  new AppError("chat_taken", 409, `${holder ?? "Someone else"} has this chat; an owner or admin can reassign it.`);

/**
 * Gives a chat to a person (`target`; undefined: the one asking, "Take") or to nobody (null:
 * release). Owners, admins and API keys give any chat to any member; an agent may only take a
 * chat nobody has (403 for someone else, 409 when another person holds it) and release their
 * own. The write is guarded by who held the chat when it was read, so of two people pressing
 * Take at once one wins and the other gets 409.
 */
export async function assignChat(
  deps: Pick<Deps, "store" | "clock" | "liveEventsWritten">,
  tenantId: string,
  actor: DeskActor,
  sessionId: string,
  target: string | null | undefined,
): Promise<InboxChat> {
  const assignee = target === undefined ? actor.userId : target;
  if (target === undefined && assignee === null) {
    throw new AppError("validation_failed", 422, "user_id: an API key names the person to assign", [
      { field: "user_id", message: "required with an API key" },
    ]);
  }
  if (!actor.manager && assignee !== null && assignee !== actor.userId) {
    throw new AppError(
      "forbidden",
      403,
      "An agent can take a chat for themselves only; an owner or admin assigns it to someone else.",
    );
  }
  const session = await requireSession(deps.store, tenantId, sessionId);
  if (session.status === "closed") throw new AppError("session_closed", 409, "The session is closed; reopen it first.");
  const assigneeName = assignee === null ? null : await memberName(deps, tenantId, assignee);
  const holder = (await deps.store.inbox.findDesk(sessionId))?.assignedTo ?? null;
  if (!actor.manager && holder !== null && holder !== actor.userId) throw taken(await holderName(deps, holder));
  if (holder !== assignee) {
    const now = deps.clock.now();
    await deps.store.transaction(async (tx) => {
      if ((await tx.inbox.assignSession(tenantId, sessionId, assignee, now, holder)) === 0) throw taken(null);
      const assignedTo = assignee === null ? null : { user_id: assignee, display_name: assigneeName };
      await recordLiveEvent(deps, tx, {
        tenantId,
        sessionId,
        kind: "session.assigned",
        data: { assigned_to: assignedTo, assigned_by: actor.userId, assigned_at: toIso(now) },
      });
    });
  }
  return getInboxChat(deps, tenantId, actor.userId, sessionId);
}

/** The member's display name; a user who is not a member of the tenant is "not found" (no other tenant's people are revealed). */
async function memberName(deps: Pick<Deps, "store">, tenantId: string, userId: string): Promise<string | null> {
  const membership = await deps.store.users.findMembership(userId, tenantId);
  if (!membership) throw notFound("user");
  return (await deps.store.users.findUser(userId))?.displayName ?? null;
}

async function holderName(deps: Pick<Deps, "store">, userId: string): Promise<string | null> {
  const user = await deps.store.users.findUser(userId);
  return user?.displayName ?? user?.email ?? null;
}
