import type { BotConfig } from "./bot-config.ts";
import type { ConversationState, CollectionPurpose } from "./conversation-state.ts";
import type { ContactField, ContactFindings, InvalidContactAttempt } from "./extract-contact.ts";
import { NAME_CONFIDENCE } from "./extract-name.ts";
import { answerAppointmentChange, answerQuestions, withStep } from "./answer-first.ts";
import { detectLeadIntent, isAffirmative, looksLikeQuestion, wantsToStopFlow } from "./intents.ts";
import { askFieldText, firstName, invalidAttemptText, leadThanksText } from "./replies.ts";
import { CONFIDENCE, MAX_IGNORED_PROMPTS, type Turn, type TurnReply } from "./turn.ts";

/**
 * Collecting name, phone and e-mail one at a time. Details are accepted whenever they
 * appear (unprompted, or several in one message); the bot only ever asks for the first one
 * still missing, and an invalid attempt is answered with the reason before anything else.
 */

/** Finishes a booking once its contact details are complete; injected to keep flows acyclic. */
export type CompleteBooking = (turn: Turn, prefix: string) => TurnReply;

const REQUIRED_FIELDS: Record<CollectionPurpose, readonly ContactField[]> = {
  lead: ["name", "phone", "email"],
  // A clinic needs to know who is coming and how to reach them; e-mail is a bonus.
  booking: ["name", "phone"],
};
/** The same, for a visitor who would rather not give a phone number, where the tenant allows it. */
const REQUIRED_WITHOUT_PHONE: Record<CollectionPurpose, readonly ContactField[]> = {
  lead: ["name", "email"],
  booking: ["name", "email"],
};

/** "I'd rather not give my phone number", "just email me", "prefiro não dar meu telefone", "mejor por correo". */
const DECLINES_PHONE =
  /(?:rather not|prefer not to|don'?t want to|do not want to|won'?t|not comfortable)\s+(?:give|giving|share|sharing|leave|leaving)\b[^.?!]{0,20}\b(?:phone|number|mobile|cell)|\b(?:no|without (?:a|my))\s+(?:phone|number)\b|\b(?:just |only )?e-?mail me(?: instead)?\b|\bby e-?mail (?:instead|only|please)\b|\bprefiro n[aã]o (?:dar|passar|informar|deixar)\b|\b(?:s[oó] |apenas )?por e-?mail\b|\bprefiero no (?:dar|dejar|compartir)\b|\b(?:solo |mejor )?por correo\b/i;

export function declinesPhone(message: string): boolean {
  return DECLINES_PHONE.test(message);
}

/** Whether this visitor's details can do without a phone number: they declined it and the tenant allows it. */
export function phoneWaived(state: ConversationState, config: BotConfig): boolean {
  return state.phoneDeclined === true && config.lead.require_phone === false;
}
const DEFAULT_INTEREST = "General enquiry";
const MAX_INTEREST_LENGTH = 200;

export function missingFields(state: ConversationState, purpose: CollectionPurpose, config: BotConfig): ContactField[] {
  // A phone given anyway still serves a booking.
  const withoutPhone = phoneWaived(state, config) && !(purpose === "booking" && state.lead.phone !== null);
  return (withoutPhone ? REQUIRED_WITHOUT_PHONE : REQUIRED_FIELDS)[purpose].filter(
    (field) => state.lead[field] === null,
  );
}

export function resetFlow(state: ConversationState): void {
  state.mode = "idle";
  state.purpose = null;
  state.awaiting = null;
  state.ignoredPrompts = 0;
  state.pendingStartMs = null;
  state.focusDayMs = null;
  state.offeredSlots = [];
}

/**
 * Stores what the message carried and returns the fields it set or changed. The latest phone
 * and e-mail win (visitors correct typos by retyping); a name is replaced only by one found
 * at least as surely, so "I'm Ana" cannot overwrite "my name is Ana Lopez".
 */
export function applyContactFindings(
  state: ConversationState,
  contact: ContactFindings,
  allowPromptedName: boolean,
): ContactField[] {
  const changed: ContactField[] = [];
  const name = contact.name;
  const nameAllowed = name !== null && (allowPromptedName || name.confidence !== NAME_CONFIDENCE.prompted);
  // A known name is replaced only by one stated outright ("actually my name is …") or asked for:
  // a bare word beside an e-mail ("oops tom@…") or an "I'm …" cannot overwrite it.
  const replaceable =
    state.lead.name === null ||
    state.awaiting === "name" ||
    (name !== null && name.confidence === NAME_CONFIDENCE.explicit);
  if (
    name &&
    nameAllowed &&
    replaceable &&
    name.value !== state.lead.name &&
    (name.confidence >= state.lead.nameConfidence || state.awaiting === "name")
  ) {
    state.lead.name = name.value;
    state.lead.nameConfidence = name.confidence;
    changed.push("name");
  }
  if (contact.phone && contact.phone !== state.lead.phone) {
    state.lead.phone = contact.phone;
    changed.push("phone");
  }
  if (contact.email && contact.email !== state.lead.email) {
    state.lead.email = contact.email;
    changed.push("email");
  }
  return changed;
}

/** A failed attempt matters for a field still missing, or the one just asked for (a correction). */
export function relevantInvalidAttempt(turn: Turn): InvalidContactAttempt | null {
  const { state, contact } = turn;
  return (
    contact.invalid.find((attempt) => state.lead[attempt.field] === null || state.awaiting === attempt.field) ?? null
  );
}

function interestOf(state: ConversationState): string {
  if (state.interest) return state.interest.slice(0, MAX_INTEREST_LENGTH);
  return state.lastTopic ? `Asked about: ${state.lastTopic}` : DEFAULT_INTEREST;
}

/**
 * The one place a lead_captured action is made: all three details valid, leads enabled, and
 * none emitted yet in this session. Called by the lead flow and once more at the end of every
 * turn, so details completed during a booking still make a lead.
 */
export function captureLeadIfComplete(turn: Turn): boolean {
  const { state, config } = turn;
  const { name, phone, email } = state.lead;
  if (!config.lead.enabled || state.leadCaptured || !name || !email || (!phone && !phoneWaived(state, config)))
    return false;
  state.leadCaptured = true;
  turn.actions.push({
    type: "lead_captured",
    name,
    phone: phone ?? "",
    email,
    interest: interestOf(state),
    confidence: state.lead.nameConfidence,
  });
  return true;
}

/**
 * A correction after the lead was emitted ("sorry, my number is …"): the lead row is updated
 * through a lead_updated action instead of a second lead. `capturedBefore` is the state at the
 * start of the turn, so the turn that captures the lead does not also "update" it.
 */
export function reportLeadUpdate(turn: Turn, capturedBefore: boolean): void {
  const { name, phone, email } = turn.state.lead;
  if (!capturedBefore || turn.newFields.length === 0 || !name || !phone || !email) return;
  turn.actions.push({
    type: "lead_updated",
    name,
    phone,
    email,
    fields: [...turn.newFields],
    confidence: turn.state.lead.nameConfidence,
  });
}

function joinText(...parts: string[]): string {
  return parts.filter((part) => part.length > 0).join(" ");
}

/** Asks for the next missing detail (or explains a failed attempt), or completes the collection. */
export function continueCollection(turn: Turn, completeBooking: CompleteBooking, prefix = ""): TurnReply {
  const { state } = turn;
  const purpose = state.purpose ?? "lead";
  // "a quote for whitening, but just email me": declined before the phone was ever asked.
  if (state.lead.phone === null && !state.phoneDeclined && declinesPhone(turn.message)) state.phoneDeclined = true;
  const invalid = relevantInvalidAttempt(turn);
  const thanks = turn.newFields.includes("name") && state.lead.name ? turn.say.thanksName(firstName(state.lead)) : "";
  if (invalid) {
    state.awaiting = invalid.field;
    return { text: joinText(prefix, thanks, invalidAttemptText(invalid, turn.say)), confidence: CONFIDENCE.flowReask };
  }
  const next = missingFields(state, purpose, turn.config)[0];
  if (next === "phone" && state.phoneDeclined) return phoneNeeded(turn, prefix);
  if (next) {
    state.awaiting = next;
    return { text: joinText(prefix, askFieldText(next, state.lead, turn.say)), confidence: CONFIDENCE.flowStep };
  }
  if (purpose === "booking") return completeBooking(turn, prefix);
  captureLeadIfComplete(turn);
  const lead = { ...state.lead };
  resetFlow(state);
  return { text: joinText(prefix, leadThanksText(lead, turn.say)), confidence: CONFIDENCE.flowStep };
}

/**
 * Enters the collection. A soft start (a price question that the FAQ already answered) may be
 * ignored once without a reminder: the visitor asked a question, not for a sales call.
 */
export function startCollection(
  turn: Turn,
  completeBooking: CompleteBooking,
  options: { purpose: CollectionPurpose; prefix?: string; soft?: boolean },
): TurnReply {
  const { state } = turn;
  state.mode = "collecting_lead";
  state.purpose = options.purpose;
  state.ignoredPrompts = options.soft ? MAX_IGNORED_PROMPTS - 1 : 0;
  return continueCollection(turn, completeBooking, options.prefix ?? "");
}

/**
 * "I'd rather not give my phone number, can you just email me?": where the tenant allows it, the
 * form goes on without the phone; otherwise the visitor is told why it is needed and the form stops
 * (the details given are kept), instead of being asked for the phone again.
 */
function answerPhoneDeclined(turn: Turn, completeBooking: CompleteBooking): TurnReply {
  const { state, config } = turn;
  state.phoneDeclined = true;
  state.ignoredPrompts = 0;
  return continueCollection(turn, completeBooking, phoneWaived(state, config) ? turn.say.phoneWaived : "");
}

/** The tenant needs a phone the visitor would rather not give: said once, and the form stops (details kept). */
function phoneNeeded(turn: Turn, prefix: string): TurnReply {
  resetFlow(turn.state);
  return {
    text: joinText(prefix, turn.say.phoneNeeded),
    quickReplies: [turn.say.quick.human],
    confidence: CONFIDENCE.flowStep,
  };
}

/**
 * A message while collecting. Returns null when the visitor has moved on (asked to book, or
 * ignored the question MAX_IGNORED_PROMPTS times): the flow is reset and the engine treats
 * the message as a fresh one.
 */
export function handleLeadCollection(turn: Turn, completeBooking: CompleteBooking): TurnReply | null {
  const { state, message } = turn;
  if (declinesPhone(message) && state.lead.phone === null) return answerPhoneDeclined(turn, completeBooking);
  const progressed = turn.newFields.length > 0 || relevantInvalidAttempt(turn) !== null;
  if (progressed) {
    state.ignoredPrompts = 0;
    return continueCollection(turn, completeBooking);
  }
  if (wantsToStopFlow(message)) {
    const text = state.purpose === "booking" ? turn.say.bookingStopped : turn.say.leadStopped;
    resetFlow(state);
    return { text, confidence: CONFIDENCE.smallTalk };
  }
  const awaiting = state.awaiting ?? missingFields(state, state.purpose ?? "lead", turn.config)[0] ?? "name";
  // "ok book me in saturday afternoon" is a booking, not an "ok" to the question.
  const wantsBooking = turn.appointmentIntent || turn.appointmentRequest?.hasTime === true;
  // "ok can i bring it in tomorrow morning" starts with "ok" but asks something else.
  if (!wantsBooking && isAffirmative(message) && !looksLikeQuestion(message) && !turn.appointmentRequest)
    return { text: askFieldText(awaiting, state.lead, turn.say), confidence: CONFIDENCE.flowStep };
  if (wantsBooking || state.ignoredPrompts + 1 >= MAX_IGNORED_PROMPTS) {
    resetFlow(state);
    return null;
  }
  state.ignoredPrompts += 1;
  // Answer first, then ask again: a question never gets "I still need your name".
  const step = askFieldText(awaiting, state.lead, turn.say);
  const answered = turn.appointmentChange ? answerAppointmentChange(turn) : answerQuestions(turn);
  if (answered) return withStep(answered, step);
  if (looksLikeQuestion(message) || detectLeadIntent(turn.normalized, turn.config)) {
    return { text: `${turn.say.notCovered}\n\n${step}`, confidence: CONFIDENCE.flowReprompt };
  }
  return { text: turn.say.stillNeed(awaiting), confidence: CONFIDENCE.flowReprompt };
}
