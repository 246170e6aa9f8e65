// Crockford base32: sortable as plain strings, no ambiguous letters.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

export const ID_PREFIXES = [
  "ten", "usr", "bot", "ses", "msg", "lead", "apt", "rule", "evt", "wh", "dlq", "key", "rtf", "att",
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

function encodeTime(ms: number): string {
  let out = "";
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function randomPart(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const byte of bytes) out += ALPHABET[byte & 31];
  return out;
}

/**
 * `ten_01k…`: a prefix naming the kind, 10 characters of millisecond time (so ids sort by
 * creation) and 16 random characters (80 bits, so ids cannot be guessed or enumerated).
 */
export function newId(prefix: IdPrefix, nowMs: number): string {
  return `${prefix}_${encodeTime(nowMs)}${randomPart(16)}`;
}
