import type { Deps } from "../deps.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { recordLiveEvent } from "./live-events.ts";

/** An operator typing in a chat: the visitor's widget shows it (with the operator's name) for a few seconds. */
export async function recordOperatorTyping(
  deps: Pick<Deps, "store" | "clock" | "liveEventsWritten">,
  tenantId: string,
  sessionId: string,
  userId: string | undefined,
): Promise<void> {
  const session = await deps.store.chatSessions.findSession(tenantId, sessionId);
  if (!session) throw notFound("session");
  if (session.status === "closed") throw new AppError("session_closed", 409, "The session is closed.");
  const authorName = userId ? ((await deps.store.users.findUser(userId))?.displayName ?? null) : null;
  await recordLiveEvent(deps, null, {
    tenantId,
    sessionId,
    kind: "operator.typing",
    data: { author_name: authorName },
  });
}
