import { answerAppointmentChange, answerQuestions, withStep } from "./answer-first.ts";
import { clockToMinutes } from "./config-fields.ts";
import { bareTimeRequest, shiftedDayRequest } from "./booking-followups.ts";
import { checkSlot, proposeSlots, type SlotRefusal } from "./appointment-slots.ts";
import { isAffirmative, isNegative, wantsToStopFlow } from "./intents.ts";
import { captureLeadIfComplete, missingFields, resetFlow, startCollection } from "./lead-flow.ts";
import type { AppointmentRequest } from "./parse-appointment.ts";
import { bookedText, offerSlotText, proposalsText, slotRefusalText } from "./replies.ts";
import { describeWindow, type TimeWindow } from "./time-window.ts";
import { epochFromWallClock, formatDay, formatSlot, formatSlotWithZone, wallClockAt } from "./timezone.ts";
import { CONFIDENCE, MAX_IGNORED_PROMPTS, type Turn, type TurnReply } from "./turn.ts";

/**
 * Booking: read a time, check it, offer it, wait for "yes", make sure we know who is coming,
 * book. A refused time always comes with the nearest free times as quick replies, so the
 * visitor can finish with taps alone.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

function joinText(...parts: string[]): string {
  return parts.filter((part) => part.length > 0).join(" ");
}

function slotLabels(turn: Turn, slots: readonly number[]): string[] {
  // Buttons stay short (WhatsApp cuts a button title at 20 characters): the sentence above
  // them names the zone ("The nearest free times (New York time) are: …").
  const labels = slots.map((slot) => formatSlot(slot, turn.config.appointments.timezone));
  return labels.length > 0 ? labels : [turn.say.quick.human];
}

/** Back to "which day and time?", dropping any offer or contact question in progress. */
function enterBooking(state: Turn["state"]): void {
  state.mode = "booking";
  state.pendingStartMs = null;
  state.purpose = null;
  state.awaiting = null;
  state.ignoredPrompts = 0;
}

function refuse(turn: Turn, reason: SlotRefusal, startMs: number, prefix = "", dayOnly = false): TurnReply {
  const { state, config, nowMs, takenSlotStarts } = turn;
  enterBooking(state);
  state.focusDayMs = reason === "past" || reason === "too_far" ? null : startMs;
  const slots = proposeSlots(startMs, config, nowMs, takenSlotStarts);
  return {
    text: joinText(
      prefix,
      slotRefusalText(reason, startMs, config, turn.say, dayOnly),
      proposalsText(slots, config, turn.say),
    ),
    quickReplies: slotLabels(turn, slots),
    confidence: CONFIDENCE.slotRefused,
  };
}

interface OfferOptions {
  fromMs?: number;
  prefix?: string;
  intro?: string;
  exclude?: number;
  /** Only times in this part of the day ("afternoon"); when none is free, the nearest others, said so. */
  window?: TimeWindow | null;
  /** The day asked for: its own free times come first, other days only when it has none. */
  dayMs?: number;
}

function sameLocalDay(a: number, b: number, timeZone: string): boolean {
  const x = wallClockAt(a, timeZone);
  const y = wallClockAt(b, timeZone);
  return x.year === y.year && x.month === y.month && x.day === y.day;
}

/** Offers free times near `fromMs` (default: now) and waits for the visitor to pick one. */
function offerTimes(turn: Turn, options: OfferOptions = {}): TurnReply {
  const { state, config, nowMs, takenSlotStarts } = turn;
  enterBooking(state);
  const taken = options.exclude === undefined ? takenSlotStarts : [...takenSlotStarts, options.exclude];
  const fromMs = options.fromMs ?? nowMs;
  let slots = proposeSlots(fromMs, config, nowMs, taken, 3, options.window ?? null);
  const dayMs = options.dayMs;
  if (dayMs !== undefined && slots.some((slot) => sameLocalDay(slot, dayMs, config.appointments.timezone))) {
    // Nearest-first also finds the evening before; the visitor named this day.
    const onDay = proposeSlots(fromMs, config, nowMs, taken, 6, options.window ?? null).filter((slot) =>
      sameLocalDay(slot, dayMs, config.appointments.timezone),
    );
    slots = onDay.slice(0, 3);
  }
  let note = "";
  if (slots.length === 0 && options.window) {
    slots = proposeSlots(fromMs, config, nowMs, taken);
    note = turn.say.noFreeWindow(describeWindow(options.window, turn.say.window));
  }
  state.offeredSlots = slots;
  return {
    text: joinText(
      options.prefix ?? "",
      note || (options.intro ?? turn.say.askTime),
      proposalsText(slots, config, turn.say),
    ),
    quickReplies: slotLabels(turn, slots),
    confidence: CONFIDENCE.slotOffered,
  };
}

/**
 * A day without a time ("next Monday", "thursday afternoon"): refuse a past or closed day,
 * else offer it from opening time, or from the start of the window asked for.
 */
function handleDayRequest(turn: Turn, dayMs: number, prefix: string, window: TimeWindow | null = null): TurnReply {
  const { config, nowMs, state } = turn;
  const timeZone = config.appointments.timezone;
  const day = wallClockAt(dayMs, timeZone);
  const today = wallClockAt(nowMs, timeZone);
  const dayKey = day.year * 10_000 + day.month * 100 + day.day;
  if (dayKey < today.year * 10_000 + today.month * 100 + today.day) return refuse(turn, "past", dayMs, prefix, true);
  if (dayMs > nowMs + config.appointments.max_days_ahead * DAY_MS) return refuse(turn, "too_far", dayMs, prefix, true);
  const hours = config.appointments.business_hours[day.weekday];
  if (!hours) return refuse(turn, "closed", dayMs, prefix, true);
  const [openHour, openMinute] = hours.open.split(":").map(Number);
  const openMinutes = (openHour ?? 0) * 60 + (openMinute ?? 0);
  // "before 3 pm" / "anything earlier?": the times just before, not the first of the day.
  const beforeOnly = window !== null && window.fromMinute === 0 && /^(?:before|earlier|no later)/i.test(window.text);
  const fromMinutes = beforeOnly
    ? Math.max(openMinutes, window.toMinute - config.appointments.slot_minutes)
    : Math.max(openMinutes, window?.fromMinute ?? 0);
  const fromMs = epochFromWallClock({ ...day, hour: Math.floor(fromMinutes / 60), minute: fromMinutes % 60 }, timeZone);
  const dayText = formatDay(dayMs, timeZone, turn.say.locale);
  const when = window ? `${dayText} ${describeWindow(window, turn.say.window)}` : dayText;
  // "saturday after 3" when Saturday closes at 2: say so before offering other days.
  const closeMinutes = clockToMinutes(hours.close);
  const dayHasWindow =
    !window ||
    Math.max(openMinutes, window.fromMinute) + config.appointments.slot_minutes <=
      Math.min(closeMinutes, window.toMinute);
  const intro = dayHasWindow ? turn.say.haveOn(when) : turn.say.noFreeOn(when);
  const reply = offerTimes(turn, { fromMs, prefix, intro, window, dayMs });
  state.focusDayMs = dayMs;
  return reply;
}

/** "8am" after talking about Monday means Monday at 8 am, not today. */
function onFocusDay(request: AppointmentRequest, focusDayMs: number | null, timeZone: string): AppointmentRequest {
  if (focusDayMs === null || request.hasDate || !request.hasTime) return request;
  const { year, month, day } = wallClockAt(focusDayMs, timeZone);
  const { hour, minute } = wallClockAt(request.startMs, timeZone);
  return { ...request, startMs: epochFromWallClock({ year, month, day, hour, minute }, timeZone), hasDate: true };
}

/** The visitor asked to book, with a time, a day, or nothing yet. */
export function handleAppointmentRequest(turn: Turn, request: AppointmentRequest | null, prefix = ""): TurnReply {
  const { state, config, nowMs, takenSlotStarts } = turn;
  state.ignoredPrompts = 0;
  state.purpose = null;
  state.awaiting = null;
  if (!request) return offerTimes(turn, { prefix });
  const window = request.window ?? null;
  if (!request.hasTime) {
    if (request.hasDate) return handleDayRequest(turn, request.startMs, prefix, window);
    // "anything after 5?" while a day is under discussion means that day.
    if (state.focusDayMs !== null) return handleDayRequest(turn, state.focusDayMs, prefix, window);
    return offerTimes(turn, {
      prefix,
      window,
      intro: window ? turn.say.haveWindow(describeWindow(window, turn.say.window)) : undefined,
    });
  }
  const { startMs } = onFocusDay(request, state.focusDayMs, config.appointments.timezone);
  const check = checkSlot({ startMs, config, nowMs, takenStarts: takenSlotStarts });
  if (!check.ok) return refuse(turn, check.reason, startMs, prefix);
  state.mode = "confirming_appointment";
  state.pendingStartMs = startMs;
  state.focusDayMs = startMs;
  return {
    text: joinText(prefix, offerSlotText(startMs, config, turn.say)),
    quickReplies: [turn.say.quick.yesBook, turn.say.quick.otherTime],
    confidence: CONFIDENCE.slotOffered,
  };
}

/**
 * Books the pending slot. The slot is checked once more because time has passed since it was
 * offered and `takenSlotStarts` may now hold another visitor's booking of the same time.
 */
export function finalizeBooking(turn: Turn, prefix = ""): TurnReply {
  const { state, config, nowMs, takenSlotStarts } = turn;
  const startMs = state.pendingStartMs;
  if (startMs === null) {
    resetFlow(state);
    return offerTimes(turn, { prefix });
  }
  const check = checkSlot({ startMs, config, nowMs, takenStarts: takenSlotStarts });
  if (!check.ok) return refuse(turn, check.reason, startMs, prefix);
  const { name, phone, email } = state.lead;
  turn.actions.push({
    type: "appointment_booked",
    startMs,
    endMs: startMs + config.appointments.slot_minutes * MINUTE_MS,
    ...(name ? { name } : {}),
    ...(phone ? { phone } : {}),
    ...(email ? { email } : {}),
    confidence: CONFIDENCE.booked,
  });
  state.interest ??= `Appointment on ${formatSlotWithZone(startMs, config.appointments.timezone)}`;
  state.bookedStartMs = startMs;
  resetFlow(state);
  captureLeadIfComplete(turn);
  return { text: joinText(prefix, bookedText(startMs, state.lead, config, turn.say)), confidence: CONFIDENCE.booked };
}

/** "Yes": book now if we know who is coming, otherwise ask for name and phone first. */
function confirmBooking(turn: Turn): TurnReply {
  const { state, config, nowMs, takenSlotStarts } = turn;
  const startMs = state.pendingStartMs;
  if (startMs === null) return finalizeBooking(turn);
  // Checked before asking for details: nobody should type their phone number for a lost slot.
  const check = checkSlot({ startMs, config, nowMs, takenStarts: takenSlotStarts });
  if (!check.ok) return refuse(turn, check.reason, startMs);
  if (missingFields(state, "booking", config).length > 0) {
    const slot = formatSlotWithZone(startMs, config.appointments.timezone);
    return startCollection(turn, finalizeBooking, { purpose: "booking", prefix: turn.say.holdSlot(slot) });
  }
  return finalizeBooking(turn);
}

/** "another time", "outro horário", "otra hora": not a no to booking, a no to this slot. */
const OTHER_TIME = /\b(?:another|other|different)\b|(?<!\p{L})(?:outr[oa]|otr[oa]|diferente)(?!\p{L})/iu;

/** A message while a slot awaits "yes". Null when the visitor has moved on. */
export function handleConfirmation(turn: Turn): TurnReply | null {
  const { state, message, config } = turn;
  const pending = state.pendingStartMs;
  if (pending === null) {
    resetFlow(state);
    return null;
  }
  if (turn.appointmentRequest && !turn.appointmentChange)
    return handleAppointmentRequest(turn, turn.appointmentRequest);
  const followUp = bareTimeRequest(turn) ?? shiftedDayRequest(turn);
  if (followUp) return handleAppointmentRequest(turn, followUp);
  if (isAffirmative(message)) return confirmBooking(turn);
  if (isNegative(message) || wantsToStopFlow(message)) {
    if (OTHER_TIME.test(message))
      return offerTimes(turn, { fromMs: pending, intro: turn.say.otherTime, exclude: pending });
    resetFlow(state);
    return { text: turn.say.bookingStopped, confidence: CONFIDENCE.smallTalk };
  }
  // Contact details in answer to "Shall I book …?" are a yes: the slot is held with them.
  if (turn.newFields.length > 0) return confirmBooking(turn);
  if (state.ignoredPrompts + 1 >= MAX_IGNORED_PROMPTS) {
    resetFlow(state);
    return null;
  }
  state.ignoredPrompts += 1;
  const question = turn.say.shallIBook(formatSlotWithZone(pending, config.appointments.timezone));
  const quickReplies = [turn.say.quick.yesBook, turn.say.quick.otherTime];
  const answered = turn.appointmentChange ? answerAppointmentChange(turn) : answerQuestions(turn);
  if (answered) return { ...withStep(answered, question), quickReplies };
  return { text: `${question} ${turn.say.answerYesNo}`, quickReplies, confidence: CONFIDENCE.flowReprompt };
}

/** A message after the bot asked "which day and time?". Null when the visitor has moved on. */
export function handleBookingPrompt(turn: Turn): TurnReply | null {
  const { state, message, config, nowMs, takenSlotStarts } = turn;
  if (turn.appointmentRequest && !turn.appointmentChange)
    return handleAppointmentRequest(turn, turn.appointmentRequest);
  const followUp = bareTimeRequest(turn) ?? shiftedDayRequest(turn);
  if (followUp) return handleAppointmentRequest(turn, followUp);
  if (wantsToStopFlow(message) || isNegative(message)) {
    resetFlow(state);
    return { text: turn.say.bookingStopped, confidence: CONFIDENCE.smallTalk };
  }
  if (turn.appointmentIntent) return handleAppointmentRequest(turn, null);
  if (turn.newFields.length > 0) return offerTimes(turn, { prefix: turn.say.noted });
  if (state.ignoredPrompts + 1 >= MAX_IGNORED_PROMPTS) {
    resetFlow(state);
    return null;
  }
  state.ignoredPrompts += 1;
  const slots = proposeSlots(nowMs, config, nowMs, takenSlotStarts);
  const quickReplies = slotLabels(turn, slots);
  const answered = turn.appointmentChange ? answerAppointmentChange(turn) : answerQuestions(turn);
  if (answered) return { ...withStep(answered, turn.say.whenCome), quickReplies };
  return {
    text: joinText(turn.say.askTimeAgain, proposalsText(slots, config, turn.say)),
    quickReplies,
    confidence: CONFIDENCE.flowReprompt,
  };
}
