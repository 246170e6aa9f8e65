import type { BotConfig, FaqEntry } from "./bot-config.ts";
import { findPhrase } from "./intents.ts";

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
const COMMON_SIGNALS = ["emergency", "emergencies", "urgent", "urgently", "asap", "as soon as possible", "accident"] as const;

const SECTOR_SIGNALS: Readonly<Record<string, readonly string[]>> = {
  "dental-clinic": [
    "pain", "in pain", "toothache", "tooth ache", "killing me", "hurts", "hurting", "really hurts", "throbbing",
    "swollen", "swelling", "bleeding", "bleeds", "abscess", "broke my tooth", "broken tooth", "chipped my tooth",
    "cracked tooth", "cracked my tooth", "knocked out", "lost a filling", "filling fell out", "crown fell off",
    "crown came off", "can't sleep", "cant sleep", "infection", "infected", "face is swollen", "knocked",
    "tooth out", "tooth fell out", "tooth came out",
  ],
  "car-service": [
    "broke down", "broken down", "breakdown", "won't start", "wont start", "doesn't start", "not starting", "crash",
    "crashed", "smoke", "smoking", "overheating", "overheated", "stranded", "stuck on the", "tow", "towing",
    "brakes failed", "no brakes", "brakes gone", "flat tire", "flat tyre", "blowout", "leaking fuel", "smell of fuel",
    "flashing", "warning light flashing",
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
  ],
};

/** Symptoms that mean urgency in any business, for a custom sector. */
const GENERIC_SIGNALS = ["in pain", "bleeding", "swollen", "burst pipe", "broke down", "broken down", "flooding", "locked out", "gas smell", "smell gas", "allergic reaction to"] as const;

const ASKS_ABOUT_SYMPTOM = /^ (?:does|do|will|would|is|are|can|could|should|how) /;
const FIRST_PERSON = / (?:i|i'm|im|my|me|we|our|us|i've|ive) /;

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
const URGENT_KEYWORDS = new Set(["emergency", "urgent", "emergencies"]);

/**
 * The business's urgent answer: the FAQ entry whose id is "emergency" / "urgent" (or a sector
 * one such as "breakdown"), or whose keywords include "emergency" or "urgent". An owner adds
 * one by giving an entry the keyword "urgent".
 */
export function findUrgentEntry(faq: readonly FaqEntry[]): FaqEntry | null {
  return (
    faq.find((entry) => URGENT_ENTRY_IDS.has(entry.id.toLowerCase())) ??
    faq.find((entry) => (entry.keywords ?? []).some((keyword) => URGENT_KEYWORDS.has(keyword.toLowerCase()))) ??
    null
  );
}
