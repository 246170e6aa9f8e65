import * as chrono from "chrono-node";
import type { BotConfig } from "./bot-config.ts";
import type { Lang } from "./language.ts";
import { addCalendarDays, epochFromWallClock, offsetMinutesAt, wallClockAt } from "./timezone.ts";

import { findTimeWindow, type TimeWindow } from "./time-window.ts";

export { checkSlot, proposeSlots, type SlotCheck, type SlotCheckInput, type SlotRefusal } from "./appointment-slots.ts";
export type { TimeWindow } from "./time-window.ts";

/** A date/time the visitor asked for, read in the tenant's time zone. */
export interface AppointmentRequest {
  /** The requested start; for a day without a time, that day at the time chrono implies. */
  startMs: number;
  /** false for "tomorrow" or "next Monday": the caller offers that day's free times. */
  hasTime: boolean;
  /** false for a bare time ("8am"): the day was implied, so a day under discussion may replace it. */
  hasDate: boolean;
  /** The words that were read as the date, e.g. "tomorrow at 3pm". */
  matchedText: string;
  /** "afternoon", "after 5", "before 10": the part of the day the offered times must fall in. */
  window?: TimeWindow | null;
}

/**
 * Words without which a message cannot hold a date; chrono costs far more than this test and
 * most chat messages are not about dates. A loose net: false positives only cost a parse.
 */
const DATE_HINT =
  /\d|\b(?:today|tonight|tomorrow|tmrw?|yesterday|noon|midday|morning|afternoon|evening|weekend|next|this|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|lunch|arvo|after (?:work|school))/i;
/** The same for Portuguese and Spanish: "amanhã", "sexta", "mañana", "miércoles", "tarde". */
const DATE_HINT_PT_ES =
  /\d|(?<!\p{L})(?:hoje|amanh[ãa]|manh[ãa]|tarde|noite|semana|pr[óo]xim[oa]|segunda|ter[çc]a|quarta|quinta|sexta|s[áa]bado|domingo|hoy|ma[ñn]ana|noche|lunes|martes|mi[ée]rcoles|jueves|viernes)/iu;
/** "15h", "15h30": how Brazilians write a time; chrono's Portuguese parser wants "15:00". */
const HOUR_H = /(?<![\p{L}\d])(\d{1,2})h(\d{2})?(?![\p{L}\d])/gu;
const PARSERS: Record<Exclude<Lang, "en">, chrono.Chrono> = { pt: chrono.pt.casual, es: chrono.es.casual };

/**
 * The first date/time chrono reads, in the visitor's language. A Portuguese or Spanish message is
 * also read in English and the longer reading wins: the slot buttons ("Tue, Jan 20, 12:00 PM")
 * are English in every language, and "mañana a las 3" means nothing to the English parser.
 */
function readDate(text: string, reference: chrono.ParsingReference, lang: Lang): chrono.ParsedResult | undefined {
  const usable = (results: chrono.ParsedResult[]) =>
    results.find((candidate) => !isBareNow(candidate) && !isPeriodOnly(candidate));
  const english = usable(chrono.parse(text, reference, { forwardDate: true }));
  if (lang === "en") return english;
  const local = usable(
    PARSERS[lang].parse(
      text.replace(HOUR_H, (_, hour: string, minute?: string) => `${hour}:${minute ?? "00"}`),
      reference,
      { forwardDate: true },
    ),
  );
  if (!english) return local;
  return local && local.text.length > english.text.length ? local : english;
}

/** Phone numbers and e-mails are stripped first: chrono reads "0412 345 678" as a time of day. */
const PHONE_LIKE = /\+?\d[\d\s().-]{5,}\d/g;
const EMAIL_LIKE = /\S+@\S+/g;
/** Hours a business never means when a visitor says "at 3": they mean 3 pm. */
const AFTERNOON_GUESS_HOURS = { from: 1, to: 7 } as const;

/**
 * Reads the first date/time in `message` relative to `nowMs`, as wall-clock time in the
 * tenant's zone. chrono gets the zone's offset *at nowMs* only to know which day "tomorrow"
 * is; the components it returns (year, month, day, hour, minute) are then converted with the
 * offset in force *on that day*, so "3pm" on a date after a DST change is still 15:00 local.
 * An explicit zone in the text ("3pm PST") wins over the tenant's zone.
 */
export function parseAppointmentRequest(
  message: string,
  config: BotConfig,
  nowMs: number,
  lang: Lang = "en",
): AppointmentRequest | null {
  const text = (message.includes("@") ? message.replace(EMAIL_LIKE, " ") : message).replace(PHONE_LIKE, " ");
  if (!DATE_HINT.test(text) && !(lang !== "en" && DATE_HINT_PT_ES.test(text))) return null;
  const window = findTimeWindow(text);
  const timeZone = config.appointments.timezone;
  const reference = { instant: new Date(nowMs), timezone: offsetMinutesAt(nowMs, timeZone) };
  // "after 5" is a window, not a 5 o'clock appointment: chrono only sees the rest.
  const dateText = window ? text.replace(window.text, " ") : text;
  const result = readDate(dateText, reference, lang);
  if (!result)
    return window ? { startMs: nowMs, hasTime: false, hasDate: false, matchedText: window.text, window } : null;

  const start = result.start;
  // "thursday afternoon" implies 3 pm to chrono; to a visitor it is a window, not a time.
  const hasTime = start.isCertain("hour") && !(window && !/\d|noon|midday|meio-dia|mediod[íi]a/i.test(result.text));
  const hasDate = start.isCertain("day") || start.isCertain("weekday");
  const tags = start.tags();
  if (start.isCertain("timezoneOffset") && !tags.has("result/relativeDateAndTime")) {
    return { startMs: start.date().getTime(), hasTime, hasDate, matchedText: result.text, window };
  }

  let wall = {
    year: start.get("year") ?? 0,
    month: start.get("month") ?? 1,
    day: start.get("day") ?? 1,
    hour: start.get("hour") ?? 0,
    minute: start.get("minute") ?? 0,
  };
  if (
    hasTime &&
    !start.isCertain("meridiem") &&
    wall.hour >= AFTERNOON_GUESS_HOURS.from &&
    wall.hour <= AFTERNOON_GUESS_HOURS.to
  ) {
    wall = { ...wall, hour: wall.hour + 12 };
    // chrono may have pushed a bare "at 3" to tomorrow because 03:00 today had passed;
    // 15:00 today may not have, so the day is chosen again for the corrected hour.
    if (!start.isCertain("day") && !start.isCertain("weekday"))
      wall = { ...wall, ...nextOccurrenceDate(wall, nowMs, timeZone) };
  }
  return { startMs: epochFromWallClock(wall, timeZone), hasTime, hasDate, matchedText: result.text, window };
}

/** "this afternoon" alone is read by findTimeWindow; chrono would make it a time today. */
function isPeriodOnly(result: chrono.ParsedResult): boolean {
  return /^(?:this |the |in the )?(?:morning|afternoon|evening|night|tonight)$|^(?:[àa] |de |pela |por la |en la )?(?:manh[ãa]|tarde|noite|noche)$/i.test(
    result.text.trim(),
  );
}

/** "now" and "right now" are urgency, not a date: "I need help now" is not a booking. */
function isBareNow(result: chrono.ParsedResult): boolean {
  return /^(?:right\s+)?now$/i.test(result.text.trim());
}

function nextOccurrenceDate(
  wall: { hour: number; minute: number },
  nowMs: number,
  timeZone: string,
): { year: number; month: number; day: number } {
  const { year, month, day } = wallClockAt(nowMs, timeZone);
  const today = { year, month, day };
  const todayAt = epochFromWallClock({ ...today, hour: wall.hour, minute: wall.minute }, timeZone);
  return todayAt > nowMs ? today : addCalendarDays(today, 1);
}
