import type { Deps } from "../deps.ts";
import type { StoreQueries, Transaction } from "../db/store.ts";

/**
 * What the front desk's streams carry. Operators (a tenant's stream) get every kind but the
 * typing indicator and the seen mark; a visitor (one session's stream) gets what a person did in their chat.
 */
export const LIVE_EVENT_KINDS = [
  "handoff.requested",
  "visitor.message",
  "operator.message",
  "operator.typing",
  "operator.seen",
  "session.closed",
  "session.assigned",
  "session.reopened",
] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

export const OPERATOR_KINDS: ReadonlySet<string> = new Set<LiveEventKind>([
  "handoff.requested",
  "visitor.message",
  "operator.message",
  "session.closed",
  "session.assigned",
  "session.reopened",
]);
export const VISITOR_KINDS: ReadonlySet<string> = new Set<LiveEventKind>([
  "operator.message",
  "operator.typing",
  "operator.seen",
  "session.closed",
]);

/** Kept this long: enough for any dropped connection to resume, and short enough to stay small. */
export const LIVE_EVENT_RETENTION_MS = 60 * 60_000;

export interface LiveEventInput {
  tenantId: string;
  sessionId: string;
  kind: LiveEventKind;
  data: Record<string, unknown>;
}

/**
 * Writes a live event with the change it reports (inside `tx` when given, so a rolled-back
 * change tells nobody) and wakes the streams after COMMIT: this process's at once, other
 * instances' through NOTIFY on PostgreSQL. A CLI process on SQLite only writes; the server's
 * hub finds the row on its next look.
 */
export async function recordLiveEvent(
  deps: Pick<Deps, "store" | "clock" | "liveEventsWritten">,
  tx: Transaction | null,
  event: LiveEventInput,
): Promise<void> {
  const write = (queries: StoreQueries) =>
    queries.liveEvents.insertLiveEvent({
      tenantId: event.tenantId,
      sessionId: event.sessionId,
      kind: event.kind,
      data: { session_id: event.sessionId, ...event.data },
      createdAt: deps.clock.now(),
    });
  if (tx) {
    await write(tx);
    tx.onCommit(() => deps.liveEventsWritten?.notify());
    return;
  }
  await write(deps.store);
  deps.liveEventsWritten?.notify();
}
