import type { BotConfig } from "./bot-config.ts";
import { BEAUTY_SALON_TEMPLATE } from "./templates/beauty-salon.ts";
import { CAR_SERVICE_TEMPLATE } from "./templates/car-service.ts";
import { DENTAL_CLINIC_TEMPLATE } from "./templates/dental-clinic.ts";
import { GENERAL_TEMPLATE } from "./templates/general.ts";
import { REAL_ESTATE_TEMPLATE } from "./templates/real-estate.ts";

/**
 * Ready-made configurations a tenant starts from (`parley tenant create --sector S`). Each is
 * a complete BotConfig: the owner edits it through PATCH /chatbot/config instead of writing
 * one from nothing.
 */
export const SECTOR_TEMPLATES = deepFreeze({
  "dental-clinic": DENTAL_CLINIC_TEMPLATE,
  "real-estate": REAL_ESTATE_TEMPLATE,
  "beauty-salon": BEAUTY_SALON_TEMPLATE,
  "car-service": CAR_SERVICE_TEMPLATE,
  general: GENERAL_TEMPLATE,
} as const satisfies Record<string, BotConfig>);

export type SectorSlug = keyof typeof SECTOR_TEMPLATES;

export const SECTOR_SLUGS = Object.keys(SECTOR_TEMPLATES) as SectorSlug[];

export function isSectorSlug(slug: string): slug is SectorSlug {
  return Object.hasOwn(SECTOR_TEMPLATES, slug);
}

/**
 * A deep copy of the sector's template, so a caller that edits it never changes the shared
 * table. Unknown slugs get the general template with their own slug kept in `sector`: a
 * tenant created with a custom sector still gets a working bot.
 */
export function configForSector(slug: string): BotConfig {
  if (isSectorSlug(slug)) return structuredClone(SECTOR_TEMPLATES[slug]);
  return { ...structuredClone(GENERAL_TEMPLATE), sector: slug };
}

/** Frozen so a caller that forgets configForSector and edits a template gets an error, not a silent cross-tenant change. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
