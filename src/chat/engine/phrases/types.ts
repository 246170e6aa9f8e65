import type { Weekday } from "../bot-config.ts";
import type { ContactField, EmailProblem, PhoneProblem } from "../extract-contact.ts";

/**
 * Every sentence the rule engine says, per language. Times and days inside them stay in the
 * form the booking parser reads back ("Tue, Jan 20, 12:00 PM"), so slot buttons work in every
 * language.
 */
export interface Phrases {
  quick: { book: string; human: string; yesBook: string; otherTime: string; noThanks: string };
  /** The greeting for a visitor whose language is not the config's (the config's greeting is in that one). */
  greeting: (botName: string) => string;
  handoff: { keyword: string; low_confidence: string; already: string; urgent: string; complaint: string };
  /** A hand-off out of business hours: nobody is promised now; the visitor's details and question are taken as a message. */
  handoffAway: { offer: string; already: string };
  fallback: string;
  fallbackAfterHandoff: string;
  emptyMessage: string;
  thanks: string;
  dismissed: string;
  goodbye: string;
  leadStopped: string;
  bookingStopped: string;
  askTime: string;
  otherTime: string;
  askTimeAgain: string;
  bookingDisabled: string;
  softLeadOffer: string;
  leadIntro: string;
  phoneWaived: string;
  phoneNeeded: string;
  notKnown: string;
  notKnownPerson: string;
  notKnownMessage: string;
  notCovered: string;
  changeBooking: string;
  urgentOffer: string;
  urgentNoAnswer: string;
  /** "…and I'm not sure about “do you accept walk-ins”" after the answers that exist. */
  notSureAbout: (part: string) => string;
  zone: (label: string, timeZone: string) => string;
  thanksName: (firstName: string) => string;
  askName: string;
  askPhone: string;
  askEmail: string;
  /** Before "And your e-mail address?" once the phone is known. */
  great: string;
  stillNeed: (field: ContactField) => string;
  phoneProblem: Record<PhoneProblem, string>;
  emailProblem: Record<EmailProblem, string>;
  leadThanks: (firstName: string, phone: string | null, email: string) => string;
  detailsKnown: (firstName: string) => string;
  updatedField: Record<ContactField, (value: string) => string>;
  detailsUpdated: (firstName: string, changes: readonly string[]) => string;
  offerSlot: (when: string) => string;
  shallIBook: (when: string) => string;
  answerYesNo: string;
  booked: (when: string, firstName: string) => string;
  holdSlot: (when: string) => string;
  whenCome: string;
  noted: string;
  proposals: (zone: string, list: string) => string;
  noFreeTimes: (days: number) => string;
  haveOn: (when: string) => string;
  noFreeOn: (when: string) => string;
  haveWindow: (window: string) => string;
  noFreeWindow: (window: string) => string;
  refusal: {
    past: (when: string) => string;
    tooSoon: (when: string, notice: string) => string;
    tooFar: (days: number) => string;
    taken: (when: string) => string;
    misaligned: (minutes: number, when: string) => string;
    closedDay: (weekday: Weekday) => string;
    closedHours: (weekday: Weekday, open: string, close: string, when: string) => string;
  };
  /** The locale days are written in, in sentences ("sexta-feira, 16 de janeiro"). */
  locale: string;
  /** A part of the day, named back to the visitor; `clock` is "5 pm". */
  window: {
    morning: string;
    afternoon: string;
    evening: string;
    after: (clock: string) => string;
    before: (clock: string) => string;
    between: (from: string, to: string) => string;
  };
  /** "a day's", "2 hours'" notice. */
  notice: (amount: number, unit: "day" | "hour" | "minute") => string;
}
