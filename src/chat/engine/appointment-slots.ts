import type { BotConfig } from "./bot-config.ts";
import { clockToMinutes } from "./config-fields.ts";
import { isInWindow, type TimeWindow } from "./time-window.ts";
import { addCalendarDays, epochFromWallClock, wallClockAt, weekdayOfDate } from "./timezone.ts";

/**
 * Whether a start time can be booked, and which nearby times can. Slots are aligned to each
 * day's opening time (09:00, 09:30, … for 30-minute slots) in the tenant's zone, and the whole
 * slot must end by closing time.
 */

export type SlotRefusal = "past" | "too_soon" | "closed" | "taken" | "too_far" | "misaligned";
export type SlotCheck = { ok: true } | { ok: false; reason: SlotRefusal };

export interface SlotCheckInput {
  startMs: number;
  config: BotConfig;
  nowMs: number;
  /** Starts of appointments already booked; each occupies one slot length. */
  takenStarts: readonly number[];
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** How far past the requested day proposals look: a month of full days means "call us" instead. */
const PROPOSAL_SCAN_DAYS = 31;

/** Checks run cheapest and most fundamental first, so the reason given is the one to fix first. */
export function checkSlot(input: SlotCheckInput): SlotCheck {
  const { startMs, config, nowMs, takenStarts } = input;
  const settings = config.appointments;
  const slotMs = settings.slot_minutes * MINUTE_MS;
  if (startMs < nowMs) return { ok: false, reason: "past" };
  if (startMs < nowMs + settings.lead_time_minutes * MINUTE_MS) return { ok: false, reason: "too_soon" };
  if (startMs > nowMs + settings.max_days_ahead * DAY_MS) return { ok: false, reason: "too_far" };

  const wall = wallClockAt(startMs, settings.timezone);
  const hours = settings.business_hours[wall.weekday];
  if (!hours) return { ok: false, reason: "closed" };
  const startMinute = wall.hour * 60 + wall.minute;
  const openMinute = clockToMinutes(hours.open);
  if (startMinute < openMinute || startMinute + settings.slot_minutes > clockToMinutes(hours.close)) {
    return { ok: false, reason: "closed" };
  }
  if (startMs % MINUTE_MS !== 0 || (startMinute - openMinute) % settings.slot_minutes !== 0) {
    return { ok: false, reason: "misaligned" };
  }
  // Overlap rather than equality: a taken 10:00 slot also blocks a 10:15 start.
  if (takenStarts.some((taken) => Math.abs(taken - startMs) < slotMs)) return { ok: false, reason: "taken" };
  return { ok: true };
}

/**
 * Up to `count` bookable starts nearest to `fromMs` (earlier ones too: for a 7 pm request
 * after closing, 4:30 pm the same day is a better offer than next week), in time order.
 * Scans from the day before `fromMs` to PROPOSAL_SCAN_DAYS after it and stops as soon as
 * `count` free slots at or after `fromMs` are known, since nothing later can be nearer.
 * A `window` ("afternoon", "after 5") keeps only starts in that part of each day.
 */
export function proposeSlots(
  fromMs: number,
  config: BotConfig,
  nowMs: number,
  takenStarts: readonly number[],
  count = 3,
  window: TimeWindow | null = null,
): number[] {
  const settings = config.appointments;
  const earliestMs = nowMs + settings.lead_time_minutes * MINUTE_MS;
  // A request beyond the booking horizon gets the last bookable days, not nothing.
  fromMs = Math.min(fromMs, nowMs + settings.max_days_ahead * DAY_MS);
  const scanFromMs = Math.max(earliestMs, fromMs - DAY_MS);
  const scanUntilMs = Math.min(
    nowMs + settings.max_days_ahead * DAY_MS,
    Math.max(fromMs, earliestMs) + PROPOSAL_SCAN_DAYS * DAY_MS,
  );
  const firstDate = wallClockAt(scanFromMs, settings.timezone);
  const slotMs = settings.slot_minutes * MINUTE_MS;
  const candidates: number[] = [];
  let atOrAfter = 0;

  for (let offset = 0; atOrAfter < count; offset += 1) {
    const date = addCalendarDays(firstDate, offset);
    const dayStartMs = epochFromWallClock({ ...date, hour: 0, minute: 0 }, settings.timezone);
    if (dayStartMs > scanUntilMs) break;
    const hours = settings.business_hours[weekdayOfDate(date)];
    if (!hours) continue;
    const startOfDay = dayStartWithOffset(date, dayStartMs, settings.timezone);
    const closeMinute = clockToMinutes(hours.close);
    for (
      let minute = clockToMinutes(hours.open);
      minute + settings.slot_minutes <= closeMinute;
      minute += settings.slot_minutes
    ) {
      if (!isInWindow(minute, window)) continue;
      const startMs =
        startOfDay.fixedOffsetMs !== null
          ? startOfDay.fixedOffsetMs + minute * MINUTE_MS
          : epochFromWallClock({ ...date, hour: Math.floor(minute / 60), minute: minute % 60 }, settings.timezone);
      if (startMs < scanFromMs || startMs > scanUntilMs) continue;
      // Opening hours and alignment hold by construction on a day without a clock change,
      // so only time and overlap are checked; a clock-change day gets the full check.
      const free =
        startOfDay.fixedOffsetMs !== null
          ? startMs >= earliestMs && !takenStarts.some((taken) => Math.abs(taken - startMs) < slotMs)
          : checkSlot({ startMs, config, nowMs, takenStarts }).ok;
      if (!free) continue;
      candidates.push(startMs);
      if (startMs >= fromMs) atOrAfter += 1;
    }
  }

  return candidates
    .sort((a, b) => Math.abs(a - fromMs) - Math.abs(b - fromMs) || a - b)
    .slice(0, count)
    .sort((a, b) => a - b);
}

/**
 * Wall-clock midnight of `date` as an instant, usable as "midnight + minutes" for every slot
 * when the zone's offset is the same at both ends of the day; null on a clock-change day.
 */
function dayStartWithOffset(
  date: { year: number; month: number; day: number },
  dayStartMs: number,
  timeZone: string,
): { fixedOffsetMs: number | null } {
  const nextDayStartMs = epochFromWallClock({ ...addCalendarDays(date, 1), hour: 0, minute: 0 }, timeZone);
  return { fixedOffsetMs: nextDayStartMs - dayStartMs === DAY_MS ? dayStartMs : null };
}
