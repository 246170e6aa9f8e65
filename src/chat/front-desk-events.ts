import type { Deps } from "../deps.ts";
import type { ChatMessageRow, Transaction } from "../db/store.ts";
import { toIso } from "../lib/clock.ts";
import { recordLiveEvent } from "../frontdesk/live-events.ts";
import type { SessionRow } from "./sessions.ts";
import type { BotConfig } from "./engine/bot-config.ts";
import { teamAvailability } from "./engine/team-hours.ts";

/**
 * What a visitor's turn tells the operators' streams: the hand-off itself (with the message
 * that caused it, also kept as the session's hand-off: reply waits and the seen mark), or a
 * message in a chat already waiting for a person. A turn the bot keeps
 * tells nobody, so ordinary chat writes nothing more.
 */
export async function recordTurnLiveEvents(
  deps: Pick<Deps, "store" | "clock" | "liveEventsWritten">,
  tx: Transaction,
  session: SessionRow,
  turn: {
    status: SessionRow["status"];
    handoffReason: string | null;
    visitorMessage: ChatMessageRow;
    config: BotConfig;
  },
): Promise<void> {
  // Most turns neither hand off nor come in during one: they write nothing, so build nothing.
  if (turn.status !== "handoff" && session.status !== "handoff") return;
  const message = {
    message_id: turn.visitorMessage.id,
    text: turn.visitorMessage.text,
    created_at: toIso(turn.visitorMessage.createdAt),
  };
  const base = { tenantId: session.tenantId, sessionId: session.id };
  if (session.status !== "handoff") {
    // Out of hours the operators see when the visitor was told the team is back.
    const team = teamAvailability(turn.config, turn.visitorMessage.createdAt);
    const hours = {
      within_business_hours: team.withinBusinessHours,
      back_at: team.backAt === null ? null : toIso(team.backAt),
    };
    // The inbox counts the visitor's wait from here.
    await tx.desk.insertHandoff({
      sessionId: session.id,
      tenantId: session.tenantId,
      handoffAt: turn.visitorMessage.createdAt,
      withinBusinessHours: team.withinBusinessHours,
      takenOver: false,
    });
    await recordLiveEvent(deps, tx, {
      ...base,
      kind: "handoff.requested",
      data: { reason: turn.handoffReason, channel: session.channel, ...message, ...hours },
    });
  } else {
    await recordLiveEvent(deps, tx, { ...base, kind: "visitor.message", data: message });
  }
}
