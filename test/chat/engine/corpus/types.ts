import type { EngineAction } from "../../../../src/chat/engine/engine.ts";
import type { Lang } from "../../../../src/chat/engine/language.ts";
import { SECTOR_TEMPLATES, type SectorSlug } from "../../../../src/chat/engine/sector-templates.ts";

/**
 * The conversation corpus: how visitors really write (typos, lower case, two questions in one
 * message, questions in the middle of a form), and what a business owner expects back. Each
 * turn names the intent it exercises, so bench/chat-quality.ts can report pass rates per
 * sector and per intent.
 */

export type CorpusIntent =
  | "faq"
  | "multi-question"
  | "mid-form-question"
  | "urgent"
  | "lead"
  | "contact-correction"
  | "booking"
  | "time-window"
  | "appointment-change"
  | "duration"
  | "small-talk"
  | "handoff"
  | "no-answer"
  | "follow-up";

export interface CorpusTurn {
  say: string;
  intent: CorpusIntent;
  /** Every one must appear in the reply text (strings case-sensitive, as the bot writes them). */
  has?: ReadonlyArray<string | RegExp>;
  /** None may appear in the reply text. */
  lacks?: ReadonlyArray<string | RegExp>;
  /** Exactly these action types, in order, this turn (omit to not check). */
  actions?: ReadonlyArray<EngineAction["type"]>;
  /** A quick reply that must be offered. */
  quick?: string;
}

/** Thursday 15 January 2026 at 10:00 in New York: the dental clinic is open, a hand-off promises a person. */
export const CLINIC_OPEN_MS = Date.UTC(2026, 0, 15, 15, 0);

export interface CorpusConversation {
  name: string;
  sector: SectorSlug;
  /** The languages the bot offers (the template's when absent). */
  languages?: Lang[];
  /** When it happens (epoch ms); CORPUS_NOW_MS, Thursday 09:00 UTC, when absent. */
  at?: number;
  turns: readonly CorpusTurn[];
}

/** The start of an FAQ answer of a sector template: proof the *right* entry answered. */
export function answer(sector: SectorSlug, id: string): string {
  const entry = SECTOR_TEMPLATES[sector].faq.find((candidate) => candidate.id === id);
  if (!entry) throw new Error(`corpus: no FAQ entry ${sector}/${id}`);
  return entry.answer.slice(0, 40);
}

export const ASKS_NAME = "Could I get your name";
export const ASKS_PHONE = "phone number to reach you";
export const ASKS_EMAIL = "your e-mail address?";
export const STILL_NEED = /still need/;
export const FALLBACK = /not sure I understood/;
export const PERSON_OFFERED = "Would you like a member of our team to reply here right now?";
