import { stem } from "../chat/faq-terms.ts";

/**
 * The words the knowledge index keeps. The FAQ matcher's stop list also drops question verbs
 * ("offer", "take", "need"), which suits matching short questions to short questions but
 * loses topics in documents ("Making an offer"). BM25's IDF already discounts words that are
 * everywhere, so only function words are dropped here.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have how i i'd i'm if in into is it it's its " +
    "me my of on or our please should so than that the their them then there these they this those to too us was we were " +
    "what when where which who whom why will with would you your yours hi hello hey thanks thank"
  ).split(" "),
);

/** Lower case without edge punctuation, plural "s" dropped, plus its stem; none for a stop word. */
export function knowledgeTermForms(term: string): string[] {
  const lower = term.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
  if (lower.length < 2 || STOP_WORDS.has(lower)) return [];
  const singular = lower.length > 3 && lower.endsWith("s") && !lower.endsWith("ss") ? lower.slice(0, -1) : lower;
  const stemmed = stem(singular);
  return stemmed === singular ? [singular] : [singular, stemmed];
}
