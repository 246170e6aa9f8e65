import type { BotConfig } from "./bot-config.ts";
import type { SlotRefusal } from "./appointment-slots.ts";
import type { LeadDetails } from "./conversation-state.ts";
import type { ContactField, InvalidContactAttempt } from "./extract-contact.ts";
import type { Lang } from "./language.ts";
import type { Phrases } from "./phrases/index.ts";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { formatDay, formatSlot, formatSlotWithZone, wallClockAt, zoneLabel } from "./timezone.ts";

/**
 * The replies the rule engine builds from its phrases (src/chat/engine/phrases/, one file per
 * language) and the conversation's details.
 */

/** The menu offered with greetings and fallbacks: a few FAQ questions (in the visitor's language when the FAQ has them), booking, a person. */
export function menuQuickReplies(
  config: BotConfig,
  say: Phrases,
  lang: Lang = config.language,
  questions: readonly string[] = [],
): string[] {
  // The first three distinct questions: `questions`, then the FAQ's, in order (a greeting asks on every visit).
  const menu: string[] = [];
  for (const question of questions) if (menu.length < 3 && !menu.includes(question)) menu.push(question);
  const inLanguage = config.faq.filter((entry) => (entry.language ?? config.language) === lang);
  for (const entry of inLanguage.length > 0 ? inLanguage : config.faq) {
    if (menu.length === 3) break;
    if (!menu.includes(entry.question)) menu.push(entry.question);
  }
  if (config.appointments.enabled) menu.push(say.quick.book);
  menu.push(say.quick.human);
  return menu;
}

/** The config's greeting, or for a visitor in another language the engine's own. */
export function greetingText(config: BotConfig, say: Phrases, lang: Lang): string {
  return lang === config.language ? config.greeting : say.greeting(config.bot_name);
}

export function firstName(lead: LeadDetails): string {
  return lead.name?.split(" ")[0] ?? "";
}

export function askFieldText(field: ContactField, lead: LeadDetails, say: Phrases): string {
  const thanks = lead.name ? `${say.thanksName(firstName(lead))} ` : "";
  if (field === "name") return say.askName;
  if (field === "phone") return `${thanks}${say.askPhone}`;
  return `${lead.phone ? `${say.great} ` : thanks}${say.askEmail}`;
}

export function invalidAttemptText(attempt: InvalidContactAttempt, say: Phrases): string {
  return attempt.field === "phone" ? say.phoneProblem[attempt.problem] : say.emailProblem[attempt.problem];
}

/** "+14155550132" -> "+1 415 555 0132": the visitor recognises their number in this form. */
export function displayPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

export function leadThanksText(lead: LeadDetails, say: Phrases): string {
  return say.leadThanks(firstName(lead), lead.phone ? displayPhone(lead.phone) : null, lead.email ?? "");
}

export function detailsKnownText(lead: LeadDetails, say: Phrases): string {
  return say.detailsKnown(lead.name ? firstName(lead) : "");
}

const FIELD_VALUE: Record<ContactField, (lead: LeadDetails) => string> = {
  name: (lead) => lead.name ?? "",
  phone: (lead) => (lead.phone ? displayPhone(lead.phone) : ""),
  email: (lead) => lead.email ?? "",
};

/** "Thanks, Ana — I've updated your phone number to +1 415 555 0199. …" */
export function detailsUpdatedText(lead: LeadDetails, fields: readonly ContactField[], say: Phrases): string {
  const changes = fields.map((field) => say.updatedField[field](FIELD_VALUE[field](lead)));
  return say.detailsUpdated(lead.name ? firstName(lead) : "", changes);
}

/** "14:00" -> "2 pm", "08:30" -> "8:30 am". */
export function formatClock(clock: string): string {
  const [hoursText, minutesText] = clock.split(":");
  const hours = Number(hoursText);
  const suffix = hours < 12 ? "am" : "pm";
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return minutesText === "00" ? `${hour12} ${suffix}` : `${hour12}:${minutesText} ${suffix}`;
}

function formatNotice(minutes: number, say: Phrases): string {
  if (minutes % 1440 === 0) return say.notice(minutes / 1440, "day");
  if (minutes % 60 === 0) return say.notice(minutes / 60, "hour");
  return say.notice(minutes, "minute");
}

/** Why a time cannot be booked; `dayOnly` names the day alone, for requests like "yesterday". */
export function slotRefusalText(
  reason: SlotRefusal,
  startMs: number,
  config: BotConfig,
  say: Phrases,
  dayOnly = false,
): string {
  const settings = config.appointments;
  const when = dayOnly
    ? formatDay(startMs, settings.timezone, say.locale)
    : formatSlotWithZone(startMs, settings.timezone);
  switch (reason) {
    case "past":
      return say.refusal.past(when);
    case "too_soon":
      return say.refusal.tooSoon(when, formatNotice(settings.lead_time_minutes, say));
    case "too_far":
      return say.refusal.tooFar(settings.max_days_ahead);
    case "taken":
      return say.refusal.taken(when);
    case "misaligned":
      return say.refusal.misaligned(settings.slot_minutes, when);
    case "closed": {
      const weekday = wallClockAt(startMs, settings.timezone).weekday;
      const hours = settings.business_hours[weekday];
      if (!hours) return say.refusal.closedDay(weekday);
      return say.refusal.closedHours(weekday, formatClock(hours.open), formatClock(hours.close), when);
    }
  }
}

export function proposalsText(slots: readonly number[], config: BotConfig, say: Phrases): string {
  if (slots.length === 0) return say.noFreeTimes(config.appointments.max_days_ahead);
  const timeZone = config.appointments.timezone;
  return say.proposals(zoneLabel(timeZone), slots.map((slot) => formatSlot(slot, timeZone)).join("; "));
}

export function offerSlotText(startMs: number, config: BotConfig, say: Phrases): string {
  return say.offerSlot(formatSlotWithZone(startMs, config.appointments.timezone));
}

export function bookedText(startMs: number, lead: LeadDetails, config: BotConfig, say: Phrases): string {
  return say.booked(formatSlotWithZone(startMs, config.appointments.timezone), lead.name ? firstName(lead) : "");
}
