import { WEEKDAYS, type Weekday } from "./bot-config.ts";

/**
 * Wall-clock maths in a named IANA zone using only Intl, so the result never depends on the
 * server's own TZ. Formatters are cached per zone: building one costs far more than using it.
 */

export interface WallClock {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: Weekday;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const PARTS_FORMATTERS = new Map<string, Intl.DateTimeFormat>();
const SLOT_FORMATTERS = new Map<string, Intl.DateTimeFormat>();
const DAY_FORMATTERS = new Map<string, Intl.DateTimeFormat>();
const WEEKDAY_BY_SHORT_NAME: Record<string, Weekday> = {
  Mon: "mon",
  Tue: "tue",
  Wed: "wed",
  Thu: "thu",
  Fri: "fri",
  Sat: "sat",
  Sun: "sun",
};

function cachedFormatter(
  cache: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
  locale = "en-US",
): Intl.DateTimeFormat {
  const key = locale === "en-US" ? timeZone : `${locale} ${timeZone}`;
  let formatter = cache.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    cache.set(key, formatter);
  }
  return formatter;
}

const HOUR_MS = 3_600_000;
/** Before this, zones used offsets with seconds (local mean time): those instants always take the exact path. */
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1980, 0, 1);
/** Per zone, its offset (minutes east of UTC) at the start of each UTC hour asked about. */
const HOUR_OFFSETS = new Map<string, Map<number, number>>();
/** Past this many hours a zone's map starts again empty: memory stays bounded. */
const MAX_CACHED_HOURS = 4_096;

/**
 * The wall clock a person in `timeZone` reads at instant `epochMs`.
 *
 * `formatToParts` costs ~1 µs and a chat turn about opening hours or a booking asks for dozens of
 * wall clocks (every candidate day and slot), so most are derived from a cached offset instead:
 * a zone's offset is looked up at the start of the instant's UTC hour and of the next one, and
 * if both agree — no transition inside the hour; zones change offset a few times a year at
 * most — the wall clock is plain UTC arithmetic on the shifted instant. An hour that holds a
 * transition, and instants before 1980, are read from Intl directly.
 */
export function wallClockAt(epochMs: number, timeZone: string): WallClock {
  if (epochMs >= WHOLE_MINUTE_OFFSETS_SINCE) {
    const hour = Math.floor(epochMs / HOUR_MS);
    const offset = offsetAtHourStart(hour, timeZone);
    if (offset === offsetAtHourStart(hour + 1, timeZone)) {
      const shifted = new Date(epochMs + offset * MINUTE_MS);
      return {
        year: shifted.getUTCFullYear(),
        month: shifted.getUTCMonth() + 1,
        day: shifted.getUTCDate(),
        hour: shifted.getUTCHours(),
        minute: shifted.getUTCMinutes(),
        weekday: mondayFirst(shifted.getUTCDay()),
      };
    }
  }
  return wallClockFromIntl(epochMs, timeZone);
}

function offsetAtHourStart(hour: number, timeZone: string): number {
  let hours = HOUR_OFFSETS.get(timeZone);
  if (!hours) {
    hours = new Map();
    HOUR_OFFSETS.set(timeZone, hours);
  }
  let offset = hours.get(hour);
  if (offset === undefined) {
    const epochMs = hour * HOUR_MS;
    offset = offsetOf(wallClockFromIntl(epochMs, timeZone), epochMs);
    if (hours.size >= MAX_CACHED_HOURS) hours.clear();
    hours.set(hour, offset);
  }
  return offset;
}

/** wallClockAt read from Intl itself: exact for every instant (the cached path is checked against it). */
export function wallClockFromIntl(epochMs: number, timeZone: string): WallClock {
  const formatter = cachedFormatter(PARTS_FORMATTERS, timeZone, {
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    weekday: "short",
  });
  const fields: Record<string, string> = {};
  for (const part of formatter.formatToParts(epochMs)) fields[part.type] = part.value;
  return {
    year: Number(fields.year),
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour),
    minute: Number(fields.minute),
    weekday: WEEKDAY_BY_SHORT_NAME[fields.weekday ?? ""] ?? WEEKDAYS[0],
  };
}

/** Minutes east of UTC in `timeZone` at `epochMs` (New York in January: -300). */
export function offsetMinutesAt(epochMs: number, timeZone: string): number {
  return offsetOf(wallClockAt(epochMs, timeZone), epochMs);
}

/** Minutes east of UTC of a zone that reads `wall` at instant `epochMs`. */
function offsetOf(wall: WallClock, epochMs: number): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const flooredInstant = Math.floor(epochMs / MINUTE_MS) * MINUTE_MS;
  return Math.round((asUtc - flooredInstant) / MINUTE_MS);
}

/**
 * The instant at which `timeZone` shows the given wall-clock time. Two passes: guess with the
 * offset at the naive instant, then correct with the offset at the guess — that second look is
 * what makes "3 pm on March 9" right when the reference day was still on winter time. A time
 * that does not exist (inside a spring-forward gap) lands one hour earlier: 2:30 on the night
 * New York skips from 2:00 to 3:00 is 1:30 winter time.
 */
export function epochFromWallClock(
  wall: { year: number; month: number; day: number; hour: number; minute: number },
  timeZone: string,
): number {
  const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const firstGuess = naive - offsetMinutesAt(naive, timeZone) * MINUTE_MS;
  const secondOffset = offsetMinutesAt(firstGuess, timeZone);
  return naive - secondOffset * MINUTE_MS;
}

/** The calendar date `days` after the given one (month and year roll over). */
export function addCalendarDays(
  date: { year: number; month: number; day: number },
  days: number,
): { year: number; month: number; day: number } {
  const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day) + days * DAY_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** Monday-first weekday of a calendar date; calendar arithmetic, so no zone is involved. */
export function weekdayOfDate(date: { year: number; month: number; day: number }): Weekday {
  return mondayFirst(new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay());
}

/** Date's getUTCDay (Sunday 0) as a Monday-first Weekday. */
function mondayFirst(sundayFirstDay: number): Weekday {
  return WEEKDAYS[(sundayFirstDay + 6) % 7] ?? "mon";
}

/**
 * "Fri, Jan 16, 3:00 PM" in the tenant's zone. ICU puts narrow no-break spaces before "PM";
 * they become plain spaces because this text comes back as a quick reply the parser must read.
 */
export function formatSlot(epochMs: number, timeZone: string): string {
  const formatter = cachedFormatter(SLOT_FORMATTERS, timeZone, {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });
  return formatter.format(epochMs).replace(/[\u202f\u00a0]/g, " ");
}

/** "Monday, January 19" ("segunda-feira, 19 de janeiro" in pt-BR) in the tenant's zone, for "here is what's free that day". */
export function formatDay(epochMs: number, timeZone: string, locale = "en-US"): string {
  const formatter = cachedFormatter(
    DAY_FORMATTERS,
    timeZone,
    { weekday: "long", month: "long", day: "numeric" },
    locale,
  );
  return formatter.format(epochMs);
}

/**
 * "New York time", "London time", "UTC": the zone named the way a visitor reads it. Every time
 * the bot shows a visitor carries it, because the visitor may be elsewhere (a tourist, a
 * parent booking for a student) and "10:00 AM" alone is a guess.
 */
export function zoneLabel(timeZone: string): string {
  if (/^(?:utc|etc\/utc|gmt|etc\/gmt)$/i.test(timeZone)) return "UTC";
  const city = timeZone.split("/").pop() ?? timeZone;
  return `${city.replace(/_/g, " ")} time`;
}

/** "Tue, Dec 1, 10:00 AM (New York time)". */
export function formatSlotWithZone(epochMs: number, timeZone: string): string {
  return `${formatSlot(epochMs, timeZone)} (${zoneLabel(timeZone)})`;
}
