import type { BotConfig } from "./bot-config.ts";
import { clockToMinutes } from "./config-fields.ts";
import { addCalendarDays, epochFromWallClock, wallClockAt, weekdayOfDate } from "./timezone.ts";

export interface TeamAvailability {
  /** Whether the business is open now by its weekly hours, in its time zone: a person may answer now. */
  withinBusinessHours: boolean;
  /** When it opens next (epoch ms); null while open, or when no day of the week has hours. */
  backAt: number | null;
}

/**
 * Whether a hand-off can promise a person now, and if not when the team is back. The hours are
 * the bot config's weekly opening hours (appointments.business_hours) in its time zone; an
 * opening is inclusive and a closing exclusive (open 09:00–17:00: 16:59 is open, 17:00 is not).
 */
export function teamAvailability(config: Pick<BotConfig, "appointments">, nowMs: number): TeamAvailability {
  const { timezone, business_hours: hours } = config.appointments;
  const wall = wallClockAt(nowMs, timezone);
  const today = hours[wall.weekday];
  const minute = wall.hour * 60 + wall.minute;
  if (today && minute >= clockToMinutes(today.open) && minute < clockToMinutes(today.close))
    return { withinBusinessHours: true, backAt: null };
  // Today's opening if it is still ahead, else the first day of the next week that has hours.
  for (let ahead = 0; ahead <= 7; ahead++) {
    const date = addCalendarDays(wall, ahead);
    const day = hours[weekdayOfDate(date)];
    if (!day || (ahead === 0 && minute >= clockToMinutes(day.open))) continue;
    const open = clockToMinutes(day.open);
    return {
      withinBusinessHours: false,
      backAt: epochFromWallClock({ ...date, hour: Math.floor(open / 60), minute: open % 60 }, timezone),
    };
  }
  return { withinBusinessHours: false, backAt: null };
}
