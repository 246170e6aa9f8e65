import { findPhoneNumbersInText, validatePhoneNumberLength, type CountryCode } from "libphonenumber-js/max";
import { isKnownTld, normalizeEmailAddress, normalizePhoneNumber } from "./contact-validation.ts";
import { extractName, type NameFinding } from "./extract-name.ts";

/**
 * Picks contact details out of any message, asked for or not, and reports what looked like
 * an attempt but failed, so the bot can say *why* it asks again. libphonenumber's "max"
 * metadata is used on purpose: the "min" build only checks lengths, and a lead with a
 * number nobody can dial is worse than no lead.
 */

export type ContactField = "name" | "phone" | "email";

export type PhoneProblem = "too_short" | "too_long" | "invalid_country" | "invalid";
export type EmailProblem = "missing_at" | "missing_domain" | "unknown_tld" | "invalid";

export type InvalidContactAttempt =
  | { field: "phone"; text: string; problem: PhoneProblem }
  | { field: "email"; text: string; problem: EmailProblem };

export interface ContactFindings {
  name: NameFinding | null;
  /** E.164, valid for its country. */
  phone: string | null;
  /** Lower-cased. */
  email: string | null;
  invalid: InvalidContactAttempt[];
}

export interface ExtractContactOptions {
  /** ISO-3166 alpha-2 country for numbers written without +country code. */
  defaultCountry: string;
  /** What the bot asked for last: makes bare answers ("Ana", "12345", "ana.example.com") count. */
  expecting?: ContactField | null;
}

const TOKEN_EDGE_PUNCTUATION = /^[("'<[]+|[)"'>\],;:!?.]+$/g;
/** A run of digits with phone separators; dates and times are filtered out afterwards. */
const PHONE_CANDIDATE = /\+?\(?\d[\d\s().-]*\d/g;
const DATE_LIKE = /^\d{4}-\d{1,2}-\d{1,2}$|^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/;
/** Fewer digits than this in an unprompted message is a price, a time or a house number. */
const MIN_UNPROMPTED_PHONE_DIGITS = 7;
const MIN_PROMPTED_PHONE_DIGITS = 3;
const SPOKEN_EMAIL = /\b\S+\s+at\s+\S+\s+dot\s+\S+/i;

const PHONE_PROBLEM_BY_LENGTH_RESULT: Record<string, PhoneProblem> = {
  TOO_SHORT: "too_short",
  TOO_LONG: "too_long",
  INVALID_COUNTRY: "invalid_country",
  INVALID_LENGTH: "invalid",
  NOT_A_NUMBER: "invalid",
};

function tokensOf(message: string): string[] {
  return message
    .split(/\s+/)
    .map((token) => token.replace(TOKEN_EDGE_PUNCTUATION, ""))
    .filter((token) => token.length > 0);
}

function emailProblemOf(token: string): EmailProblem {
  const domain = token.slice(token.lastIndexOf("@") + 1);
  if (!domain.includes(".")) return "missing_domain";
  const tld = domain.slice(domain.lastIndexOf(".") + 1);
  return /^[a-z]{2,63}$/i.test(tld) && !isKnownTld(tld) ? "unknown_tld" : "invalid";
}

function findEmail(
  message: string,
  expecting: boolean,
): { email: string | null; invalid: InvalidContactAttempt[]; raw: string[] } {
  // Without an "@" nothing below finds anything unless an address was asked for.
  if (!expecting && !message.includes("@")) return { email: null, invalid: [], raw: [] };
  const invalid: InvalidContactAttempt[] = [];
  const raw: string[] = [];
  let email: string | null = null;
  for (const token of tokensOf(message)) {
    if (!token.includes("@")) continue;
    raw.push(token);
    const normalized = normalizeEmailAddress(token);
    if (normalized) {
      email ??= normalized;
    } else {
      invalid.push({ field: "email", text: token, problem: emailProblemOf(token) });
    }
  }
  if (!email && invalid.length === 0 && expecting) {
    // "ana.example.com" or "ana at example dot com": plainly meant as an address.
    const withoutAt = tokensOf(message).find((token) => /^[^\s@]+\.[a-z]{2,}$/i.test(token));
    const spoken = SPOKEN_EMAIL.exec(message)?.[0];
    const attempt = withoutAt ?? spoken;
    if (attempt) invalid.push({ field: "email", text: attempt, problem: "missing_at" });
  }
  return { email, invalid, raw };
}

function findPhone(
  text: string,
  country: CountryCode,
  expecting: boolean,
): { phone: string | null; invalid: InvalidContactAttempt[]; raw: string[] } {
  const raw: string[] = [];
  for (const found of findPhoneNumbersInText(text, country)) {
    if (found.number.isValid()) {
      raw.push(text.slice(found.startsAt, found.endsAt));
      return { phone: found.number.number, invalid: [], raw };
    }
  }
  const invalid: InvalidContactAttempt[] = [];
  const minDigits = expecting ? MIN_PROMPTED_PHONE_DIGITS : MIN_UNPROMPTED_PHONE_DIGITS;
  for (const match of text.matchAll(PHONE_CANDIDATE)) {
    const candidate = match[0].trim();
    const digits = candidate.replace(/\D/g, "");
    if (digits.length < minDigits || DATE_LIKE.test(candidate)) continue;
    raw.push(candidate);
    // findPhoneNumbersInText is conservative about spacing; a direct parse catches the rest.
    const phone = normalizePhoneNumber(candidate, country);
    if (phone) return { phone, invalid: [], raw };
    const lengthResult = validatePhoneNumberLength(candidate, country);
    invalid.push({
      field: "phone",
      text: candidate,
      problem: (lengthResult && PHONE_PROBLEM_BY_LENGTH_RESULT[lengthResult]) ?? "invalid",
    });
  }
  return { phone: null, invalid, raw };
}

/** Everything contact-like in `message`. Pure; the caller decides what to keep. */
export function extractContact(message: string, options: ExtractContactOptions): ContactFindings {
  const country = options.defaultCountry as CountryCode;
  const emailPart = findEmail(message, options.expecting === "email");
  let rest = message;
  for (const token of emailPart.raw) rest = rest.replace(token, " ");
  const phonePart = /\d/.test(rest)
    ? findPhone(rest, country, options.expecting === "phone")
    : { phone: null, invalid: [], raw: [] };
  for (const token of phonePart.raw) rest = rest.replace(token, " ");

  const carriedContact = emailPart.email !== null || phonePart.phone !== null;
  const name = extractName(message, rest, options.expecting === "name" || carriedContact);
  return {
    name,
    phone: phonePart.phone,
    email: emailPart.email,
    invalid: [...phonePart.invalid, ...emailPart.invalid],
  };
}
