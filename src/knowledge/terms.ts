import { stem } from "../chat/engine/faq-terms.ts";

/**
 * The words the knowledge index keeps. The FAQ matcher's stop list also drops question verbs
 * ("offer", "take", "need"), which suits matching short questions to short questions but
 * loses topics in documents ("Making an offer"). BM25's IDF already discounts words that are
 * everywhere, so only function words and a question's filler words are dropped here, in the
 * three languages visitors write in: a filler word absent from the documents would otherwise
 * weigh as much as the topic in the relevance gate (relevance.ts).
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  // English
  (
    "a an and are as at be been but by can could did do does for from had has have how i i'd i'm if in into is it it's its " +
    "me my of on or our please should so than that the their them then there these they this those to too us was we were " +
    "what when where which who whom why will with would you your yours hi hello hey thanks thank " +
    "much many about any just know like want tell also really some whether wondering question ask im whats hows u ur pls plz " +
    "go goes going get gets getting happen happens " +
    // the frame of a yes/no question ("do you accept X?"): X is the topic, and a document's
    // "we accept cards" must not answer "do you accept medicaid?"
    "accept accepts aceita aceitam aceitar acepta aceptan aceptar " +
    // Portuguese
    "o os as um uma uns umas de do da dos das no na nos nas em ao aos para pra por pelo pela com sem que se e ou mas eu voce " +
    "voces vc vcs meu minha seu sua nosso nossa ele ela eles elas isso isto esse essa este esta aqui ai qual quais quem como " +
    "quando onde porque e ja tem ter tenho sao estou esta oi ola obrigado obrigada favor gostaria queria saber pode podem " +
    "posso vou ate mais muito muita quanto quanta quantos quantas devo deve fazer " +
    // Spanish
    "el la los las un una unos unas del al en con sin por para que y o pero yo usted ustedes tu mi mis su sus nuestro nuestra " +
    "es son esta estan este esto eso ese hay como cuando donde porque cual cuales quien tienen tiene tengo hola gracias " +
    "quiero quisiera puedo puede pueden me te le lo muy mas hasta cuanto cuanta cuantos cuantas debo debe hacer"
  ).split(" "),
);

/** Lower case, accents folded ("cuánto" = "cuanto", as visitors type either), no edge punctuation. */
function foldTerm(term: string): string {
  return term
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
}

/** Term forms already computed: documents and questions repeat their words, the Unicode regexes are the cost. */
const FORMS = new Map<string, string[]>();
const MAX_CACHED_FORMS = 50_000;

/** Folded, plural "s" dropped, plus its stem; none for a stop word. */
export function knowledgeTermForms(term: string): string[] {
  let forms = FORMS.get(term);
  if (forms === undefined) {
    forms = termFormsUncached(term);
    if (FORMS.size >= MAX_CACHED_FORMS) FORMS.clear();
    FORMS.set(term, forms);
  }
  return forms;
}

function termFormsUncached(term: string): string[] {
  const lower = foldTerm(term);
  if (lower.length < 2 || STOP_WORDS.has(lower)) return [];
  const singular = lower.length > 3 && lower.endsWith("s") && !lower.endsWith("ss") ? lower.slice(0, -1) : lower;
  const stemmed = stem(singular);
  return stemmed === singular ? [singular] : [singular, stemmed];
}

const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;
const HYPHENATED = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu;

/**
 * The index's tokenizer: words split at spaces and punctuation, and a hyphenated word also
 * kept whole without its hyphens, so "check-up" is found by "checkup" and "x-ray" by "xray".
 */
export function tokenizeKnowledge(text: string): string[] {
  const words = text.split(SPACE_OR_PUNCTUATION).filter((word) => word !== "");
  const joined = text.match(HYPHENATED) ?? [];
  return [...words, ...joined.map((word) => word.replaceAll("-", ""))];
}
