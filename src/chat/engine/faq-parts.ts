import type { FaqEntry } from "./bot-config.ts";
import { answerHasAspect, findBestFaqForQuestion, hasOwnTopic, questionAspect } from "./faq-intent.ts";
import { searchFaq, type FaqMatch } from "./faq-search.ts";
import { meaningfulWords } from "./faq-terms.ts";

/**
 * Messages with more than one question: "whats the price for whitening and do you do it on
 * saturdays", "I'm a new patient, do you accept walk-ins?". The message is cut into parts at
 * question marks, sentence ends, and "and"/"also"/commas that start a new question; each part
 * is looked up on its own and every distinct entry it finds confidently is answered, in the
 * order asked, up to MAX_ANSWERS.
 */

export const MAX_ANSWERS = 3;
/** A part is shorter than a message, so one matched word weighs more: the bar is a little higher. */
export const PART_MIN_CONFIDENCE = 0.4;

const QUESTION_WORD =
  "(?:what|whats|what's|when|where|wheres|how|hows|why|who|which|do|does|did|can|could|is|are|will|would|should|may|any|and|also|plus)";
const SPLIT = new RegExp(
  `[?!;]+|\\.(?:\\s+|$)|,\\s*(?=${QUESTION_WORD}\\b)|\\s+(?:and|also|plus|&)\\s+(?=(?:also\\s+)?${QUESTION_WORD}\\b)|\\s+(?:and also|also)\\s+`,
  "i",
);

export interface QuestionPart {
  /** The words of the part as typed. */
  text: string;
  /** What is searched: the part, or for "how much is it?" the part plus the one before it. */
  searchText: string;
}

/**
 * The parts of a message, in order. A part without a topic of its own ("and how much is it?")
 * borrows the previous part's words; a part without any question is dropped.
 */
export function splitQuestions(message: string): QuestionPart[] {
  const parts: QuestionPart[] = [];
  for (const raw of message.split(SPLIT)) {
    const text = raw.trim();
    if (!text) continue;
    const previous = parts[parts.length - 1];
    const words = meaningfulWords(text);
    const aspect = questionAspect(text);
    if (previous && aspect !== null && !hasOwnTopic(words))
      parts.push({ text, searchText: `${text} ${previous.text}` });
    else if (words.length > 0) parts.push({ text, searchText: text });
  }
  return parts;
}

/**
 * Where SPLIT could begin a cut with a piece after it. SPLIT takes every ?, ! and ;, so no piece
 * holds one: a second piece needs one of these before the message's closing run of them.
 */
const MAYBE_CUT = /[?!;,]|\.\s|\s(?:and|also|plus|&)\s/i;
const CLOSING_RUN = /[?!;\s]+$/;

/**
 * The message certainly has no second piece to cut off, so splitQuestions would make at most
 * one part of it; false when it may have one (splitQuestions decides).
 */
export function isOnePiece(message: string): boolean {
  return !MAYBE_CUT.test(message.replace(CLOSING_RUN, ""));
}

export interface PartAnswers {
  /** Distinct entries answered, in the order asked. */
  matches: FaqMatch[];
  /** Parts that looked like questions but that no entry covers ("do you accept walk-ins?"). */
  unanswered: string[];
}

/**
 * Answers for each part of the message. `whole` is the best match for the whole message:
 * when parts give fewer than two answers, the whole message decides (it has more context).
 */
export function answerParts(
  faq: readonly FaqEntry[],
  message: string,
  whole: FaqMatch | null,
  threshold: number,
): PartAnswers {
  const wholeMatches = whole && whole.confidence >= threshold ? [whole] : [];
  // Most messages are one piece, and are not split: without a second part, the whole message decides.
  const parts = isOnePiece(message) ? [] : splitQuestions(message);
  if (parts.length < 2) return { matches: wholeMatches, unanswered: [] };
  const matches: FaqMatch[] = [];
  const unanswered: string[] = [];
  for (const part of parts) {
    const aspect = questionAspect(part.text);
    // "…how much to diagnose and how long does it take": an answer already given may hold the duration.
    if (part.searchText !== part.text && aspect && matches.some((known) => answerHasAspect(known.entry, aspect)))
      continue;
    const match = bestForPart(faq, part, threshold, matches);
    const repeated = match !== null && matches.some((known) => known.entry.id === match.entry.id);
    if (match && match.confidence >= Math.max(threshold, PART_MIN_CONFIDENCE) && !repeated) {
      matches.push(match);
    } else if (isQuestionPart(part.text) && !(repeated && match?.unknownWords === 0)) {
      // Weak, or only the entry already answered plus words no entry knows ("walk-ins"): not covered.
      unanswered.push(part.text);
    }
  }
  if (matches.length >= 2) return { matches: matches.slice(0, MAX_ANSWERS), unanswered };
  // The part that found the whole message's entry knows which unknown words belong to that question.
  const wholeMatch = wholeMatches[0];
  const fromPart = wholeMatch && matches.find((match) => match.entry.id === wholeMatch.entry.id);
  const single =
    wholeMatch && fromPart
      ? { ...wholeMatch, unknownTerms: fromPart.unknownTerms, matchedWords: fromPart.matchedWords }
      : (wholeMatch ?? matches[0]);
  return { matches: single ? [single] : [], unanswered: single ? unanswered : [] };
}

/**
 * "can i pay for braces in installments?" matches the braces entry and the financing entry
 * equally: a single answer gets its equal runner-up beside it rather than one picked by rank alone.
 */
export function withEqualRunnerUp(faq: readonly FaqEntry[], message: string, answers: PartAnswers): PartAnswers {
  const only = answers.matches.length === 1 ? answers.matches[0] : undefined;
  if (!only || only.confidence >= 1) return answers;
  const [best, runnerUp] = searchFaq(faq, message, 2);
  if (!runnerUp || best?.entry.id !== only.entry.id || runnerUp.confidence !== only.confidence) return answers;
  return { ...answers, matches: [only, runnerUp] };
}

/**
 * "…oil change and how long will it take?": the borrowed topic finds the oil-change entry again,
 * which holds no duration; the part alone ("how long will it take") then finds the entry that does.
 */
function bestForPart(
  faq: readonly FaqEntry[],
  part: QuestionPart,
  threshold: number,
  answered: readonly FaqMatch[],
): FaqMatch | null {
  const match = findBestFaqForQuestion(faq, part.searchText, threshold, part.text);
  const aspect = part.searchText === part.text ? null : questionAspect(part.text);
  if (!aspect) return match;
  const isNew = match !== null && !answered.some((known) => known.entry.id === match.entry.id);
  if (isNew && match.confidence >= PART_MIN_CONFIDENCE && answerHasAspect(match.entry, aspect)) return match;
  const own = findBestFaqForQuestion(faq, part.text, threshold);
  const ownFits =
    own !== null && own.confidence >= Math.max(threshold, PART_MIN_CONFIDENCE) && answerHasAspect(own.entry, aspect);
  return ownFits && own.confidence > (match?.confidence ?? 0) ? own : match;
}

/** A real question of its own: a question word and two topic words ("do you accept walk-ins"), not "is it possible to ask something". */
function isQuestionPart(part: string): boolean {
  return new RegExp(`^${QUESTION_WORD}\\b`, "i").test(part) && meaningfulWords(part).length >= 2;
}

/** The least sure answer decides how sure the whole reply is. */
export function answersConfidence(matches: readonly FaqMatch[]): number {
  return matches.reduce((lowest, match) => Math.min(lowest, match.confidence), 1);
}
