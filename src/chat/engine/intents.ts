import { rememberLast } from "../../lib/remember-last.ts";
import type { BotConfig } from "./bot-config.ts";

/**
 * Keyword intents. Messages and phrases are compared in one normal form (lower case, words
 * separated by single spaces, padded) so a phrase only matches whole words: "book" matches
 * "Can I book?" but not "Facebook", and "agent" does not match "agents'" by accident.
 */

/** " can i book a visit " — the form every phrase test runs against. */
export function normalizeForMatching(text: string): string {
  const words = text
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/[^\p{L}\p{N}'@.+-]+/gu, " ")
    .replace(/(?<![\p{L}\p{N}])['.+-]+|['.+-]+(?![\p{L}\p{N}])/gu, " ")
    .trim()
    .replace(/\s+/g, " ");
  return ` ${words} `;
}

/** A phrase in the padded forms a message is searched for: " call me " and " call mes ". */
interface PhraseNeedle {
  exact: string;
  plural: string;
}

/**
 * Keyword lists are few and reused on every message: each phrase is normalized and padded
 * once, so a match builds no string per phrase per call.
 */
const NORMALIZED_PHRASES = new Map<string, PhraseNeedle | null>();
const MAX_CACHED_PHRASES = 10_000;

function phraseNeedle(phrase: string): PhraseNeedle | null {
  let needle = NORMALIZED_PHRASES.get(phrase);
  if (needle === undefined) {
    const words = normalizeForMatching(phrase).trim();
    needle = words ? { exact: ` ${words} `, plural: ` ${words}s ` } : null;
    if (NORMALIZED_PHRASES.size >= MAX_CACHED_PHRASES) NORMALIZED_PHRASES.clear();
    NORMALIZED_PHRASES.set(phrase, needle);
  }
  return needle;
}

/** Whole-word phrase match; a trailing "s" on the last word is allowed ("viewings"). */
export function containsPhrase(normalizedMessage: string, phrase: string): boolean {
  const needle = phraseNeedle(phrase);
  if (!needle) return false;
  return normalizedMessage.includes(needle.exact) || normalizedMessage.includes(needle.plural);
}

/**
 * Each phrase list indexed once by the first word of its phrases (the built-in lists, and a
 * cached config's keyword arrays, which callers never mutate). A message is tested against
 * ~100 phrases per turn, nearly all absent: the index looks up the message's few words instead,
 * and only phrases starting with one of them get the `includes` check.
 */
interface IndexedNeedle extends PhraseNeedle {
  phrase: string;
  /** Position in the list: the first phrase of the list that matches wins, as a scan would find it. */
  order: number;
}

const LIST_INDEXES = new WeakMap<readonly string[], Map<string, IndexedNeedle[]>>();

function indexOf(phrases: readonly string[]): Map<string, IndexedNeedle[]> {
  let index = LIST_INDEXES.get(phrases);
  if (!index) {
    index = new Map();
    for (const [order, phrase] of phrases.entries()) {
      const needle = phraseNeedle(phrase);
      if (!needle) continue;
      // " call me " → "call"; a one-word phrase's plural ("books") is found by its stripped form.
      const firstWord = needle.exact.slice(1, needle.exact.indexOf(" ", 1));
      const entries = index.get(firstWord) ?? [];
      entries.push({ ...needle, phrase, order });
      index.set(firstWord, entries);
    }
    LIST_INDEXES.set(phrases, index);
  }
  return index;
}

/**
 * The words of the texts asked about lately (a turn asks about its message, its question parts
 * and the topic), each also without a trailing "s": findPhrase runs several lists per text.
 */
const RECENT_WORDS = new Map<string, string[]>();
const MAX_RECENT_TEXTS = 16;

function wordsOf(normalizedMessage: string): string[] {
  let words = RECENT_WORDS.get(normalizedMessage);
  if (!words) {
    const unique = new Set<string>();
    for (const word of normalizedMessage.split(" ")) {
      if (!word) continue;
      unique.add(word);
      if (word.length > 1 && word.endsWith("s")) unique.add(word.slice(0, -1));
    }
    words = [...unique];
    if (RECENT_WORDS.size >= MAX_RECENT_TEXTS) RECENT_WORDS.clear();
    RECENT_WORDS.set(normalizedMessage, words);
  }
  return words;
}

export function findPhrase(normalizedMessage: string, phrases: readonly string[]): string | null {
  const index = indexOf(phrases);
  let found: IndexedNeedle | null = null;
  for (const word of wordsOf(normalizedMessage)) {
    const candidates = index.get(word);
    if (!candidates) continue;
    for (const needle of candidates) {
      if (found !== null && needle.order >= found.order) break;
      if (normalizedMessage.includes(needle.exact) || normalizedMessage.includes(needle.plural)) found = needle;
    }
  }
  return found?.phrase ?? null;
}

/** Buying signals in any sector; the tenant adds its own in `lead.intent_keywords`. */
// biome-ignore format: a phrase list reads as a paragraph per language; one phrase a line would triple the file
export const LEAD_INTENT_PHRASES = [
  "price", "pricing", "quote", "quotation", "cost", "how much", "estimate", "call me", "call me back",
  "contact me", "get in touch", "reach me", "interested", "buy", "buying", "purchase", "rent", "renting",
  "lease", "sign up", "sales",
  "preço", "preco", "orçamento", "orcamento", "quanto custa", "quanto fica", "me liguem", "me ligue", "interessado",
  "interessada", "precio", "presupuesto", "cotización", "cotizacion", "cuánto cuesta", "cuanto cuesta", "llámenme",
  "llamenme", "interesado", "interesada",
] as const;

/** "I want to come in" in any sector; the tenant adds its own in `appointments.intent_keywords`. */
// biome-ignore format: a phrase list reads as a paragraph per language; one phrase a line would triple the file
export const APPOINTMENT_INTENT_PHRASES = [
  "book", "booking", "appointment", "schedule", "visit", "viewing", "reserve", "reservation",
  "slot", "availability", "available times", "make an appointment", "book in", "come in", "bring it in",
  "fit me in", "get me in", "squeeze me in",
  "agendar", "marcar", "agendamento", "marcar consulta", "marcar horário", "reservar", "cita", "una cita", "pedir cita",
  "turno", "hora marcada",
] as const;

/**
 * Changing or cancelling an existing booking is not a new booking: the bot cannot see the
 * calendar's owner, so these go to the FAQ (cancellation policy) or a person instead.
 */
const CHANGE_BOOKING =
  /\b(?:cancel|cancell?ing|reschedul\w*|postpone)\b|(?<!\p{L})(?:cancelar|desmarcar|remarcar|reagendar|anular|reprogramar)(?!\p{L})/iu;

const GREETING = /^(?:hi|hii+|hello|hey|hiya|howdy|yo|greetings|good (?:morning|afternoon|evening|day))\b/i;
const GREETING_FILLER = /\b(?:hi|hello|hey|hiya|there|good|morning|afternoon|evening|day|all|team|bot|assistant)\b/gi;
const THANKS = /\b(?:thanks|thank you|thank u|thx|ty|cheers|much appreciated)\b/i;
const GOODBYE =
  /\b(?:bye|goodbye|good bye|see you|see ya|that's all|that is all|nothing else|have a good (?:day|one))\b/i;
const AFFIRMATIVE =
  /^(?:yes|yeah|yea|yep|yup|sure|ok|okay|confirm|confirmed|correct|right|perfect|great|sounds good|please do|go ahead|book it|do it|that works|works for me|absolutely|definitely|y)\b/i;
const NEGATIVE =
  /^(?:no|nope|nah|not really|n)\b|\b(?:another time|other time|different time|pick another|don't book|do not book)\b/i;
const CANCEL_FLOW =
  /\b(?:cancel|never ?mind|forget it|stop|not now|no thanks|no thank you|don't want|do not want|skip)\b/i;
const QUESTION_START =
  /^(?:(?:hi|hey|hello|ok|so|and|also|sorry|quick question)[\s,!.:]+)*(?:what|whats|what's|when|where|wheres|where's|how|hows|how's|why|who|which|do|does|did|can|could|is|are|will|would|should|may|any)\b/i;

/** The same small talk in Portuguese and Spanish; JavaScript's \b does not see "á" as a letter, hence the look-arounds. */
const END = "(?![\\p{L}\\p{N}])";
const GREETING_PT_ES = new RegExp(
  `^(?:oi|olá|ola|hola|buenas|bom dia|boa tarde|boa noite|buenos d[ií]as|buenas tardes|buenas noches|e a[ií]|alô|alo)${END}`,
  "iu",
);
const GREETING_FILLER_PT_ES =
  /(?<!\p{L})(?:oi|olá|ola|hola|buenas|buenos|bom|boa|dia|días|dias|tarde|tardes|noite|noches|tudo|bem|qué|que|tal|como|vai|pessoal|gente|equipe|equipo)(?!\p{L})/giu;
const THANKS_PT_ES = new RegExp(
  `(?<!\\p{L})(?:obrigad[oa]|brigad[oa]|valeu|agrade[çc]o|gracias|agradecid[oa])${END}`,
  "iu",
);
const GOODBYE_PT_ES = new RegExp(
  `(?<!\\p{L})(?:tchau|até logo|até mais|até breve|adeus|adiós|adios|hasta luego|hasta pronto|chao|chau|nos vemos)${END}`,
  "iu",
);
const AFFIRMATIVE_PT_ES = new RegExp(
  `^(?:sim|claro|pode ser|pode sim|pode|isso|certo|perfeito|beleza|fechado|ótimo|otimo|combinado|sí|si|vale|dale|de acuerdo|perfecto|correcto|por supuesto|bueno)${END}`,
  "iu",
);
const NEGATIVE_PT_ES = new RegExp(
  `^(?:não|nao)${END}|(?<!\\p{L})(?:outro horário|outro horario|outro dia|outra hora|otra hora|otro día|otro dia|otro horario)${END}`,
  "iu",
);
const CANCEL_FLOW_PT_ES = new RegExp(
  `(?<!\\p{L})(?:deixa pra lá|deixa para lá|esquece|não quero|nao quero|agora não|déjalo|dejalo|olvídalo|olvidalo|no quiero|ahora no)${END}`,
  "iu",
);
const DISMISSAL_PT_ES = new RegExp(
  `^(?:não|nao|nada|só isso|so isso|nada más|nada mas|eso es todo|no gracias|não obrigad[oa])${END}`,
  "iu",
);
const QUESTION_START_PT_ES = new RegExp(
  `^(?:(?:oi|olá|ola|hola|buenas|e|y|bom dia|boa tarde|buenos días)[\\s,!.:]+)*(?:quanto|quanta|quantos|quantas|qual|quais|quando|onde|como|vocês|voces|você|voce|tem|têm|aceitam|fazem|faz|pode|podem|posso|há|cuánto|cuanto|cuánta|cuanta|cuál|cual|cuáles|cuándo|cuando|dónde|donde|cómo|tienen|tiene|aceptan|hacen|hace|puedo|pueden|hay)${END}`,
  "iu",
);

export function detectLeadIntent(normalizedMessage: string, config: BotConfig): string | null {
  return (
    findPhrase(normalizedMessage, LEAD_INTENT_PHRASES) ?? findPhrase(normalizedMessage, config.lead.intent_keywords)
  );
}

export function detectAppointmentIntent(message: string, normalizedMessage: string, config: BotConfig): boolean {
  // "move my appointment" is a change; "book an oil change" is a booking.
  if (CHANGE_BOOKING.test(message) || isAppointmentChange(message)) return false;
  return (
    findPhrase(normalizedMessage, APPOINTMENT_INTENT_PHRASES) !== null ||
    findPhrase(normalizedMessage, config.appointments.intent_keywords) !== null
  );
}

/** Only a greeting: "hi there!" yes, "hi, how much is a cleaning?" no (that is a question). */
export function isPureGreeting(message: string): boolean {
  if (GREETING.test(message)) return message.replace(GREETING_FILLER, " ").replace(/[^\p{L}]+/gu, "").length === 0;
  if (!GREETING_PT_ES.test(message)) return false;
  return message.replace(GREETING_FILLER_PT_ES, " ").replace(/[^\p{L}]+/gu, "").length === 0;
}

/** Short thanks or goodbye only; a long message, or a question, that says "thanks" at the end is about something else. */
export function isThanks(message: string): boolean {
  return (
    (THANKS.test(message) || THANKS_PT_ES.test(message)) && message.split(/\s+/).length <= 6 && !/[?¿]/.test(message)
  );
}

export function isGoodbye(message: string): boolean {
  return (GOODBYE.test(message) || GOODBYE_PT_ES.test(message)) && message.split(/\s+/).length <= 8;
}

const DISMISSAL =
  /^(?:no|nope|nah|never ?mind|nvm|forget it|no thanks|no thank you|nothing|that'?s it|that'?s all|all good|not now|not really)\b/i;

/** "never mind", "no thanks", "nothing": outside any flow, a polite close rather than a question. */
export function isDismissal(message: string): boolean {
  return (
    (DISMISSAL.test(message.trim()) || DISMISSAL_PT_ES.test(message.trim())) && message.trim().split(/\s+/).length <= 4
  );
}

export function isAffirmative(message: string): boolean {
  return AFFIRMATIVE.test(message.trim()) || AFFIRMATIVE_PT_ES.test(message.trim());
}

export function isNegative(message: string): boolean {
  return NEGATIVE.test(message.trim()) || NEGATIVE_PT_ES.test(message.trim());
}

/**
 * "I need to cancel my appointment on friday", "can we move my viewing?", "I can't make it
 * tomorrow": about a booking the visitor already has. Never a new booking, and never "stop
 * this form" — the bot explains how to change it or offers a person.
 */
const APPOINTMENT_CHANGE_PT_ES =
  /(?<!\p{L})(?:cancelar|desmarcar|remarcar|reagendar|mudar|trocar|adiar|cambiar|mover|anular|aplazar|reprogramar)(?!\p{L})[^.?!]{0,40}(?<!\p{L})(?:consulta|horário|horario|agendamento|cita|reserva|turno|hora)(?!\p{L})|(?<!\p{L})(?:não vou poder ir|nao vou poder ir|no puedo ir|no podré ir|no podre ir)(?!\p{L})/iu;
const APPOINTMENT_CHANGE =
  /\b(?:cancel|cancell?ing|cancell?ed|reschedul\w*|postpone|move|moving|change|changing|rearrange|push back|bring forward)\b[^.?!]{0,40}\b(?:appointments?|appt|bookings?|booked|viewings?|services?|slots?|visits?|reservations?|session|check-?ups?|cleaning)\b|\bcan'?t make (?:it|my)\b|\bcannot make (?:it|my)\b/i;

/** "can I book …", "I'd like to book …", "book me in": a request, even when worded as a question. */
const EXPLICIT_BOOKING =
  /\b(?:can|could|may) (?:i|we) (?:please )?(?:book|schedule|make an appointment|get an appointment)|\b(?:i'?d|i would|i want|i wanna|want|like|need) to (?:book|schedule)\b|\bbook me\b|\bbook (?:in|an?) /i;

const EXPLICIT_BOOKING_PT_ES =
  /(?<!\p{L})(?:quero|queria|gostaria de|posso|podemos|preciso|quiero|quisiera|puedo|podemos|necesito) (?:agendar|marcar|reservar|pedir (?:una )?cita|una cita)(?!\p{L})|(?<!\p{L})me (?:agenda|marca|reserva)(?!\p{L})/iu;

export function isExplicitBookingRequest(message: string): boolean {
  return EXPLICIT_BOOKING.test(message) || EXPLICIT_BOOKING_PT_ES.test(message);
}

/** Asked twice a turn: by the booking-intent test, then for the turn itself. */
export const isAppointmentChange = rememberLast(
  (message) => APPOINTMENT_CHANGE.test(message) || APPOINTMENT_CHANGE_PT_ES.test(message),
);

export function wantsToStopFlow(message: string): boolean {
  if (isAppointmentChange(message)) return false;
  return (
    CANCEL_FLOW.test(message) ||
    CANCEL_FLOW_PT_ES.test(message) ||
    /^(?:no|nope|nah|não|nao)(?![\p{L}])/iu.test(message.trim())
  );
}

export function looksLikeQuestion(message: string): boolean {
  return /[?¿]/.test(message) || QUESTION_START.test(message.trim()) || QUESTION_START_PT_ES.test(message.trim());
}
