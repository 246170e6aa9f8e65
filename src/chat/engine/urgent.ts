import type { BotConfig, FaqEntry } from "./bot-config.ts";
import { findPhrase } from "./intents.ts";
import type { Lang } from "./language.ts";

/**
 * "Urgent means urgent": pain, swelling, a breakdown, a burst pipe… reach the business's urgent
 * answer and the offer of a person at once, in any mode, before any form or booking step. A
 * visitor in pain is never asked for their name first.
 *
 * Signals are phrases, matched as whole words on the normalized message:
 * - every sector: "emergency", "urgent", "asap", "as soon as possible", "accident";
 * - per sector (by `config.sector`): the symptoms its customers describe. A tenant with a
 *   custom sector gets the common list plus every sector's symptoms that are not ambiguous.
 * "today", "now" and "tonight" add urgency only beside a signal: "are you open today?" is not
 * urgent, "it's really swollen, can someone see me today" is.
 */

/** "right away", "immediately", "please help" are left out: "a quote right away" is not an emergency. */
// biome-ignore format: a phrase list reads as a paragraph per language; one phrase a line would triple the file
const COMMON_SIGNALS = [
  "emergency", "emergencies", "urgent", "urgently", "asap", "as soon as possible", "accident",
  "urgente", "urgência", "urgencia", "emergência", "emergencia", "socorro", "acidente", "accidente",
  "o mais rápido possível", "lo antes posible", "cuanto antes",
] as const;

// biome-ignore format: a phrase list reads as a paragraph per language; one phrase a line would triple the file
const SECTOR_SIGNALS: Readonly<Record<string, readonly string[]>> = {
  "dental-clinic": [
    "pain", "in pain", "toothache", "tooth ache", "killing me", "hurts", "hurting", "really hurts", "throbbing",
    "swollen", "swelling", "bleeding", "bleeds", "abscess", "broke my tooth", "broken tooth", "chipped my tooth",
    "cracked tooth", "cracked my tooth", "knocked out", "lost a filling", "filling fell out", "crown fell off",
    "crown came off", "can't sleep", "cant sleep", "infection", "infected", "face is swollen", "knocked",
    "tooth out", "tooth fell out", "tooth came out",
    "dor", "dói", "doi", "doendo", "com dor", "inchado", "inchada", "inchaço", "sangrando", "abscesso", "dente quebrado",
    "quebrei o dente", "infecção", "infeccao", "não consigo dormir", "dolor", "me duele", "duele", "hinchado", "hinchada",
    "hinchazón", "sangra", "absceso", "diente roto", "se me rompió", "infección", "no puedo dormir",
  ],
  "car-service": [
    "broke down", "broken down", "breakdown", "won't start", "wont start", "doesn't start", "not starting", "crash",
    "crashed", "smoke", "smoking", "overheating", "overheated", "stranded", "stuck on the", "tow", "towing",
    "brakes failed", "no brakes", "brakes gone", "flat tire", "flat tyre", "blowout", "leaking fuel", "smell of fuel",
    "flashing", "warning light flashing",
    "quebrou", "quebrado", "pifou", "enguiçou", "não liga", "nao liga", "não pega", "nao pega", "guincho", "reboque",
    "pane", "bati o carro", "fumaça", "superaquecendo", "pneu furado", "sem freio", "se averió", "averiado", "avería",
    "no arranca", "grúa", "grua", "remolque", "choqué", "humo", "me quedé tirado", "pinchazo", "sin frenos",
  ],
  "real-estate": [
    "burst pipe", "burst", "leak", "leaking", "flood", "flooded", "flooding", "no heating", "no hot water",
    "boiler broke", "boiler broken", "boiler is broken", "boiler's broken", "boiler has broken", "boiler not working",
    "broken boiler", "heating is broken", "heating not working", "no heat", "freezing", "gas smell", "smell gas", "smell of gas", "locked out",
    "break-in", "broken into", "burgled", "no power", "no electricity", "water coming through", "ceiling collapsed",
  ],
  "beauty-salon": [
    "having a reaction", "had a reaction", "bad reaction", "allergic reaction to", "reacting", "rash", "burning",
    "burns", "burnt", "blister", "blisters", "swollen", "swelling", "infected", "infection", "itchy", "stinging",
    "bleeding", "eye is swollen", "eyes are swollen",
    "reação", "reacao", "reação alérgica", "irritação", "irritacao", "ardendo", "queimando", "queimadura", "inchado",
    "inchada", "coceira", "reacción", "reaccion", "reacción alérgica", "irritación", "ardor", "me arde", "quemadura",
    "hinchado", "hinchada", "picazón", "picor",
  ],
};

/** Symptoms that mean urgency in any business, for a custom sector. */
// biome-ignore format: a phrase list reads as a paragraph per language; one phrase a line would triple the file
const GENERIC_SIGNALS = ["in pain", "bleeding", "swollen", "burst pipe", "broke down", "broken down", "flooding", "locked out", "gas smell", "smell gas", "allergic reaction to"] as const;

const ASKS_ABOUT_SYMPTOM = /^ (?:does|do|will|would|is|are|can|could|should|how|é normal|es normal|causa|pode|puede) /;
const FIRST_PERSON = / (?:i|i'm|im|my|me|we|our|us|i've|ive|eu|meu|minha|estou|tô|to|tenho|mi|yo|estoy|tengo) /;

/** One list per known sector, plus the generic one: the same array every message (findPhrase keeps its needles). */
const SIGNALS = new Map<string, readonly string[]>();

export function urgentSignals(config: BotConfig): readonly string[] {
  const sector = Object.hasOwn(SECTOR_SIGNALS, config.sector) ? config.sector : "";
  let signals = SIGNALS.get(sector);
  if (!signals) {
    signals = [...COMMON_SIGNALS, ...(SECTOR_SIGNALS[sector] ?? GENERIC_SIGNALS)];
    SIGNALS.set(sector, signals);
  }
  return signals;
}

/** The phrase that makes the message urgent, or null. `normalized` is normalizeForMatching(message). */
export function detectUrgency(normalized: string, config: BotConfig): string | null {
  const signal = findPhrase(normalized, urgentSignals(config));
  if (signal === null || COMMON_SIGNALS.some((common) => common === signal)) return signal;
  // "does whitening cause pain?" asks about pain; "my tooth hurts, does it need a filling?" reports it.
  if (ASKS_ABOUT_SYMPTOM.test(normalized) && !FIRST_PERSON.test(normalized)) return null;
  return signal;
}

const URGENT_ENTRY_IDS = new Set(["emergency", "emergencies", "urgent", "breakdown", "emergency-repairs", "reaction"]);
const URGENT_KEYWORDS = new Set([
  "emergency",
  "urgent",
  "emergencies",
  "urgente",
  "emergência",
  "emergencia",
  "urgência",
  "urgencia",
]);

/**
 * The business's urgent answer: the FAQ entry whose id is "emergency" / "urgent" (or a sector
 * one such as "breakdown"), or whose keywords include "emergency" or "urgent" (or "urgente",
 * "emergência", "emergencia"), in the visitor's language when the FAQ has one. An owner adds
 * one by giving an entry the keyword "urgent".
 */
export function findUrgentEntry(
  faq: readonly FaqEntry[],
  lang: Lang = "en",
  configLanguage: Lang = "en",
): FaqEntry | null {
  const isUrgent = (entry: FaqEntry): boolean =>
    URGENT_ENTRY_IDS.has(entry.id.toLowerCase()) ||
    (entry.keywords ?? []).some((keyword) => URGENT_KEYWORDS.has(keyword.toLowerCase()));
  // The visitor's language first: a breakdown in Portuguese gets the Portuguese tow number text.
  const urgent = faq.filter(isUrgent);
  const byId = (entries: FaqEntry[]) =>
    entries.find((entry) => URGENT_ENTRY_IDS.has(entry.id.toLowerCase())) ?? entries[0] ?? null;
  return byId(urgent.filter((entry) => (entry.language ?? configLanguage) === lang)) ?? byId(urgent);
}
