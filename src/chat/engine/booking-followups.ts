import type { AppointmentRequest } from "./parse-appointment.ts";
import type { TimeWindow } from "./time-window.ts";
import { epochFromWallClock, wallClockAt } from "./timezone.ts";
import type { Turn } from "./turn.ts";

/**
 * Short replies while times are on offer, which chrono cannot read on their own:
 * - a bare hour ("ok 2", "how about 3:30?") means that time on the day under discussion;
 * - "any later?" / "anything earlier?" means the same day after (before) what was offered.
 */

const BARE_TIME =
  /^(?:(?:ok|okay|yes|yeah|sure|maybe|then|how about|what about|can we do|could we do|let'?s do|lets do|at|say|or|e|y|às|as|a las|pode ser|puede ser|que tal|qué tal)[\s,]+)*(\d{1,2})(?:(?::|h)(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|o'?clock|h|horas)?(?:[\s,]+(?:please|pls|then|works|is fine|is good|ok|por favor|então|entonces))*\s*[?.!]*$/iu;
/** "any later?", "mais tarde?", "¿algo más tarde?"; "earlier", "mais cedo", "más temprano". */
const LATER =
  /\b(?:later|after that|in the evening instead)\b|(?<!\p{L})(?:mais tarde|más tarde|mas tarde|depois disso|después de eso)(?!\p{L})/iu;
const EARLIER =
  /\b(?:earlier|sooner|before that)\b|(?<!\p{L})(?:mais cedo|más temprano|mas temprano|antes disso|antes de eso)(?!\p{L})/iu;
const DAY_END = 24 * 60;

/** "ok 2" on the day being discussed (or the slot on offer); null when the message is not a bare time. */
export function bareTimeRequest(turn: Turn): AppointmentRequest | null {
  const dayMs = turn.state.pendingStartMs ?? turn.state.focusDayMs;
  const match = BARE_TIME.exec(turn.message.trim());
  if (dayMs === null || !match?.[1]) return null;
  let hour = Number(match[1]);
  const minute = match[2] ? Number(match[2]) : 0;
  // "15h" and "15 horas" are 24-hour clocks: no meridiem, and 15 stays 15.
  const meridiem = match[3]
    ?.toLowerCase()
    .replace(/\./g, "")
    .replace(/^(?:h|horas)$/, "");
  if (hour > 23 || minute > 59) return null;
  if (meridiem === "pm" && hour < 12) hour += 12;
  else if (meridiem === "am" && hour === 12) hour = 0;
  else if ((!meridiem || meridiem.startsWith("o")) && hour >= 1 && hour <= 7) hour += 12;
  const timeZone = turn.config.appointments.timezone;
  const { year, month, day } = wallClockAt(dayMs, timeZone);
  return {
    startMs: epochFromWallClock({ year, month, day, hour, minute }, timeZone),
    hasTime: true,
    hasDate: true,
    matchedText: match[0],
  };
}

/** "any later?": the day of the times on offer, after the last of them (or before the first). */
export function shiftedDayRequest(turn: Turn): AppointmentRequest | null {
  const later = LATER.test(turn.message);
  if (!later && !EARLIER.test(turn.message)) return null;
  const { state, config } = turn;
  const offered = [...(state.offeredSlots ?? []), ...(state.pendingStartMs === null ? [] : [state.pendingStartMs])];
  if (offered.length === 0) return null;
  const reference = later ? Math.max(...offered) : Math.min(...offered);
  const clock = wallClockAt(reference, config.appointments.timezone);
  const minute = clock.hour * 60 + clock.minute;
  const window: TimeWindow = later
    ? { fromMinute: minute + config.appointments.slot_minutes, toMinute: DAY_END, text: "later" }
    : { fromMinute: 0, toMinute: minute, text: "earlier" };
  return { startMs: reference, hasTime: false, hasDate: true, matchedText: "", window };
}
