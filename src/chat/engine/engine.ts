import { handleBookingPrompt, handleConfirmation, finalizeBooking } from "./booking-flow.ts";
import type { EngineInput, EngineOutput, ReplyEngine } from "./engine-types.ts";
import { extractContact } from "./extract-contact.ts";
import { answerUrgent } from "./answer-first.ts";
import { findBestFaqForQuestion, hasOwnTopic, questionAspect } from "./faq-intent.ts";
import { meaningfulWords } from "./faq-terms.ts";
import { answerParts, withEqualRunnerUp } from "./faq-parts.ts";
import { handleHandoffKeyword, handleIdleMessage, handOff } from "./idle-flow.ts";
import {
  detectAppointmentIntent,
  isAffirmative,
  isAppointmentChange,
  isNegative,
  normalizeForMatching,
} from "./intents.ts";
import {
  applyContactFindings,
  captureLeadIfComplete,
  startCollection,
  handleLeadCollection,
  reportLeadUpdate,
  resetFlow,
} from "./lead-flow.ts";
import { parseAppointmentRequest } from "./parse-appointment.ts";
import { detectUrgency } from "./urgent.ts";
import { detectLanguage } from "./language.ts";
import { PHRASES } from "./phrases/index.ts";
import { CONFIDENCE, MESSAGE_MAX_LENGTH, STRONG_FAQ_CONFIDENCE, type Turn, type TurnReply } from "./turn.ts";

export type { EngineAction, EngineInput, EngineOutput, EngineReply, ReplyEngine } from "./engine-types.ts";
export { initialConversationState, restoreConversationState, type ConversationState } from "./conversation-state.ts";
import { copyConversationState } from "./conversation-state.ts";

/**
 * The deterministic, rule-based ReplyEngine. Per message:
 *
 * 1. read the message once: best FAQ match, contact details (valid and failed attempts),
 *    date/time, booking words; store any valid contact details in the state;
 * 2. a hand-off keyword wins in every mode, then an urgent message (its answer and a person
 *    offered); a "yes" to a person just offered hands off;
 * 3. an open flow (confirming a slot, asking for a time, collecting details) handles the
 *    message, or gives it up when the visitor has clearly moved on;
 * 4. otherwise the idle decision order (see idle-flow.ts) picks the reply;
 * 5. any turn that completed name + phone + e-mail emits the lead, once per session.
 *
 * The input state is never mutated; the output carries a new one.
 */
export function createRuleEngine(): ReplyEngine {
  return { reply: replyByRules, replyUnlessSlotsNeeded };
}

/** Thrown by a turn's `takenSlotStarts` when they were not given (replyUnlessSlotsNeeded). */
const SLOTS_NEEDED = Symbol("slots needed");

function replyUnlessSlotsNeeded(input: Omit<EngineInput, "takenSlotStarts">): EngineOutput | null {
  try {
    return replyByRules({ ...input, takenSlotStarts: null });
  } catch (error) {
    // The turn's draft state and actions are dropped: `reply` starts again from the input.
    if (error === SLOTS_NEEDED) return null;
    throw error;
  }
}

function replyByRules(
  input: Omit<EngineInput, "takenSlotStarts"> & { takenSlotStarts: readonly number[] | null },
): EngineOutput {
  const { config, nowMs } = input;
  const state = copyConversationState(input.state);
  state.turns += 1;
  const message = input.message.replace(/\s+/g, " ").trim().slice(0, MESSAGE_MAX_LENGTH);
  const lang = detectLanguage(message, config.languages ?? ["en"], state.lang ?? config.language);
  const say = PHRASES[lang];
  if (!message) return { reply: { text: say.emptyMessage }, confidence: CONFIDENCE.emptyMessage, state, actions: [] };
  state.lang = lang;

  const threshold = config.handoff.low_confidence_threshold;
  // "Shall I book Tue 12:00 for you?" answered "Ana Lopez": details given to hold the slot.
  const confirming = state.mode === "confirming_appointment" && !isAffirmative(message) && !isNegative(message);
  const expecting = state.mode === "collecting_lead" ? state.awaiting : confirming ? "name" : null;
  const contact = extractContact(message, { defaultCountry: config.lead.default_country, expecting });
  // "a quote for braces, I'm Ana Lopez": the name is not part of the question.
  let question = withTopic(withoutContact(message, contact.name?.value ?? null), state.lastTopic);
  let faq = findBestFaqForQuestion(config.faq, question, threshold);
  // "and the take-home one?" after the whitening answer: searched alone first, then with the topic.
  if (state.lastTopic && (!faq || faq.confidence < threshold) && FOLLOW_UP.test(message)) {
    question = `${question.replace(/[?!.\s]+$/, "")} ${state.lastTopic.replace(/[?!.]+$/, "")}`;
    faq = findBestFaqForQuestion(config.faq, question, threshold);
  }
  // A bare "opening hours" after "what's your name?" is a question, not a person called Opening
  // Hours; "Jane Park" has a word no FAQ entry knows, so it stays a name.
  // Unasked, one word ("any later?") is too little to be a name: a full name is needed.
  const allowPromptedName =
    (!faq || faq.confidence < STRONG_FAQ_CONFIDENCE || faq.unknownWords > 0) &&
    !(confirming && !(contact.name?.value.includes(" ") ?? false));
  const known = { ...state.lead };
  const newFields = applyContactFindings(state, contact, allowPromptedName);
  const normalized = normalizeForMatching(message);
  const turn: Turn = {
    config,
    state,
    message,
    normalized,
    nowMs,
    lang,
    say,
    get takenSlotStarts() {
      if (input.takenSlotStarts === null) throw SLOTS_NEEDED;
      return input.takenSlotStarts;
    },
    contact,
    faq,
    appointmentRequest: config.appointments.enabled ? parseAppointmentRequest(message, config, nowMs, lang) : null,
    appointmentIntent: detectAppointmentIntent(message, normalized, config),
    answers: withEqualRunnerUp(config.faq, question, answerParts(config.faq, question, faq, threshold)),
    urgent: detectUrgency(normalized, config),
    appointmentChange: isAppointmentChange(message),
    newFields,
    corrected: newFields.filter((field) => known[field] !== null),
    actions: [],
  };

  const reply = decideReply(turn);
  if (!reply.lowConfidence) state.lowConfidenceTurns = 0;
  captureLeadIfComplete(turn);
  reportLeadUpdate(turn, input.state.leadCaptured);
  const confidence = Math.min(1, Math.max(0, reply.confidence));
  return {
    reply:
      reply.quickReplies && reply.quickReplies.length > 0
        ? { text: reply.text, quick_replies: reply.quickReplies }
        : { text: reply.text },
    confidence,
    state,
    actions: turn.actions,
    ...(reply.lowConfidence ? { unanswered: true } : {}),
  };
}

function decideReply(turn: Turn): TurnReply {
  const offered = turn.state.personOffered ?? null;
  turn.state.personOffered = null;
  const handoff = handleHandoffKeyword(turn);
  if (handoff) return handoff;
  if (turn.urgent) {
    resetFlow(turn.state);
    return answerUrgent(turn);
  }
  // "yes" right after the bot offered a person (urgent, a booking to change, an unknown answer),
  // or out of hours to take a message.
  if (offered && turn.state.mode === "idle" && isAffirmative(turn.message)) {
    return offered === "message" ? startCollection(turn, finalizeBooking, { purpose: "lead" }) : handOff(turn, offered);
  }
  const inFlow = flowReply(turn);
  return inFlow ?? handleIdleMessage(turn);
}

function flowReply(turn: Turn): TurnReply | null {
  switch (turn.state.mode) {
    case "confirming_appointment":
      return handleConfirmation(turn);
    case "booking":
      return handleBookingPrompt(turn);
    case "collecting_lead":
      return handleLeadCollection(turn, finalizeBooking);
    case "idle":
      return null;
  }
}

/** A message that refers back to the last answer: "and the take-home one?", "e aos sábados?", "¿y los sábados?". */
const FOLLOW_UP = /^(?:¿\s*)?(?:and|what about|how about|also|e|e quanto a|y|y qué tal|qué tal|e sobre|y sobre)\b/i;

const EMAIL_TOKEN = /\S+@\S+/g;
const PHONE_RUN = /\+?\(?\d[\d\s().-]{5,}\d/g;

/** The message without e-mails, phone numbers and the name it gave: what is left to search the FAQ with. */
function withoutContact(message: string, name: string | null): string {
  // Most messages have none of the three; `message` is already one space between words.
  if (name === null && !message.includes("@") && !/\d/.test(message) && message === message.trim()) return message;
  // The e-mail pattern scans every word for an "@"; most messages have none.
  let text = (message.includes("@") ? message.replace(EMAIL_TOKEN, " ") : message).replace(PHONE_RUN, " ");
  for (const word of name?.split(/\s+/) ?? []) {
    text = text.replace(
      new RegExp(`(?<![\\p{L}])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}])`, "giu"),
      " ",
    );
  }
  const cleaned = text.replace(/\s+/g, " ").trim();
  return cleaned.length > 0 ? cleaned : message;
}

/** "how much?" or "how long does it take?" right after an answer asks about that answer's topic. */
function withTopic(question: string, lastTopic: string | null): string {
  // The aspect test first: two regular expressions, and most questions ask about no aspect.
  if (!lastTopic || questionAspect(question) === null || hasOwnTopic(meaningfulWords(question))) return question;
  return `${question} ${lastTopic}`;
}
