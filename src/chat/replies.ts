import type { BotConfig, Weekday } from "./bot-config.ts";
import type { SlotRefusal } from "./appointment-slots.ts";
import type { LeadDetails } from "./conversation-state.ts";
import type { ContactField, InvalidContactAttempt } from "./extract-contact.ts";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { formatDay, formatSlot, formatSlotWithZone, wallClockAt, zoneLabel } from "./timezone.ts";

/** Every sentence the rule engine says, in one place, so the wording can be reviewed and later translated. */

/** Quick-reply labels the engine also recognises when they come back as messages. */
export const QUICK_REPLY = {
  book: "Book an appointment",
  human: "Talk to a person",
  yesBook: "Yes, book it",
  otherTime: "Pick another time",
  noThanks: "No thanks",
} as const;

const WEEKDAY_PLURAL: Record<Weekday, string> = {
  mon: "Mondays",
  tue: "Tuesdays",
  wed: "Wednesdays",
  thu: "Thursdays",
  fri: "Fridays",
  sat: "Saturdays",
  sun: "Sundays",
};

const PHONE_PROBLEM_TEXT = {
  too_short: "That phone number looks too short — please include the area code.",
  too_long: "That phone number has too many digits — could you check it?",
  invalid_country: "I couldn't tell which country that number is from — please start it with + and the country code.",
  invalid: "That phone number doesn't look valid — please include the area code.",
} as const;

const EMAIL_PROBLEM_TEXT = {
  missing_at: "That e-mail address seems to be missing the @ — could you type it again?",
  missing_domain: "That e-mail address is missing its domain (like @example.com) — could you check it?",
  unknown_tld: "That e-mail address doesn't end in a real domain — could you check the part after the last dot (like .com)?",
  invalid: "That e-mail address doesn't look right — could you check it?",
} as const;

const FIELD_LABEL: Record<ContactField, string> = { name: "your name", phone: "a phone number", email: "your e-mail address" };

/** The menu offered with greetings and fallbacks: a few FAQ questions, booking, a person. */
export function menuQuickReplies(config: BotConfig, questions: readonly string[] = []): string[] {
  // The first three distinct questions: `questions`, then the FAQ's, in order (a greeting asks on every visit).
  const menu: string[] = [];
  for (const question of questions) if (menu.length < 3 && !menu.includes(question)) menu.push(question);
  for (const entry of config.faq) {
    if (menu.length === 3) break;
    if (!menu.includes(entry.question)) menu.push(entry.question);
  }
  if (config.appointments.enabled) menu.push(QUICK_REPLY.book);
  menu.push(QUICK_REPLY.human);
  return menu;
}

export function firstName(lead: LeadDetails): string {
  return lead.name?.split(" ")[0] ?? "";
}

export function askFieldText(field: ContactField, lead: LeadDetails): string {
  const thanks = lead.name ? `Thanks, ${firstName(lead)}! ` : "";
  if (field === "name") return "Could I get your name, please?";
  if (field === "phone") return `${thanks}What's the best phone number to reach you on?`;
  return `${lead.phone ? "Great. " : thanks}And your e-mail address?`;
}

export function stillNeedText(field: ContactField): string {
  return `Sorry, I still need ${FIELD_LABEL[field]} to go ahead (or say "cancel" and I'll stop asking).`;
}

export function invalidAttemptText(attempt: InvalidContactAttempt): string {
  return attempt.field === "phone" ? PHONE_PROBLEM_TEXT[attempt.problem] : EMAIL_PROBLEM_TEXT[attempt.problem];
}

/** "+14155550132" -> "+1 415 555 0132": the visitor recognises their number in this form. */
export function displayPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

export function leadThanksText(lead: LeadDetails): string {
  const reach = lead.phone ? `contact you on ${displayPhone(lead.phone)} or at ${lead.email ?? ""}` : `reply to you at ${lead.email ?? ""}`;
  return `Thank you, ${firstName(lead)}! I've passed your details to the team — they'll ${reach} shortly. Is there anything else I can help with?`;
}

const UPDATED_FIELD_TEXT: Record<ContactField, (lead: LeadDetails) => string> = {
  name: (lead) => `your name to ${lead.name ?? ""}`,
  phone: (lead) => `your phone number to ${lead.phone ? displayPhone(lead.phone) : ""}`,
  email: (lead) => `your e-mail to ${lead.email ?? ""}`,
};

export function detailsKnownText(lead: LeadDetails): string {
  const name = lead.name ? `, ${firstName(lead)}` : "";
  return `Thanks — we already have your details${name}. Anything else I can help with?`;
}

/** "Thanks, Ana — I've updated your phone number to +1 415 555 0199. …" */
export function detailsUpdatedText(lead: LeadDetails, fields: readonly ContactField[]): string {
  const name = lead.name ? `, ${firstName(lead)}` : "";
  const changes = fields.map((field) => UPDATED_FIELD_TEXT[field](lead)).join(" and ");
  return `Thanks${name} — I've updated ${changes}. Anything else I can help with?`;
}

/** "14:00" -> "2 pm", "08:30" -> "8:30 am". */
export function formatClock(clock: string): string {
  const [hoursText, minutesText] = clock.split(":");
  const hours = Number(hoursText);
  const suffix = hours < 12 ? "am" : "pm";
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return minutesText === "00" ? `${hour12} ${suffix}` : `${hour12}:${minutesText} ${suffix}`;
}

function formatNotice(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? "a day's" : `${minutes / 1440} days'`;
  if (minutes % 60 === 0) return minutes === 60 ? "an hour's" : `${minutes / 60} hours'`;
  return `${minutes} minutes'`;
}

/** Why a time cannot be booked; `dayOnly` names the day alone, for requests like "yesterday". */
export function slotRefusalText(reason: SlotRefusal, startMs: number, config: BotConfig, dayOnly = false): string {
  const settings = config.appointments;
  const when = dayOnly ? formatDay(startMs, settings.timezone) : formatSlotWithZone(startMs, settings.timezone);
  switch (reason) {
    case "past":
      return `${when} has already passed.`;
    case "too_soon":
      return `${when} is a little too soon — we need at least ${formatNotice(settings.lead_time_minutes)} notice.`;
    case "too_far":
      return `I can only book up to ${settings.max_days_ahead} days ahead.`;
    case "taken":
      return `Sorry, ${when} is already taken.`;
    case "misaligned":
      return `Appointments start every ${settings.slot_minutes} minutes from opening time, so ${when} isn't a start time.`;
    case "closed": {
      const weekday = wallClockAt(startMs, settings.timezone).weekday;
      const hours = settings.business_hours[weekday];
      if (!hours) return `We're closed on ${WEEKDAY_PLURAL[weekday]}.`;
      return `On ${WEEKDAY_PLURAL[weekday]} we're open ${formatClock(hours.open)}–${formatClock(hours.close)}, so ${when} is outside our hours.`;
    }
  }
}

export function proposalsText(slots: readonly number[], config: BotConfig): string {
  if (slots.length === 0) {
    return `I couldn't find a free time in the next ${config.appointments.max_days_ahead} days — would you like to talk to a person?`;
  }
  const timeZone = config.appointments.timezone;
  const list = slots.map((slot) => formatSlot(slot, timeZone)).join("; ");
  return `The nearest free times (${zoneLabel(timeZone)}) are: ${list}. Tap one, or tell me another day and time.`;
}

export function offerSlotText(startMs: number, config: BotConfig): string {
  return `${formatSlotWithZone(startMs, config.appointments.timezone)} is available. Shall I book it for you?`;
}

export function bookedText(startMs: number, lead: LeadDetails, config: BotConfig): string {
  const name = lead.name ? `, ${firstName(lead)}` : "";
  return `You're booked in for ${formatSlotWithZone(startMs, config.appointments.timezone)}${name}! If you need to change it, just let us know. Anything else I can help with?`;
}

export const HANDOFF_TEXT = {
  keyword: "Of course — I've asked a member of our team to join this chat. They'll reply right here as soon as they can.",
  low_confidence:
    "I'm sorry I couldn't help with that. I've asked a member of our team to join this chat — they'll reply right here as soon as they can.",
  already: "A member of our team has already been notified and will reply right here as soon as they can.",
  urgent: "I've asked a member of our team to join this chat straight away — they'll reply right here.",
} as const;

export const FALLBACK_TEXT = "Sorry, I'm not sure I understood. Here are some things I can help with — or rephrase your question.";
export const FALLBACK_AFTER_HANDOFF_TEXT = "I'm not sure about that one, but a member of our team will reply here shortly.";
export const EMPTY_MESSAGE_TEXT = "Sorry, I didn't catch that — could you type your question?";
export const THANKS_TEXT = "You're welcome! Is there anything else I can help with?";
export const DISMISSED_TEXT = "No problem. Is there anything else I can help with?";
export const GOODBYE_TEXT = "Thanks for chatting with us — have a great day!";
export const LEAD_STOPPED_TEXT = "No problem — I won't take your details. Is there anything else I can help with?";
export const BOOKING_STOPPED_TEXT = "No problem, I won't book anything. Is there anything else I can help with?";
export const ASK_TIME_TEXT = "Sure! Which day and time would suit you? For example \"tomorrow at 10am\".";
export const OTHER_TIME_TEXT = "No problem — which day and time would suit you better?";
export const ASK_TIME_AGAIN_TEXT = "Sorry, I didn't catch a date. Which day and time would suit you? For example \"next Monday at 2pm\".";
export const BOOKING_DISABLED_TEXT = "We don't take bookings in this chat, but I can have the team call you to arrange a time.";
export const SOFT_LEAD_OFFER_TEXT = "If you'd like a personalised quote, I can have the team get in touch.";
export const PHONE_WAIVED_TEXT = "No problem — the team will reply by e-mail.";
export const PHONE_NEEDED_TEXT =
  "I understand. The team needs a phone number to follow up on this, so I can't pass it on without one. You can keep asking me anything, or tap “Talk to a person” to continue with the team right here.";
export const LEAD_INTRO_TEXT = "I'd be happy to help with that — I'll just take a few details so the team can get back to you.";
