import type { ContactField } from "./extract-contact.ts";
import { isLang, type Lang } from "./language.ts";

/**
 * Everything the engine remembers between messages of one session. The caller stores it as
 * JSON beside the session and hands it back with the next message, which keeps the engine
 * pure: same state + same message + same clock = same reply.
 */

export type ConversationMode = "idle" | "collecting_lead" | "booking" | "confirming_appointment";

/** Why contact details are being collected: a lead needs all three, a booking name and phone. */
export type CollectionPurpose = "lead" | "booking";

export interface LeadDetails {
  name: string | null;
  /** How sure the name is a name (0.95 "my name is", 0.9 prompted, 0.8 "I'm …"). */
  nameConfidence: number;
  /** E.164. */
  phone: string | null;
  email: string | null;
}

export interface ConversationState {
  version: 1;
  mode: ConversationMode;
  /** Messages handled so far in this session. */
  turns: number;
  lead: LeadDetails;
  /** Set while mode is collecting_lead. */
  purpose: CollectionPurpose | null;
  /** The contact field the bot asked for last; a bare "Ana" only counts as a name then. */
  awaiting: ContactField | null;
  /** Consecutive messages that ignored the bot's question; at 2 the bot drops the question. */
  ignoredPrompts: number;
  /** What the visitor wants, for the lead: the message that showed buying intent. */
  interest: string | null;
  /** The last FAQ question answered, a fallback interest ("Asked about: …"). */
  lastTopic: string | null;
  /** A lead_captured action has been emitted; it never is twice in a session. */
  leadCaptured: boolean;
  /** The slot offered and awaiting "yes" (confirming_appointment) or contact details (booking purpose). */
  pendingStartMs: number | null;
  /** The day being discussed while booking, so a bare "8am" means 8 am on that day. */
  focusDayMs: number | null;
  /** Start of the last appointment booked in this session. */
  bookedStartMs: number | null;
  /** Consecutive replies below the confidence threshold. */
  lowConfidenceTurns: number;
  /** A handoff action has been emitted; later hand-off requests only get a reminder. */
  handedOff: boolean;
  /** The times offered by the last reply, so "any later?" knows what "later" means. */
  offeredSlots?: number[];
  /** The last reply offered a person (urgent, a booking to change, an unknown answer): a "yes" hands off; "message": a "yes" takes a message. */
  personOffered?: "urgent" | "keyword" | "message" | null;
  /** The visitor would rather not give a phone number ("just email me"): never asked for it again. */
  phoneDeclined?: boolean;
  /** The language of the last message that showed one; a bare "Ana Lopez" keeps it. */
  lang?: Lang | null;
}

export function initialConversationState(): ConversationState {
  return {
    version: 1,
    mode: "idle",
    turns: 0,
    lead: { name: null, nameConfidence: 0, phone: null, email: null },
    purpose: null,
    awaiting: null,
    ignoredPrompts: 0,
    interest: null,
    lastTopic: null,
    leadCaptured: false,
    pendingStartMs: null,
    focusDayMs: null,
    bookedStartMs: null,
    lowConfidenceTurns: 0,
    handedOff: false,
    personOffered: null,
    phoneDeclined: false,
    lang: null,
    offeredSlots: [],
  };
}

/**
 * A copy the engine may change without touching `state`: the nested parts it mutates in place
 * (`lead`) and the one array are copied, every other field is a primitive. Cheaper per message
 * than a `structuredClone` of the whole state, and the same result.
 */
export function copyConversationState(state: ConversationState): ConversationState {
  const copy: ConversationState = { ...state, lead: { ...state.lead } };
  if (state.offeredSlots) copy.offeredSlots = [...state.offeredSlots];
  return copy;
}

const MODES: readonly ConversationMode[] = ["idle", "collecting_lead", "booking", "confirming_appointment"];
const FIELDS: readonly ContactField[] = ["name", "phone", "email"];

const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);
const numberOrNull = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;
const count = (value: unknown): number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : 0;

/**
 * Reads a stored state back defensively: a row written by an older version, or damaged,
 * becomes a usable state (unknown parts reset) instead of an exception in the chat path.
 */
export function restoreConversationState(stored: unknown): ConversationState {
  if (typeof stored !== "object" || stored === null) return initialConversationState();
  const raw = stored as Record<string, unknown>;
  const lead = typeof raw.lead === "object" && raw.lead !== null ? (raw.lead as Record<string, unknown>) : {};
  const mode = MODES.find((candidate) => candidate === raw.mode) ?? "idle";
  return {
    version: 1,
    mode,
    turns: count(raw.turns),
    lead: {
      name: stringOrNull(lead.name),
      nameConfidence: numberOrNull(lead.nameConfidence) ?? 0,
      phone: stringOrNull(lead.phone),
      email: stringOrNull(lead.email),
    },
    purpose: raw.purpose === "lead" || raw.purpose === "booking" ? raw.purpose : null,
    awaiting: FIELDS.find((field) => field === raw.awaiting) ?? null,
    ignoredPrompts: count(raw.ignoredPrompts),
    interest: stringOrNull(raw.interest),
    lastTopic: stringOrNull(raw.lastTopic),
    leadCaptured: raw.leadCaptured === true,
    pendingStartMs: numberOrNull(raw.pendingStartMs),
    focusDayMs: numberOrNull(raw.focusDayMs),
    bookedStartMs: numberOrNull(raw.bookedStartMs),
    lowConfidenceTurns: count(raw.lowConfidenceTurns),
    handedOff: raw.handedOff === true,
    offeredSlots: Array.isArray(raw.offeredSlots)
      ? raw.offeredSlots
          .filter((slot): slot is number => typeof slot === "number" && Number.isFinite(slot))
          .slice(0, 10)
      : [],
    phoneDeclined: raw.phoneDeclined === true,
    lang: isLang(raw.lang) ? raw.lang : null,
    personOffered:
      raw.personOffered === "urgent" || raw.personOffered === "keyword" || raw.personOffered === "message"
        ? raw.personOffered
        : null,
  };
}
