import { isSupportedCountry } from "libphonenumber-js/max";
import { invalidField } from "../../lib/validate.ts";

/**
 * Field-level checks for the bot configuration document. Each takes the dotted path of the
 * field so the 422 names exactly what to fix ("appointments.business_hours.mon.open").
 */

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, field: string): JsonObject {
  if (!isPlainObject(value)) throw invalidField(field, "must be an object");
  return value;
}

/** Unknown keys are refused rather than ignored: a typo in a PATCH must not silently do nothing. */
export function rejectUnknownKeys(object: JsonObject, allowed: readonly string[], prefix: string): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) throw invalidField(prefix ? `${prefix}.${key}` : key, "unknown key");
  }
}

export function requireString(value: unknown, field: string, minLength: number, maxLength: number): string {
  if (typeof value !== "string") throw invalidField(field, "must be a string");
  const trimmed = value.trim();
  if (trimmed.length < minLength || trimmed.length > maxLength) {
    throw invalidField(field, `must be ${minLength} to ${maxLength} characters`);
  }
  return trimmed;
}

export function requireBoolean(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") throw invalidField(field, "must be true or false");
  return value;
}

export function requireInteger(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value)) throw invalidField(field, "must be an integer");
  if (value < min || value > max) throw invalidField(field, `must be between ${min} and ${max}`);
  return value;
}

export function requireNumber(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw invalidField(field, "must be a number");
  if (value < min || value > max) throw invalidField(field, `must be between ${min} and ${max}`);
  return value;
}

/** A list of short phrases (keywords); duplicates are dropped case-insensitively. */
export function requireKeywordList(value: unknown, field: string, maxItems: number): string[] {
  if (!Array.isArray(value)) throw invalidField(field, "must be an array of strings");
  if (value.length > maxItems) throw invalidField(field, `must have at most ${maxItems} entries`);
  const seen = new Set<string>();
  const out: string[] = [];
  value.forEach((item, index) => {
    const keyword = requireString(item, `${field}[${index}]`, 1, 60);
    const key = keyword.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(keyword);
    }
  });
  return out;
}

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function requireSlug(value: unknown, field: string): string {
  const slug = requireString(value, field, 1, 50);
  if (!SLUG_PATTERN.test(slug)) throw invalidField(field, "must be a slug such as dental-clinic");
  return slug;
}

/** ISO-3166 alpha-2, upper case, and known to libphonenumber (it decides how phones parse). */
export function requireCountry(value: unknown, field: string): string {
  if (typeof value !== "string" || !/^[A-Z]{2}$/.test(value) || !isSupportedCountry(value)) {
    throw invalidField(field, "must be an ISO-3166 alpha-2 country code such as US");
  }
  return value;
}

/** Intl is the authority on IANA names: whatever it accepts, the slot maths can format. */
export function requireTimezone(value: unknown, field: string): string {
  const name = requireString(value, field, 1, 64);
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: name });
  } catch {
    throw invalidField(field, "must be an IANA time zone such as America/New_York");
  }
  return name;
}

const CLOCK_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function requireClockTime(value: unknown, field: string): string {
  if (typeof value !== "string" || !CLOCK_PATTERN.test(value))
    throw invalidField(field, "must be a time HH:MM (24-hour)");
  return value;
}

/** "09:30" -> 570. Callers validate the format first. */
export function clockToMinutes(clock: string): number {
  const [hours, minutes] = clock.split(":");
  return Number(hours) * 60 + Number(minutes);
}

/** `scheme://host[:port]` only: a path or a trailing slash would never equal a browser's Origin header. */
export function requireOrigin(value: unknown, field: string): string {
  const text = requireString(value, field, 1, 200);
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw invalidField(field, "must be an origin such as https://example.com");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw invalidField(field, "must be an http(s) origin");
  if (parsed.pathname !== "/" || parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw invalidField(field, "must be only scheme, host and port, such as https://example.com");
  }
  return parsed.origin;
}
