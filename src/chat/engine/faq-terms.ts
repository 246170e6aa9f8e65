import MiniSearch from "minisearch";
import { APPOINTMENT_INTENT_PHRASES, LEAD_INTENT_PHRASES } from "./intents.ts";

/**
 * The word handling of the FAQ search: stop words, plurals, a light stemmer and the test of
 * whether a document term is what a visitor's word matched (exactly, by prefix or by typo).
 */

/**
 * Words that carry no topic, including the generic verbs of a question ("do you take …",
 * "can I get …"). Dropping them keeps "what are your …" from matching every question and
 * keeps them from diluting the coverage of the words that do matter.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been can could did do does for from get got have has how i i'd i'm if in is it it's me " +
    "my of on or our please should so tell that the there this to us we what what's when which who will with " +
    "would you your yours about any just know like need want much many hi hello hey thanks thank also really some " +
    "was were whether wondering question ask info information take see make give go offer provide yes no ok okay sure " +
    "am im there's where's here let possible able help whats hows wheres whens whos u ur pls plz thx " +
    // Portuguese and Spanish: articles, pronouns, question words, courtesy — never a topic.
    "o os as um uma uns umas de do da dos das em no na nos nas por para com sem que qual quais quanto quanta quantos " +
    "quantas quando onde como se você voce vocês voces eu meu minha seu sua nós tem têm ter há pode podem posso " +
    "gostaria queria quero preciso saber sobre oi olá ola bom boa obrigado obrigada favor isso esse essa este esta " +
    "tudo bem sim não nao muito mais também tambem ainda já ja lá aqui aí é está estão são fazem faz ao aos às " +
    "el la los las un unos unas del en con sin qué cuál cual cuáles cuánto cuanto cuánta cuanta cuándo cuando dónde " +
    "donde cómo es son usted ustedes tú tu yo mi mis su sus nosotros tienen tiene hay hacen hace puedo pueden puede " +
    "quiero quisiera necesito hola buenos buenas gracias esto eso sí si muy más ya allí me te le lo y"
  ).split(" "),
);

/**
 * Words that say what a business does or is ("do you accept …", "work on cars", "teeth")
 * without naming the thing asked about. Matching one of them alone is no answer: "do you
 * accept medicaid?" is about Medicaid, not about whatever entry says "accepting".
 */
export const GENERIC_TOPIC_WORDS: ReadonlySet<string> = new Set(
  (
    "accept accepting accepted work working handle treat serve support carry car vehicle auto automobile " +
    "tooth teeth dental dentist clinic office practice hair salon shop garage place business company " +
    "aceitam aceita aceitar trabalham trabalha atendem atende carro carros veiculo veículo dente dentes clinica clínica " +
    "aceptan acepta aceptar trabajan trabaja atienden atiende coche coches auto autos vehiculo vehículo diente dientes"
  ).split(" "),
);

const FUZZY_FRACTION = 0.2;
/** Longest first: "cancellation" loses "ation", not just "n". */
const SUFFIXES = ["ations", "ation", "ings", "ing", "ions", "ion", "ed", "es", "e"] as const;
const MIN_STEM_LENGTH = 4;

export const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

/** normalizeTerm's answers: the words of FAQs and messages repeat, the Unicode regex is the cost. */
const NORMALIZED_TERMS = new Map<string, string | null>();
const MAX_NORMALIZED_TERMS = 20_000;

/** Lower case without edge punctuation, plural "s" dropped; null for a stop word or a single letter. */
export function normalizeTerm(term: string): string | null {
  let normalized = NORMALIZED_TERMS.get(term);
  if (normalized === undefined) {
    normalized = normalizeTermUncached(term);
    if (NORMALIZED_TERMS.size >= MAX_NORMALIZED_TERMS) NORMALIZED_TERMS.clear();
    NORMALIZED_TERMS.set(term, normalized);
  }
  return normalized;
}

function normalizeTermUncached(term: string): string | null {
  const lower = term.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
  if (lower.length < 2 || STOP_WORDS.has(lower)) return null;
  if (lower.length > 3 && lower.endsWith("s") && !lower.endsWith("ss")) return lower.slice(0, -1);
  return lower;
}

/** "cancelling", "cancelled", "cancellation" -> "cancell"; "financing", "finance" -> "financ". */
export function stem(term: string): string {
  for (const suffix of SUFFIXES) {
    if (term.endsWith(suffix) && term.length - suffix.length >= MIN_STEM_LENGTH) return term.slice(0, -suffix.length);
  }
  return term;
}

/** The forms a word is indexed and searched under: itself and, when different, its stem. */
export function termForms(term: string): string[] {
  const normalized = normalizeTerm(term);
  if (normalized === null) return [];
  const stemmed = stem(normalized);
  return stemmed === normalized ? [normalized] : [normalized, stemmed];
}

/** The message's meaningful words, each with its forms, deduplicated. */
export function meaningfulWords(message: string): string[][] {
  const seen = new Set<string>();
  const words: string[][] = [];
  for (const token of tokenize(message)) {
    const forms = termForms(token);
    const key = forms[0];
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    words.push(forms);
  }
  return words;
}

/** Lower-cased words of a phrase, plurals dropped but stop words kept ("how much"). */
export function phraseWords(phrase: string): string[] {
  return tokenize(phrase)
    .map((token) => token.toLowerCase())
    .filter((token) => token.length > 0)
    .map((token) => (token.length > 3 && token.endsWith("s") && !token.endsWith("ss") ? token.slice(0, -1) : token));
}

/** Prefix search applies to words over three letters, typo tolerance to words over four. */
export function allowsPrefix(term: string): boolean {
  return term.length > 3;
}

export function fuzzyFraction(term: string): number | false {
  return term.length > 4 ? FUZZY_FRACTION : false;
}

/** Whether document term `docTerm` is what query form `queryTerm` matched: exactly, by prefix or typo ("inexact"), or not. */
export function termMatch(queryTerm: string, docTerm: string): "exact" | "inexact" | null {
  if (docTerm === queryTerm) return "exact";
  if (allowsPrefix(queryTerm) && docTerm.startsWith(queryTerm)) return "inexact";
  if (queryTerm.length <= 4) return null;
  return editDistanceAtMost(queryTerm, docTerm, Math.round(queryTerm.length * FUZZY_FRACTION)) ? "inexact" : null;
}

/** Levenshtein distance ≤ max, with an early exit once every path exceeds it. */
export function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return false;
    previous = current;
  }
  return (previous[b.length] ?? max + 1) <= max;
}

/**
 * Booking and buying words. The engine acts on them, so they are never "unknown" to the
 * search even when no FAQ entry uses them: "can I book a cleaning?" is as much about booking
 * as about cleaning and must not read as a confident cleaning question.
 */
export const ACTION_TERMS: ReadonlySet<string> = new Set(
  [...APPOINTMENT_INTENT_PHRASES, ...LEAD_INTENT_PHRASES].flatMap((phrase) => tokenize(phrase).flatMap(termForms)),
);
