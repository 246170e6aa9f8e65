import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
// The IANA root-zone list, kept current by the `tlds` package; a JSON import is embedded in the binary.
import tldList from "tlds/index.json" with { type: "json" };

/**
 * The one definition of a usable e-mail address and phone number, shared by the rule engine's
 * contact extraction and the assistant's tools, so a lead is held to the same bar whichever
 * path captured it.
 */

// Label rules catch "ana@example..com" and "ana@example"; the TLD check catches "gmail.con".
const EMAIL_PATTERN =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;
const MAX_EMAIL_LENGTH = 254;
const KNOWN_TLDS: ReadonlySet<string> = new Set((tldList as string[]).map((tld) => tld.toLowerCase()));

/** True when `tld` (without the dot) is delegated in the IANA root zone. */
export function isKnownTld(tld: string): boolean {
  return KNOWN_TLDS.has(tld.toLowerCase());
}

/** A valid e-mail address, lower-cased, whose TLD is a real one (IANA list), or null. */
export function normalizeEmailAddress(text: string): string | null {
  const candidate = text.trim();
  if (candidate.length === 0 || candidate.length > MAX_EMAIL_LENGTH) return null;
  const match = EMAIL_PATTERN.exec(candidate);
  if (!match?.[1] || !isKnownTld(match[1])) return null;
  return candidate.toLowerCase();
}

/** The number in E.164 (libphonenumber-js, with the tenant's default country), or null. */
export function normalizePhoneNumber(text: string, defaultCountry: string): string | null {
  const parsed = parsePhoneNumberFromString(text.trim(), defaultCountry.toUpperCase() as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}
