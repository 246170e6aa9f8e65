import { answersConfidence } from "./faq-parts.ts";
import { searchFaq, type FaqMatch } from "./faq-search.ts";
import { clockToMinutes } from "./config-fields.ts";
import { wallClockAt, zoneLabel } from "./timezone.ts";
import { editDistanceAtMost, meaningfulWords } from "./faq-terms.ts";
import { looksLikeQuestion } from "./intents.ts";
import { CONFIDENCE, type Turn, type TurnReply } from "./turn.ts";
import { findUrgentEntry } from "./urgent.ts";

/**
 * What the visitor asked gets answered before anything the bot wants to ask. These replies are
 * shared by every mode: idle, a form half filled in, a slot waiting for "yes". The flows add
 * their open question after the answer (see `withStep`).
 */

const CHANGE_KEYWORDS = new Set(["cancel", "cancellation", "reschedule", "rearrange"]);

/** An answer that opens with "Yes" for a question holding words the entry never mentions reads as a false yes. */
const OPENING_YES = /^(?:yes|yeah|sim|sí|si|claro)(?![\p{L}\p{N}])[\s,.!:;—–-]*/iu;

function withoutOpeningYes(answer: string): string {
  const rest = answer.replace(OPENING_YES, "");
  return rest === answer ? answer : rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** An unknown word one letter off a word of the entry is a typo of it ("nals"), not a new topic. */
function isTypoOf(term: string, entry: FaqMatch["entry"]): boolean {
  const text = `${entry.question} ${(entry.keywords ?? []).join(" ")} ${entry.answer}`;
  return meaningfulWords(text).some((forms) =>
    forms.some((form) => editDistanceAtMost(term, form, 1) || form.startsWith(term)),
  );
}

/**
 * Whether the entry is about what the question asks: fewer words the entry never mentions
 * (typos of its words excepted) than words it matched. "Does whitening hurt?" is not covered by
 * the whitening entry, so "Yes. In-office whitening takes…" loses its "yes" and keeps the facts
 * (withoutUnearnedYes).
 */
export function coversQuestion(match: FaqMatch): boolean {
  if (match.unknownTerms.length === 0) return true;
  const newTopics = match.unknownTerms.filter((term) => term.length >= 4 && !isTypoOf(term, match.entry)).length;
  return newTopics < Math.max(1, match.matchedWords);
}

function withoutUnearnedYes(match: FaqMatch): string {
  const answer = match.entry.answer;
  return !OPENING_YES.test(answer) || coversQuestion(match) ? answer : withoutOpeningYes(answer);
}

/** Whether the business is open at `nowMs` by its weekly hours (in its time zone). */
export function isOpenAt(config: Turn["config"], nowMs: number): boolean {
  const settings = config.appointments;
  const wall = wallClockAt(nowMs, settings.timezone);
  const hours = settings.business_hours[wall.weekday];
  const minute = wall.hour * 60 + wall.minute;
  return hours !== null && minute >= clockToMinutes(hours.open) && minute < clockToMinutes(hours.close);
}

/**
 * A question the FAQ does not answer: said plainly, never guessed at, with a person offered
 * (a "yes" hands off) — or, when the business is closed and takes leads, a message taken.
 */
export function answerNotKnown(turn: Turn): TurnReply {
  const { config, state } = turn;
  if (state.handedOff)
    return { text: `${turn.say.notKnown} ${turn.say.handoff.already}`, confidence: CONFIDENCE.flowReprompt };
  const takeMessage = config.lead.enabled && !state.leadCaptured && !isOpenAt(config, turn.nowMs);
  state.personOffered = takeMessage ? "message" : "keyword";
  const offer = takeMessage ? turn.say.notKnownMessage : turn.say.notKnownPerson;
  // Entries that matched a little (a typo, one word of two) are offered as buttons, never answered.
  const nearby =
    turn.faq && turn.faq.confidence > 0
      ? searchFaq(config.faq, turn.message, 3).filter((match) => match.confidence > 0)
      : [];
  const quickReplies = [...nearby.map((match) => match.entry.question), turn.say.quick.human];
  return { text: `${turn.say.notKnown} ${offer}`, quickReplies, confidence: CONFIDENCE.flowReprompt };
}

/** "{answer}\n\n{the question the flow is waiting on}". */
export function withStep(reply: TurnReply, step: string): TurnReply {
  return { ...reply, text: `${reply.text}\n\n${step}` };
}

/** "…and I'm not sure about “do you accept walk-ins”": a question in the message the FAQ does not cover. */
function unansweredNote(turn: Turn): string {
  const part = turn.answers.unanswered[0];
  if (!part) return "";
  return `\n\n${turn.say.notSureAbout(part.replace(/[?.!]+$/, ""))}`;
}

/** "is that New York time?", "what time zone is that?": the times are always the business's. */
const ZONE_QUESTION = /\btime ?zone\b|\bis that (?:\w+ ){0,2}time\b|\blocal time\b|\bmy time\b|\bwhat time is that\b/i;

function zoneText(turn: Turn): string {
  const timeZone = turn.config.appointments.timezone;
  return turn.say.zone(zoneLabel(timeZone), timeZone);
}

/** The FAQ answers to every question in the message, in order; null when none is covered. */
export function answerQuestions(turn: Turn): TurnReply | null {
  const { matches } = turn.answers;
  const zone = turn.config.appointments.enabled && ZONE_QUESTION.test(turn.message) ? zoneText(turn) : "";
  const last = matches[matches.length - 1];
  if (!last) return zone ? { text: zone, confidence: CONFIDENCE.flowStep } : null;
  turn.state.lastTopic = last.entry.question;
  const text = [zone, matches.map(withoutUnearnedYes).join("\n\n") + unansweredNote(turn)].filter(Boolean).join("\n\n");
  return { text, confidence: answersConfidence(matches) };
}

/**
 * A booking the visitor already has: the bot cannot see or change it, so it gives the
 * business's cancellation policy (when the FAQ has one) and offers a person.
 */
export function answerAppointmentChange(turn: Turn): TurnReply {
  const { config, state } = turn;
  const policy =
    searchFaq(config.faq, turn.message, 3).find((match) =>
      (match.entry.keywords ?? []).some((keyword) => CHANGE_KEYWORDS.has(keyword.toLowerCase())),
    )?.entry ??
    config.faq.find((entry) => (entry.keywords ?? []).some((keyword) => CHANGE_KEYWORDS.has(keyword.toLowerCase())));
  if (policy) state.lastTopic = policy.question;
  state.personOffered = "keyword";
  const text = policy ? `${policy.answer}\n\n${turn.say.changeBooking}` : turn.say.changeBooking;
  return { text, quickReplies: [turn.say.quick.human], confidence: CONFIDENCE.flowStep };
}

/**
 * Urgent: the business's urgent answer and a person offered, in any mode. The caller drops an
 * open form or booking first (details already given are kept and resume later): the visitor
 * in pain is not asked for a name.
 */
export function answerUrgent(turn: Turn): TurnReply {
  const { config, state } = turn;
  const entry = findUrgentEntry(config.faq, turn.lang, config.language);
  if (entry) state.lastTopic = entry.question;
  state.interest ??= turn.message;
  // "I chipped my tooth" asked nothing: the entry's "Yes. For severe pain…" would answer no question.
  const answer = entry
    ? looksLikeQuestion(turn.message)
      ? entry.answer
      : withoutOpeningYes(entry.answer)
    : turn.say.urgentNoAnswer;
  if (state.handedOff) return { text: `${answer}\n\n${turn.say.handoff.already}`, confidence: CONFIDENCE.urgent };
  state.personOffered = "urgent";
  return {
    text: `${answer}\n\n${turn.say.urgentOffer}`,
    quickReplies: [turn.say.quick.human],
    confidence: CONFIDENCE.urgent,
  };
}
