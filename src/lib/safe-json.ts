/**
 * JSON from outside (request bodies, inbound hooks, a model provider's answers, a model's tool
 * arguments) is parsed only after one linear pass has checked how deeply it nests. The parser
 * itself copes with depth, but everything that walks the value afterwards — schema validation,
 * the messages it builds, `JSON.stringify` with indentation — costs time or stack in proportion
 * to the depth, and a 40 KB body of `[[[[…` once stalled the server for seconds.
 */

/** Deeper than any body Parley accepts (its deepest, a bot config, nests five levels). */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of arrays and objects in a JSON text, stopping as soon as it passes
 * `limit` (so the answer is `limit + 1` for anything deeper). Brackets inside strings do not
 * count. One pass over the UTF-16 code units, no allocation: constant time per character.
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return deepest;
}

/** Thrown by `parseJsonText` for text nested past the limit; callers answer it like a syntax error. */
export class JsonTooDeepError extends SyntaxError {
  constructor(readonly limit: number) {
    super(`JSON nested deeper than ${limit} levels`);
    this.name = "JsonTooDeepError";
  }
}

/** `JSON.parse` for text from outside: refuses nesting past `limit` before parsing. */
export function parseJsonText(text: string, limit = MAX_JSON_DEPTH): unknown {
  if (jsonDepth(text, limit) > limit) throw new JsonTooDeepError(limit);
  return JSON.parse(text);
}
