import { AppError } from "./app-error.ts";

/**
 * JSON from outside (request bodies, inbound hooks, a model provider's answers, a model's tool
 * arguments) is parsed only after one linear pass has checked how deeply it nests and how many
 * arrays and objects it holds. The parser itself copes with depth, but everything that walks the
 * value afterwards — schema validation, the messages it builds, `JSON.stringify` with
 * indentation — costs time or stack in proportion to the depth, and a 40 KB body of `[[[[…` once
 * stalled the server for seconds; a body of many small containers costs the parser itself.
 */

/** Deeper than any body Parley accepts (its deepest, a bot config, nests five levels). */
export const MAX_JSON_DEPTH = 32;

/**
 * Arrays and objects in one text. A bot config with its 200 FAQ entries holds about a thousand;
 * 64 KiB of `[[]]` holds 30,000, which take JSON.parse alone 1.3 ms to build.
 */
export const MAX_JSON_CONTAINERS = 4096;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export interface JsonShape {
  /** The deepest nesting of arrays and objects. */
  depth: number;
  /** How many arrays and objects. */
  containers: number;
}

/**
 * The shape of a JSON text, read in one pass over its UTF-16 code units with no allocation
 * (constant time per character); brackets inside strings do not count. The pass stops as soon
 * as either count passes its limit, so that count is then `limit + 1`.
 */
export function jsonShape(text: string, limits: Partial<JsonShape> = {}): JsonShape {
  const maxDepth = limits.depth ?? Number.POSITIVE_INFINITY;
  const maxContainers = limits.containers ?? Number.POSITIVE_INFINITY;
  let depth = 0;
  let deepest = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++containers > maxContainers) break;
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > maxDepth) break;
      }
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return { depth: deepest, containers };
}

/** Thrown by `parseJsonText` for text past a shape limit; callers answer it like a syntax error. */
export class JsonTooComplexError extends SyntaxError {
  constructor(readonly reason: string) {
    super(`JSON ${reason}`);
    this.name = "JsonTooComplexError";
  }
}

/** What a text past the limits is told, or null when it is within them. */
export function jsonShapeProblem(
  text: string,
  limits: JsonShape = { depth: MAX_JSON_DEPTH, containers: MAX_JSON_CONTAINERS },
): string | null {
  const shape = jsonShape(text, limits);
  if (shape.depth > limits.depth) return `nests arrays or objects deeper than ${limits.depth} levels`;
  if (shape.containers > limits.containers) return `holds more than ${limits.containers} arrays and objects`;
  return null;
}

/** `JSON.parse` for text from outside: refuses text past the shape limits before parsing it. */
export function parseJsonText(text: string, limits?: JsonShape): unknown {
  const problem = jsonShapeProblem(text, limits);
  if (problem !== null) throw new JsonTooComplexError(problem);
  return JSON.parse(text);
}

/** A request body's JSON (a route's, or a hook's re-read of its signed bytes): any refusal is 400 invalid_json. */
export function parseRequestJson(text: string): unknown {
  try {
    return parseJsonText(text);
  } catch (error) {
    const reason = error instanceof JsonTooComplexError ? error.reason : "is not valid JSON";
    throw new AppError("invalid_json", 400, `The request body ${reason}.`);
  }
}
