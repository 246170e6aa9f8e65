import type { Deps } from "../deps.ts";
import { toIso } from "../lib/clock.ts";
import { recordLiveEvent } from "./live-events.ts";

// What the front desk marks on a session's hand-off (the handoffs table): "seen".

/**
 * An operator opened a handed-off chat: the visitor's newest message is now seen, and the
 * widget shows "Seen" under it (an `operator.seen` event, and `seen_message_id` in the
 * transcript for the polling fallback). Opening it again, or a chat with nothing new from the
 * visitor, writes nothing.
 */
export async function markSeenByOperator(
  deps: Pick<Deps, "store" | "clock" | "liveEventsWritten">,
  tenantId: string,
  sessionId: string,
): Promise<void> {
  const handoff = await deps.store.desk.findHandoff(sessionId);
  if (!handoff || handoff.tenantId !== tenantId) return;
  const last = await deps.store.desk.findLastVisitorMessageId(sessionId);
  if (last === null || (handoff.seenMessageId !== null && last <= handoff.seenMessageId)) return;
  await deps.store.transaction(async (tx) => {
    // Two operators opening the chat at once: only the one that moves the mark tells the widget.
    if ((await tx.desk.markHandoffSeen(sessionId, last)) === 0) return;
    await recordLiveEvent(deps, tx, {
      tenantId,
      sessionId,
      kind: "operator.seen",
      data: { message_id: last, seen_at: toIso(deps.clock.now()) },
    });
  });
}
