import type { Deps } from "../deps.ts";
import type { InboxDetailRow } from "../db/store.ts";
import { toIso } from "../lib/clock.ts";
import type { ChatSessionRow as SessionRow } from "../db/store.ts";
import { previewSessions, type SessionPreview } from "./session-previews.ts";
import { type SessionView, toSessionView } from "./session-view.ts";

/** A chat as the inbox shows it: the session, who the visitor is, how long they have waited, who has it. */
export interface InboxChat extends SessionView {
  preview: SessionPreview | null;
  /** The lead's name (what the bot captured), or null. */
  visitor_name: string | null;
  lead: { name: string; email: string; phone: string } | null;
  appointment: { starts_at: string; timezone: string } | null;
  /** The language the visitor writes in, as the bot last detected it. */
  language: string | null;
  /** The page the visitor opened the chat on. */
  page_url: string | null;
  handoff_at: string | null;
  /** Their oldest message since the hand-off that no person answered yet; null when nobody waits. */
  waiting_since: string | null;
  waiting_seconds: number | null;
  /** The visitor's messages the reader has not opened yet. */
  unread: number;
  assigned_to: { user_id: string; display_name: string | null; assigned_at: string } | null;
  /** Whether the hand-off came within business hours (false: the visitor left a message for the team's return); null without one. */
  within_business_hours: boolean | null;
}

const languageOf = (state: string): string | null => {
  try {
    // The conversation state holds only languages the engine speaks (restoreConversationState).
    const lang = (JSON.parse(state) as { lang?: unknown }).lang;
    return typeof lang === "string" ? lang : null;
  } catch {
    return null;
  }
};

export function toInboxChat(
  session: SessionRow,
  detail: InboxDetailRow | undefined,
  preview: SessionPreview | null,
  now: number,
): InboxChat {
  const waitingSince = detail?.waitingSince ?? null;
  return {
    ...toSessionView(session),
    preview,
    visitor_name: detail?.leadName ?? null,
    lead:
      detail?.leadName != null
        ? { name: detail.leadName, email: detail.leadEmail ?? "", phone: detail.leadPhone ?? "" }
        : null,
    appointment:
      detail?.appointmentStartsAt != null
        ? { starts_at: toIso(detail.appointmentStartsAt), timezone: detail.appointmentTimezone ?? "UTC" }
        : null,
    language: languageOf(session.state),
    page_url: detail?.pageUrl ?? null,
    handoff_at: detail?.handoffAt != null ? toIso(detail.handoffAt) : null,
    waiting_since: waitingSince === null || session.status !== "handoff" ? null : toIso(waitingSince),
    waiting_seconds:
      waitingSince === null || session.status !== "handoff"
        ? null
        : Math.max(0, Math.floor((now - waitingSince) / 1000)),
    unread: detail?.unread ?? 0,
    assigned_to:
      detail?.assignedTo != null
        ? { user_id: detail.assignedTo, display_name: detail.assignedName, assigned_at: toIso(detail.assignedAt ?? 0) }
        : null,
    within_business_hours: detail?.withinBusinessHours ?? null,
  };
}

/** The inbox columns of `sessions` (the tenant's), unread counted for `readerId`. */
export async function describeChats(
  deps: Pick<Deps, "store" | "clock">,
  tenantId: string,
  readerId: string | null,
  sessions: readonly SessionRow[],
): Promise<InboxChat[]> {
  const ids = sessions.map((session) => session.id);
  if (ids.length === 0) return [];
  const [details, previews] = await Promise.all([
    deps.store.inbox.listInboxDetails(tenantId, readerId, ids),
    previewSessions(deps, tenantId, ids),
  ]);
  const byId = new Map(details.map((row) => [row.sessionId, row]));
  const now = deps.clock.now();
  return sessions.map((session) => toInboxChat(session, byId.get(session.id), previews.get(session.id) ?? null, now));
}
