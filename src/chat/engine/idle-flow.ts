import { answerAppointmentChange, answerNotKnown, coversQuestion, answerQuestions, withStep } from "./answer-first.ts";
import { finalizeBooking, handleAppointmentRequest } from "./booking-flow.ts";
import { meaningfulWords } from "./faq-terms.ts";
import { searchFaq } from "./faq-search.ts";
import { detectPersonRequest } from "./handoff-phrases.ts";
import {
  detectLeadIntent,
  isDismissal,
  isExplicitBookingRequest,
  isGoodbye,
  isPureGreeting,
  isThanks,
  looksLikeQuestion,
} from "./intents.ts";
import { acknowledgeContact, repeatsKnownContact } from "./known-contact.ts";
import { relevantInvalidAttempt, resetFlow, startCollection } from "./lead-flow.ts";
import { greetingText, menuQuickReplies } from "./replies.ts";
import { HUMAN_QUICK_REPLIES } from "./phrases/index.ts";
import { teamAvailability } from "./team-hours.ts";
import { CONFIDENCE, hasStrongFaqAnswer, type Turn, type TurnReply } from "./turn.ts";

/**
 * Handling a message outside any flow, and the two hand-off rules that apply in every mode.
 * The order of the checks in `handleIdleMessage` is the documented decision order.
 */

export function handOff(turn: Turn, reason: "keyword" | "low_confidence" | "urgent" | "complaint"): TurnReply {
  const { state } = turn;
  resetFlow(state);
  // Out of business hours nobody is promised: the chat still goes to the inbox, and what the
  // visitor writes next (details, question) is the message the team finds when back.
  const team = teamAvailability(turn.config, turn.nowMs);
  const away = !team.withinBusinessHours && team.backAt !== null;
  if (state.handedOff)
    return {
      text: away ? turn.say.handoffAway.already : turn.say.handoff.already,
      confidence: CONFIDENCE.alreadyHandedOff,
    };
  state.handedOff = true;
  const confidence = reason === "low_confidence" ? CONFIDENCE.handoffLowConfidence : CONFIDENCE.handoffKeyword;
  turn.actions.push({ type: "handoff", reason, confidence });
  return { text: away ? turn.say.handoffAway.offer : turn.say.handoff[reason], confidence };
}

/**
 * "human", "operator", … (the tenant's list), the manager or a complaint in any language
 * (handoff-phrases.ts), or the "Talk to a person" quick reply, in any mode.
 */
export function handleHandoffKeyword(turn: Turn): TurnReply | null {
  if (HUMAN_QUICK_REPLIES.has(turn.message.toLowerCase())) return handOff(turn, "keyword");
  const reason = detectPersonRequest(turn.normalized, turn.config.handoff.keywords);
  return reason ? handOff(turn, reason) : null;
}

/**
 * Nothing matched well: a low-confidence turn. The reply offers the closest FAQ questions as
 * quick replies; `max_low_confidence_turns` of these in a row hand the chat to a person.
 */
function fallback(turn: Turn): TurnReply {
  const { state, config } = turn;
  const confidence = Math.min(turn.faq?.confidence ?? 0, config.handoff.low_confidence_threshold);
  if (state.handedOff) return { text: turn.say.fallbackAfterHandoff, confidence, lowConfidence: true };
  state.lowConfidenceTurns += 1;
  if (state.lowConfidenceTurns >= config.handoff.max_low_confidence_turns) {
    state.lowConfidenceTurns = 0;
    return { ...handOff(turn, "low_confidence"), lowConfidence: true };
  }
  if (looksLikeQuestion(turn.message)) return { ...answerNotKnown(turn), confidence, lowConfidence: true };
  const nearby = searchFaq(config.faq, turn.message, 3).map((match) => match.entry.question);
  return {
    text: turn.say.fallback,
    quickReplies: menuQuickReplies(config, turn.say, turn.lang, nearby),
    confidence,
    lowConfidence: true,
  };
}

/** Half the visitor's words matched an entry: enough to answer before taking details. */
const SOLID_ANSWER_CONFIDENCE = 0.5;

/**
 * Buying words win over the FAQ only when the FAQ has nothing solid for the message: "I want
 * to rent a 2 bedroom flat under 1500 a month, what do you have?" shares only "rent" with the
 * documents entry, and wants a person with listings, not the paperwork.
 */
function hasSolidAnswer(turn: Turn, isQuestion: boolean): boolean {
  // A question the FAQ answers at all is answered first: "can i pay for braces in installments?".
  // "I want to rent a 2 bedroom flat, what do you have?" is not covered by the rental documents entry.
  if (isQuestion && turn.answers.matches.length > 0 && turn.answers.matches.every(coversQuestion)) return true;
  return turn.answers.matches.length > 1 || (turn.answers.matches[0]?.confidence ?? 0) >= SOLID_ANSWER_CONFIDENCE;
}

/**
 * Decision order outside a flow:
 * 1. an appointment the visitor already has (cancel, move, can't make it): how to change it,
 *    and a person offered;
 * 2. booking — a time in the message, or booking words (unless it is a question the FAQ
 *    answers well: "do you have weekend appointments?" gets the hours, plus a Book button);
 * 3. contact details after a lead or booking used them: acknowledged (known-contact.ts);
 * 4. lead — contact details given, or buying words. The FAQ's answers come first: buying
 *    words with a solid answer get the answer(s) plus a soft offer of a quote;
 * 5. greeting, thanks, goodbye;
 * 6. the FAQ answers to every question in the message (up to three, in order);
 * 7. fallback (low confidence).
 */
export function handleIdleMessage(turn: Turn): TurnReply {
  const { config, state, message } = turn;
  const isQuestion = looksLikeQuestion(message);
  const faqFirst =
    isQuestion && !isExplicitBookingRequest(message) && (hasStrongFaqAnswer(turn) || turn.answers.matches.length > 1);
  const request = turn.appointmentRequest;

  if (turn.appointmentChange) return answerAppointmentChange(turn);
  if (config.appointments.enabled) {
    // "tomorrow morning?" names a day and a part of it: only a booking asks that.
    const daypart = request?.hasDate && Boolean(request.window);
    // "next wednesday" on its own (after "i need a cleaning") can only be a day to come in.
    const dateOnly = request?.hasDate && meaningfulWords(message.replace(request.matchedText, " ")).length === 0;
    if (request && (turn.appointmentIntent || request.hasTime || daypart || dateOnly))
      return handleAppointmentRequest(turn, request);
    if (turn.appointmentIntent && !faqFirst) return handleAppointmentRequest(turn, null);
  } else if (turn.appointmentIntent && !faqFirst && config.lead.enabled && !state.leadCaptured) {
    return startCollection(turn, finalizeBooking, { purpose: "lead", prefix: turn.say.bookingDisabled });
  }

  const contactReply = acknowledgeContact(turn);
  if (contactReply) return contactReply;

  if (config.lead.enabled && !state.leadCaptured) {
    // Details the bot already had count too: after an abandoned collection, they resume it.
    const leadIntent = detectLeadIntent(turn.normalized, config);
    if (leadIntent) state.interest ??= message;
    if (turn.newFields.length > 0 || relevantInvalidAttempt(turn) || repeatsKnownContact(turn)) {
      // "a quote for braces, I'm Ana Lopez": the braces answer first, then the next detail.
      const answered = (isQuestion || leadIntent) && hasSolidAnswer(turn, isQuestion) ? answerQuestions(turn) : null;
      const ask = startCollection(turn, finalizeBooking, { purpose: "lead" });
      return answered ? withStep(answered, ask.text) : ask;
    }
    if (leadIntent) {
      const answered = hasSolidAnswer(turn, isQuestion) ? answerQuestions(turn) : null;
      if (answered) {
        const ask = startCollection(turn, finalizeBooking, { purpose: "lead", soft: true });
        return withStep(answered, `${turn.say.softLeadOffer} ${ask.text}`);
      }
      return startCollection(turn, finalizeBooking, { purpose: "lead", prefix: turn.say.leadIntro });
    }
  }

  if (isPureGreeting(message))
    return {
      text: greetingText(config, turn.say, turn.lang),
      quickReplies: menuQuickReplies(config, turn.say, turn.lang),
      confidence: CONFIDENCE.smallTalk,
    };
  if (isGoodbye(message)) return { text: turn.say.goodbye, confidence: CONFIDENCE.smallTalk };
  if (isThanks(message)) return { text: turn.say.thanks, confidence: CONFIDENCE.smallTalk };
  if (isDismissal(message)) return { text: turn.say.dismissed, confidence: CONFIDENCE.smallTalk };

  const answered = answerQuestions(turn);
  if (answered) {
    if (turn.appointmentIntent && config.appointments.enabled) answered.quickReplies = [turn.say.quick.book];
    else if (turn.answers.unanswered.length > 0) answered.quickReplies = [turn.say.quick.human];
    return answered;
  }
  return fallback(turn);
}
