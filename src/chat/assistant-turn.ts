import type { Deps } from "../deps.ts";
import type { StoreQueries } from "../db/store.ts";
import { assertMessageQuota, withinAiTokenCap } from "../billing/usage.ts";
import { AppError } from "../lib/app-error.ts";
import type { TenantRecord } from "../tenants/create-tenant.ts";
import type { BotConfig } from "./engine/bot-config.ts";
import { checkSlot, proposeSlots } from "./engine/appointment-slots.ts";
import type { EngineAction } from "./engine/engine-types.ts";
import { detectPersonRequest } from "./engine/handoff-phrases.ts";
import { normalizeForMatching } from "./engine/intents.ts";
import { formatSlot } from "./engine/timezone.ts";
import { requireSession, type SessionRow } from "./sessions.ts";
import type { AssistantResult, TurnDrafter } from "./turn-assistant.ts";

// The model's side of a turn (handle-message.ts): its read phase before the write transaction,
// and the re-check of what it booked once that transaction holds the write lock.

const DAY_MS = 86_400_000;

/** Where a message comes from: the tenant and the session it continues or the channel that opens one. */
export interface TurnOrigin {
  /** The tenant, already looked up by the caller (the route needs it for the origin check too). */
  tenant: TenantRecord;
  /** Absent: a new session is opened on `channel` (or the visitor's open one, with `visitorRef`). */
  sessionId?: string;
  /** A channel's visitor id (a WhatsApp number): their open session is continued, else one is opened. */
  visitorRef?: string;
  channel: "widget" | "api" | "whatsapp";
}

/** Starts of the tenant's booked appointments from a day ago to the end of the booking window. */
export const takenSlotStarts = (
  db: StoreQueries,
  tenantId: string,
  config: BotConfig,
  now: number,
): Promise<number[]> =>
  db.captures.listAppointmentStarts(tenantId, now - DAY_MS, now + (config.appointments.max_days_ahead + 1) * DAY_MS);

/** The read phase: null when the assistant does not take this turn (operator in charge, token cap reached). */
export async function draftWithAssistant(
  deps: Deps,
  input: TurnOrigin,
  text: string,
  config: BotConfig,
  drafter: TurnDrafter,
  onDelta: ((text: string) => void) | undefined,
): Promise<AssistantResult | null> {
  const tenant = input.tenant;
  const session = await existingSession(deps, input);
  // Refusals the write phase would give anyway are given before paying for a model call.
  if (session?.status === "closed")
    throw new AppError("session_closed", 409, "This session is closed; start a new one.");
  await assertMessageQuota(deps, deps.store, tenant.id, tenant.plan);
  if (session && session.status !== "bot") return null;
  if (!(await withinAiTokenCap(deps, tenant.id, tenant.plan))) return null;
  // A person asked for — the manager, a complaint, the tenant's own keywords, in any of the three
  // languages — is handed over by the rule engine at once, never left to the model's judgement.
  if (detectPersonRequest(normalizeForMatching(text), config.handoff.keywords) !== null) return null;
  const now = deps.clock.now();
  return drafter({
    tenantId: tenant.id,
    sessionId: session?.id ?? null,
    config,
    message: text,
    nowMs: now,
    takenSlotStarts: await takenSlotStarts(deps.store, tenant.id, config, now),
    onDelta,
  });
}

/** The session the message continues, read-only (null: the write phase opens one). */
async function existingSession(deps: Deps, input: TurnOrigin): Promise<SessionRow | null> {
  if (input.sessionId) return requireSession(deps.store, input.tenant.id, input.sessionId);
  if (input.visitorRef)
    return deps.store.chatSessions.findOpenVisitorSession(input.tenant.id, input.channel, input.visitorRef);
  return null;
}

/**
 * A slot the model booked may have been taken by another visitor while it was thinking. Under
 * the write lock it is checked again; a lost slot is not booked and the reply says so, with the
 * nearest free times, instead of confirming a booking that does not exist.
 */
export function recheckBookings(
  text: string,
  actions: EngineAction[],
  config: BotConfig,
  now: number,
  taken: number[],
): { text: string; kept: EngineAction[] } {
  const kept: EngineAction[] = [];
  let replyText = text;
  for (const action of actions) {
    if (
      action.type === "appointment_booked" &&
      !checkSlot({ startMs: action.startMs, config, nowMs: now, takenStarts: taken }).ok
    ) {
      const zone = config.appointments.timezone;
      const nearest = proposeSlots(action.startMs, config, now, taken).map((slot) => formatSlot(slot, zone));
      replyText = `Sorry — that time was booked by someone else a moment ago, so I could not book it.${nearest.length > 0 ? ` The nearest free times are ${nearest.join(", ")}. Which suits you?` : ""}`;
      continue;
    }
    if (action.type === "appointment_booked") taken.push(action.startMs);
    kept.push(action);
  }
  return { text: replyText, kept };
}
