/**
 * Defaults every sector template starts from. The hand-off numbers are the documented
 * defaults of BotConfig: a reply below 0.35 confidence is a miss, and two misses in a row
 * mean the visitor is better served by a person than by a third "sorry?".
 */
export const DEFAULT_LOW_CONFIDENCE_THRESHOLD = 0.35;
export const DEFAULT_MAX_LOW_CONFIDENCE_TURNS = 2;

/**
 * Phrases that almost only ever mean "let me talk to a human", in any sector. Bare words
 * that also name things ("agent" in "whitening agent", "person" in "pay in person",
 * "mechanic", "manager" in "property manager") are left to sectors where they are unambiguous.
 */
export const COMMON_HANDOFF_KEYWORDS = [
  "human",
  "real person",
  "operator",
  "talk to a person",
  "speak to a person",
  "talk to someone",
  "speak to someone",
  "live agent",
  "talk to an agent",
  "speak to an agent",
] as const;
