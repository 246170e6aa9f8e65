// Crockford base32: sortable as plain strings, no ambiguous letters.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

export const ID_PREFIXES = [
  "ten",
  "usr",
  "bot",
  "ses",
  "msg",
  "lead",
  "apt",
  "rule",
  "evt",
  "wh",
  "dlq",
  "key",
  "rtf",
  "att",
  "doc",
  "case",
  "run",
  "unq",
  "cnr",
  "src",
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
  let out = "";
  for (const byte of crypto.getRandomValues(new Uint8Array(length))) out += ALPHABET[byte & 31];
  return out;
}

/** Adds one to a base-32 number; the random part has 80 bits, so it does not overflow in practice. */
function increment(digits: string): string {
  for (let i = digits.length - 1; i >= 0; i--) {
    const digit = ALPHABET.indexOf(digits.charAt(i));
    if (digit < 31) return digits.slice(0, i) + ALPHABET.charAt(digit + 1) + "0".repeat(digits.length - 1 - i);
  }
  return randomPart(digits.length);
}

/**
 * `ten_01k…`: a prefix naming the kind, 10 characters of millisecond time (so ids sort by
 * creation) and 16 random characters (80 bits drawn afresh each millisecond, so an id cannot
 * be guessed from the outside). Ids from one generator are strictly increasing even inside one
 * millisecond (the random part is incremented, as in monotonic ULIDs): a visitor's message and
 * the bot's reply, written in the same millisecond, must sort in the order they were written.
 * So ids made in the same millisecond are consecutive: an id is never a credential on its own
 * (every lookup by id is authenticated and scoped to its tenant).
 */
export function createIdGenerator(): (prefix: IdPrefix, nowMs: number) => string {
  let lastTime = -1;
  /** encodeTime(lastTime): the ids of one millisecond share it. */
  let lastTimeText = "";
  let lastRandom = "";
  return (prefix, nowMs) => {
    if (nowMs > lastTime) {
      lastTime = nowMs;
      lastTimeText = encodeTime(nowMs);
      lastRandom = randomPart(16);
    } else {
      lastRandom = increment(lastRandom);
    }
    return `${prefix}_${lastTimeText}${lastRandom}`;
  };
}

/** The process's id generator: every id the server makes comes from it. */
export const newId = createIdGenerator();

/**
 * The lowest id of kind `prefix` that could be created at `ms`: every id created earlier sorts
 * below it, so "created before ms" is an index range on the id (retention sweeps use it).
 */
export function idTimeBound(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${encodeTime(ms)}`;
}
