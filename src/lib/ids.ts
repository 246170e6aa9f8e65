// Crockford base32: sortable as plain strings, no ambiguous letters.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

export const ID_PREFIXES = [
  "ten", "usr", "bot", "ses", "msg", "lead", "apt", "rule", "evt", "wh", "dlq", "key", "rtf", "att", "doc",
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

function randomPart(length: number): number[] {
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (byte) => byte & 31);
}

let lastTime = -1;
/** encodeTime(lastTime): the ids of one millisecond share it. */
let lastTimeText = "";
let lastRandom: number[] = [];

/** Adds one to a base-32 digit array; the random part has 80 bits, so it does not overflow in practice. */
function increment(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    if ((next[i] ?? 0) < 31) {
      next[i] = (next[i] ?? 0) + 1;
      return next;
    }
    next[i] = 0;
  }
  return randomPart(digits.length);
}

/**
 * `ten_01k…`: a prefix naming the kind, 10 characters of millisecond time (so ids sort by
 * creation) and 16 random characters (80 bits, so ids cannot be guessed or enumerated).
 * Within one process ids are strictly increasing even inside one millisecond (the random part
 * is incremented, as in monotonic ULIDs): a visitor's message and the bot's reply, written in
 * the same millisecond, must sort in the order they were written.
 */
export function newId(prefix: IdPrefix, nowMs: number): string {
  if (nowMs > lastTime) {
    lastTime = nowMs;
    lastTimeText = encodeTime(nowMs);
    lastRandom = randomPart(16);
  } else {
    lastRandom = increment(lastRandom);
  }
  let random = "";
  for (const digit of lastRandom) random += ALPHABET[digit];
  return `${prefix}_${lastTimeText}${random}`;
}

/**
 * The lowest id of kind `prefix` that could be created at `ms`: every id created earlier sorts
 * below it, so "created before ms" is an index range on the id (retention sweeps use it).
 */
export function idTimeBound(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${encodeTime(ms)}`;
}
