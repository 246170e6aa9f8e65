import type { Phrases } from "./phrases/index.ts";

/**
 * The part of a day a visitor asks for: "thursday afternoon", "anything after 5?", "before
 * 10am", "at lunchtime". Offered times are narrowed to it, so "can we do thursday afternoon
 * instead" never gets 8:00, 8:30 and 9:00 AM. Minutes are wall-clock minutes of the day in the
 * tenant's zone; `to` is exclusive.
 */

export interface TimeWindow {
  fromMinute: number;
  toMinute: number;
  /** The words read as the window, e.g. "afternoon", "after 5". */
  text: string;
}

const DAY_END = 24 * 60;
const NAMED_PERIODS: ReadonlyArray<{ pattern: RegExp; from: number; to: number }> = [
  { pattern: /\bafter work\b/i, from: 17 * 60, to: DAY_END },
  { pattern: /\bafter school\b/i, from: 15 * 60, to: DAY_END },
  { pattern: /\bafter lunch\b/i, from: 13 * 60, to: DAY_END },
  { pattern: /\b(?:at |around |over )?lunch ?time\b|\bat lunch\b|\bover lunch\b/i, from: 11 * 60 + 30, to: 14 * 60 },
  { pattern: /\b(?:early )?mornings?\b/i, from: 0, to: 12 * 60 },
  { pattern: /\b(?:late )?afternoons?\b|\barvo\b/i, from: 12 * 60, to: 17 * 60 },
  { pattern: /\bevenings?\b|\btonight\b|\bafter hours\b/i, from: 17 * 60, to: DAY_END },
  // Portuguese and Spanish: "de manhã", "à tarde", "por la noche" (a bare "mañana" is tomorrow).
  { pattern: /(?<!\p{L})(?:de |pela |na |por la |en la )(?:manh[ãa]|ma[ñn]ana)(?!\p{L})/iu, from: 0, to: 12 * 60 },
  { pattern: /(?<!\p{L})(?:[àa] |de |pela |na |por la |en la )tarde(?!\p{L})/iu, from: 12 * 60, to: 17 * 60 },
  { pattern: /(?<!\p{L})(?:[àa] |de |pela |na |por la |en la )no(?:ite|che)(?!\p{L})/iu, from: 17 * 60, to: DAY_END },
];
/** "after 5", "after 5pm", "from 4:30", "later than 3", "depois das 17h", "después de las 5"; "before 10am", "antes das 10". */
const AFTER =
  /\b(?:after|from|later than|no earlier than|depois das|depois de|a partir das|después de las|a partir de las)\s+(\d{1,2})(?:[:h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?(?!\s*(?:days?|weeks?|months?|mins?|minutes?|hours?|%|\d))/i;
const BEFORE =
  /\b(?:before|earlier than|no later than|antes das|antes de las)\s+(\d{1,2})(?:[:h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?(?!\s*(?:days?|weeks?|months?|mins?|minutes?|hours?|%|\d))/i;

/** 1–7 without am/pm is afternoon, as for "at 3"; nobody books at 3 in the morning. */
function minuteOf(hourText: string, minuteText: string | undefined, meridiem: string | undefined): number | null {
  let hour = Number(hourText);
  const minute = minuteText ? Number(minuteText) : 0;
  if (hour > 23 || minute > 59) return null;
  const suffix = meridiem?.toLowerCase().replace(/\./g, "");
  if (suffix === "pm" && hour < 12) hour += 12;
  else if (suffix === "am" && hour === 12) hour = 0;
  else if (!suffix && hour >= 1 && hour <= 7) hour += 12;
  return hour * 60 + minute;
}

export function findTimeWindow(message: string): TimeWindow | null {
  const after = AFTER.exec(message);
  if (after?.[1]) {
    const from = minuteOf(after[1], after[2], after[3]);
    if (from !== null) return { fromMinute: from, toMinute: DAY_END, text: after[0] };
  }
  const before = BEFORE.exec(message);
  if (before?.[1]) {
    const to = minuteOf(before[1], before[2], before[3]);
    if (to !== null) return { fromMinute: 0, toMinute: to, text: before[0] };
  }
  for (const period of NAMED_PERIODS) {
    const match = period.pattern.exec(message);
    if (match) return { fromMinute: period.from, toMinute: period.to, text: match[0] };
  }
  return null;
}

export function isInWindow(minuteOfDay: number, window: TimeWindow | null | undefined): boolean {
  return !window || (minuteOfDay >= window.fromMinute && minuteOfDay < window.toMinute);
}

/** "in the afternoon", "after 5 pm": how the bot names the window back to the visitor. */
export function describeWindow(window: TimeWindow, say: Phrases["window"]): string {
  const clock = (minute: number): string => {
    const hour = Math.floor(minute / 60);
    const rest = minute % 60;
    const hour12 = hour % 12 === 0 ? 12 : hour % 12;
    return `${hour12}${rest ? `:${String(rest).padStart(2, "0")}` : ""} ${hour < 12 ? "am" : "pm"}`;
  };
  if (window.fromMinute === 0 && window.toMinute === 12 * 60) return say.morning;
  if (window.fromMinute === 12 * 60 && window.toMinute === 17 * 60) return say.afternoon;
  if (window.fromMinute === 17 * 60 && window.toMinute === DAY_END) return say.evening;
  if (window.toMinute === DAY_END) return say.after(clock(window.fromMinute));
  if (window.fromMinute === 0) return say.before(clock(window.toMinute));
  return say.between(clock(window.fromMinute), clock(window.toMinute));
}
