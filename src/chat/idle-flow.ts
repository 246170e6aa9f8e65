import { finalizeBooking, handleAppointmentRequest } from "./booking-flow.ts";
import { searchFaq } from "./faq-search.ts";
import { detectHandoffKeyword, detectLeadIntent, isGoodbye, isPureGreeting, isThanks, looksLikeQuestion } from "./intents.ts";
import { acknowledgeContact, repeatsKnownContact } from "./known-contact.ts";
import { relevantInvalidAttempt, resetFlow, startCollection } from "./lead-flow.ts";
import {
  BOOKING_DISABLED_TEXT,
  FALLBACK_AFTER_HANDOFF_TEXT,
  FALLBACK_TEXT,
  GOODBYE_TEXT,
  HANDOFF_TEXT,
  LEAD_INTRO_TEXT,
  menuQuickReplies,
  QUICK_REPLY,
  SOFT_LEAD_OFFER_TEXT,
  THANKS_TEXT,
} from "./replies.ts";
import { CONFIDENCE, hasFaqAnswer, hasStrongFaqAnswer, type Turn, type TurnReply } from "./turn.ts";

/**
 * Handling a message outside any flow, and the two hand-off rules that apply in every mode.
 * The order of the checks in `handleIdleMessage` is the documented decision order.
 */

function handOff(turn: Turn, reason: "keyword" | "low_confidence"): TurnReply {
  const { state } = turn;
  resetFlow(state);
  if (state.handedOff) return { text: HANDOFF_TEXT.already, confidence: CONFIDENCE.alreadyHandedOff };
  state.handedOff = true;
  const confidence = reason === "keyword" ? CONFIDENCE.handoffKeyword : CONFIDENCE.handoffLowConfidence;
  turn.actions.push({ type: "handoff", reason, confidence });
  return { text: HANDOFF_TEXT[reason], confidence };
}

/** "human", "operator", … (the tenant's list) or the "Talk to a person" quick reply, in any mode. */
export function handleHandoffKeyword(turn: Turn): TurnReply | null {
  const tappedQuickReply = turn.message.toLowerCase() === QUICK_REPLY.human.toLowerCase();
  if (!tappedQuickReply && detectHandoffKeyword(turn.normalized, turn.config) === null) return null;
  return handOff(turn, "keyword");
}

/**
 * Nothing matched well: a low-confidence turn. The reply offers the closest FAQ questions as
 * quick replies; `max_low_confidence_turns` of these in a row hand the chat to a person.
 */
function fallback(turn: Turn): TurnReply {
  const { state, config } = turn;
  const confidence = Math.min(turn.faq?.confidence ?? 0, config.handoff.low_confidence_threshold);
  if (state.handedOff) return { text: FALLBACK_AFTER_HANDOFF_TEXT, confidence, lowConfidence: true };
  state.lowConfidenceTurns += 1;
  if (state.lowConfidenceTurns >= config.handoff.max_low_confidence_turns) {
    state.lowConfidenceTurns = 0;
    return { ...handOff(turn, "low_confidence"), lowConfidence: true };
  }
  const nearby = searchFaq(config.faq, turn.message, 3).map((match) => match.entry.question);
  return { text: FALLBACK_TEXT, quickReplies: menuQuickReplies(config, nearby), confidence, lowConfidence: true };
}

function answerFaq(turn: Turn, suffix = ""): TurnReply | null {
  const faq = turn.faq;
  if (!faq || !hasFaqAnswer(turn)) return null;
  turn.state.lastTopic = faq.entry.question;
  return { text: suffix ? `${faq.entry.answer}\n\n${suffix}` : faq.entry.answer, confidence: faq.confidence };
}

/**
 * Decision order outside a flow:
 * 1. booking — a time in the message, or booking words (unless it is a question the FAQ
 *    answers well: "do you have weekend appointments?" gets the hours, plus a Book button);
 * 2. contact details after a lead or booking used them: acknowledged (known-contact.ts);
 *    lead — contact details given, or buying words; a price question the FAQ answers gets
 *    the answer plus a soft offer of a quote;
 * 3. greeting, thanks, goodbye;
 * 4. FAQ answer at or above the confidence threshold;
 * 5. fallback (low confidence).
 */
export function handleIdleMessage(turn: Turn): TurnReply {
  const { config, state, message } = turn;
  const isQuestion = looksLikeQuestion(message);
  const faqFirst = isQuestion && hasStrongFaqAnswer(turn);
  const request = turn.appointmentRequest;

  if (config.appointments.enabled) {
    if (request && (turn.appointmentIntent || request.hasTime)) return handleAppointmentRequest(turn, request);
    if (turn.appointmentIntent && !faqFirst) return handleAppointmentRequest(turn, null);
  } else if (turn.appointmentIntent && !faqFirst && config.lead.enabled && !state.leadCaptured) {
    return startCollection(turn, finalizeBooking, { purpose: "lead", prefix: BOOKING_DISABLED_TEXT });
  }

  const contactReply = acknowledgeContact(turn);
  if (contactReply) return contactReply;

  if (config.lead.enabled && !state.leadCaptured) {
    // Details the bot already had count too: after an abandoned collection, they resume it.
    if (turn.newFields.length > 0 || relevantInvalidAttempt(turn) || repeatsKnownContact(turn)) return startCollection(turn, finalizeBooking, { purpose: "lead" });
    if (detectLeadIntent(turn.normalized, config)) {
      state.interest ??= message;
      if (isQuestion && hasFaqAnswer(turn)) {
        const ask = startCollection(turn, finalizeBooking, { purpose: "lead", soft: true });
        const answered = answerFaq(turn, `${SOFT_LEAD_OFFER_TEXT} ${ask.text}`);
        if (answered) return answered;
      }
      return startCollection(turn, finalizeBooking, { purpose: "lead", prefix: LEAD_INTRO_TEXT });
    }
  }

  if (isPureGreeting(message)) return { text: config.greeting, quickReplies: menuQuickReplies(config), confidence: CONFIDENCE.smallTalk };
  if (isGoodbye(message)) return { text: GOODBYE_TEXT, confidence: CONFIDENCE.smallTalk };
  if (isThanks(message)) return { text: THANKS_TEXT, confidence: CONFIDENCE.smallTalk };

  const answered = answerFaq(turn);
  if (answered) {
    if (turn.appointmentIntent && config.appointments.enabled) answered.quickReplies = [QUICK_REPLY.book];
    return answered;
  }
  return fallback(turn);
}
