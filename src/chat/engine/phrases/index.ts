import type { Lang } from "../language.ts";
import { EN } from "./en.ts";
import { ES } from "./es.ts";
import { PT } from "./pt.ts";
import type { Phrases } from "./types.ts";

export type { Phrases } from "./types.ts";

export const PHRASES: Readonly<Record<Lang, Phrases>> = { en: EN, pt: PT, es: ES };

/** The "Talk to a person" button in every language: tapped, it comes back as a message. */
export const HUMAN_QUICK_REPLIES: ReadonlySet<string> = new Set(
  Object.values(PHRASES).map((phrases) => phrases.quick.human.toLowerCase()),
);
