import { rememberLast } from "../../lib/remember-last.ts";
import type { FaqEntry } from "./bot-config.ts";
import { searchFaq, type FaqMatch } from "./faq-search.ts";

/**
 * What a question asks *about* a topic: "how long does a cleaning take?" wants a duration,
 * "how much is a cleaning?" a price. Word overlap alone sees "cleaning" in both and returns
 * whichever entry says "cleaning" most; this picks, among the close candidates, the entry
 * whose answer actually holds a duration (or a price).
 */

export type QuestionAspect = "duration" | "price";

const ASKS_DURATION =
  /\bhow long\b|\bduration\b|\bhow many (?:minutes|hours|mins)\b|\btakes? (?:long|ages)\b|\bhow quick(?:ly)?\b/i;
const ASKS_PRICE = /\bhow much\b|\bprices?\b|\bpricing\b|\bcosts?\b|\bfees?\b|\bcharge\b|\brates?\b/i;
const HAS_DURATION =
  /\b\d+(?:\s*(?:–|-|to)\s*\d+)?\s*(?:minutes?|mins?|hours?|hrs?|working days|days?|weeks?)\b|\b(?:an|one|half an) hour\b|\btakes? about\b/i;
const HAS_PRICE = /[$£€]\s?\d|\d\s?(?:dollars|pounds|euros)\b|\d(?:\.\d+)?%/i;
/** A candidate this far below the best still counts as "close": the aspect, not a word, decides. */
const MAX_CONFIDENCE_GAP = 0.35;

/** Words that only say *what about* a topic ("how long", "price"), not which topic. */
const ASPECT_WORDS: ReadonlySet<string> = new Set([
  "long",
  "quick",
  "quickly",
  "price",
  "pric",
  "cost",
  "fee",
  "charge",
  "rate",
  "duration",
  "again",
]);

/** Whether a message names a topic of its own: "how long does it take?" does not. */
export function hasOwnTopic(words: readonly string[][]): boolean {
  return words.some((forms) => !forms.some((form) => ASPECT_WORDS.has(form)));
}

/** What a question asks about the topic, if anything; asked twice a turn (its topic, then its search). */
export const questionAspect = rememberLast((message): QuestionAspect | null =>
  ASKS_DURATION.test(message) ? "duration" : ASKS_PRICE.test(message) ? "price" : null,
);

export function answerHasAspect(entry: FaqEntry, aspect: QuestionAspect): boolean {
  return (aspect === "duration" ? HAS_DURATION : HAS_PRICE).test(entry.answer);
}

/**
 * The best FAQ entry for `message`, preferring one whose answer has what the question asks
 * for (read from `aspectText`, the message itself unless a follow-up borrowed its topic). A
 * candidate must still be a real match (at least `minConfidence`).
 */
export function findBestFaqForQuestion(
  faq: readonly FaqEntry[],
  message: string,
  minConfidence: number,
  aspectText = message,
): FaqMatch | null {
  const aspect = questionAspect(aspectText);
  if (aspect === null) return searchFaq(faq, message, 1)[0] ?? null;
  const candidates = searchFaq(faq, message, 4);
  const best = candidates[0];
  if (!best || answerHasAspect(best.entry, aspect)) return best ?? null;
  const fitting = candidates.find(
    (candidate) =>
      answerHasAspect(candidate.entry, aspect) &&
      candidate.confidence >= minConfidence &&
      candidate.confidence >= best.confidence - MAX_CONFIDENCE_GAP,
  );
  return fitting ?? best;
}
