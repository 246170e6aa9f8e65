import type { BotConfig } from "./bot-config.ts";
import type { ConversationState } from "./conversation-state.ts";
import type { EngineAction } from "./engine-types.ts";
import type { ContactField, ContactFindings } from "./extract-contact.ts";
import type { PartAnswers } from "./faq-parts.ts";
import type { FaqMatch } from "./faq-search.ts";
import type { Lang } from "./language.ts";
import type { AppointmentRequest } from "./parse-appointment.ts";
import type { Phrases } from "./phrases/index.ts";

/** One message being handled: the input, what was read from it, and the draft state flows edit. */
export interface Turn {
  readonly config: BotConfig;
  /** A private copy of the input state; flows mutate it and it becomes the output state. */
  readonly state: ConversationState;
  readonly message: string;
  /** normalizeForMatching(message), for keyword tests. */
  readonly normalized: string;
  readonly nowMs: number;
  /** The visitor's language for this message, and the engine's phrases in it. */
  readonly lang: Lang;
  readonly say: Phrases;
  readonly takenSlotStarts: readonly number[];
  readonly contact: ContactFindings;
  /** Best FAQ entry for the message, whatever its confidence. */
  readonly faq: FaqMatch | null;
  /** The date/time in the message, when appointments are enabled and there is one. */
  readonly appointmentRequest: AppointmentRequest | null;
  /** The message asks to book (keywords), with or without a date. */
  readonly appointmentIntent: boolean;
  /** The FAQ answers for each question in the message (several when it asks several). */
  readonly answers: PartAnswers;
  /** The phrase that makes the message urgent ("swollen", "burst pipe"), or null. */
  readonly urgent: string | null;
  /** The message is about an appointment the visitor already has (cancel, move, can't make it). */
  readonly appointmentChange: boolean;
  /** Contact fields this message set or changed. */
  readonly newFields: ContactField[];
  /** Of those, the ones that replaced a value the bot already had (a correction). */
  readonly corrected: ContactField[];
  readonly actions: EngineAction[];
}

export interface TurnReply {
  text: string;
  quickReplies?: string[];
  confidence: number;
  /** The engine did not understand: counts toward the low-confidence hand-off. */
  lowConfidence?: boolean;
}

/**
 * Confidence of each kind of reply. Rule-driven replies are scored by how unambiguous the
 * rule is; FAQ answers carry the search confidence; a fallback carries the best (too weak)
 * FAQ confidence, so it is below the threshold by construction.
 */
export const CONFIDENCE = {
  handoffKeyword: 0.95,
  /** The visitor did not say "human"; two misses only suggest one would help. */
  handoffLowConfidence: 0.6,
  alreadyHandedOff: 0.9,
  smallTalk: 0.9,
  flowStep: 0.9,
  flowReask: 0.8,
  flowReprompt: 0.6,
  slotOffered: 0.9,
  slotRefused: 0.8,
  booked: 0.95,
  /** Contact details the bot already had, or changed after the lead was taken. */
  contactAcknowledged: 0.9,
  emptyMessage: 0.5,
  /** An urgent signal ("swollen", "burst pipe") is a phrase match, not a guess. */
  urgent: 0.9,
} as const;

/** An FAQ hit this strong wins over a keyword intent when the message is a question. */
export const STRONG_FAQ_CONFIDENCE = 0.6;
/** After this many ignored questions the bot stops asking and just answers. */
export const MAX_IGNORED_PROMPTS = 2;
/**
 * The one limit on a chat message, visitor's or operator's: the API refuses longer ones (422),
 * and the engine and the assistant never see more.
 */
export const MESSAGE_MAX_LENGTH = 4000;

/** Whether the FAQ has an answer worth giving for this message. */
export function hasFaqAnswer(turn: Turn): boolean {
  return turn.faq !== null && turn.faq.confidence >= turn.config.handoff.low_confidence_threshold;
}

export function hasStrongFaqAnswer(turn: Turn): boolean {
  return (
    turn.faq !== null &&
    turn.faq.confidence >= Math.max(STRONG_FAQ_CONFIDENCE, turn.config.handoff.low_confidence_threshold)
  );
}
