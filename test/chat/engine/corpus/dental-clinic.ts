import {
  answer,
  ASKS_EMAIL,
  ASKS_NAME,
  ASKS_PHONE,
  FALLBACK,
  PERSON_OFFERED,
  STILL_NEED,
  CLINIC_OPEN_MS,
  type CorpusConversation,
} from "./types.ts";

const A = (id: string): string => answer("dental-clinic", id);
/** The emergency answer without its opening "Yes.", which a report of pain (no question) does not get. */
const URGENT_FACTS = "For severe pain, swelling or a broken tooth";

/** The demo dental clinic: every quote its owner reported is here, as the owner typed it. */
export const DENTAL_CORPUS: CorpusConversation[] = [
  {
    name: "price of whitening and saturday hours in one message: both answered before any offer",
    sector: "dental-clinic",
    turns: [
      {
        say: "whats the price for whitening and do you do it on saturdays",
        intent: "multi-question",
        has: [A("whitening"), A("hours"), "$450", "Saturday 9 am"],
        lacks: [/^Could I get your name/],
      },
    ],
  },
  {
    name: "tooth killing me and swollen: urgent answer and a person offered, never a name request",
    sector: "dental-clinic",
    at: CLINIC_OPEN_MS,
    turns: [
      {
        say: "my tooth is killing me, its really swollen, can someone see me today??",
        intent: "urgent",
        has: [A("emergency"), PERSON_OFFERED],
        lacks: [ASKS_NAME, STILL_NEED, FALLBACK],
        quick: "Talk to a person",
      },
      { say: "yes please", intent: "handoff", has: ["join this chat straight away"], actions: ["handoff"] },
    ],
  },
  {
    name: "urgent pain in the middle of the details form drops the form and answers the emergency",
    sector: "dental-clinic",
    turns: [
      { say: "can i get a quote for veneers", intent: "lead", has: [ASKS_NAME] },
      {
        say: "my tooth is killing me, its really swollen, can someone see me today??",
        intent: "urgent",
        has: [A("emergency"), PERSON_OFFERED],
        lacks: [STILL_NEED, ASKS_NAME],
      },
      { say: "whats your address", intent: "faq", has: [A("location")], lacks: [STILL_NEED] },
    ],
  },
  {
    name: "invisalign question while collecting details is answered, then the name asked again",
    sector: "dental-clinic",
    turns: [
      { say: "id like a quote for veneers", intent: "lead", has: [ASKS_NAME] },
      {
        say: "do you do invisalign? how much",
        intent: "mid-form-question",
        has: [A("orthodontics"), "$3,500", ASKS_NAME],
        lacks: [STILL_NEED],
      },
      { say: "Maria Gonzalez", intent: "lead", has: ["Thanks, Maria", ASKS_PHONE] },
    ],
  },
  {
    name: "cancelling an appointment during the form is about the appointment, the form stays open",
    sector: "dental-clinic",
    turns: [
      { say: "I'd like an estimate for a crown", intent: "lead", has: [ASKS_NAME] },
      {
        say: "I need to cancel my appointment on friday",
        intent: "appointment-change",
        has: [A("cancellation"), "can't change or cancel bookings from this chat", ASKS_NAME],
        lacks: ["I won't take your details", "Here's what I have"],
        quick: "Talk to a person",
      },
      { say: "its Dan Hughes", intent: "lead", has: ["Thanks, Dan", ASKS_PHONE] },
    ],
  },
  {
    name: "how long a cleaning takes gets the duration, not only the price",
    sector: "dental-clinic",
    turns: [{ say: "How long does a cleaning take?", intent: "duration", has: ["45 minutes"] }],
  },
  {
    name: "new patient asking about walk-ins gets both answers",
    sector: "dental-clinic",
    turns: [
      {
        say: "I'm a new patient, do you accept walk-ins?",
        intent: "multi-question",
        has: [A("new-patients"), A("walk-ins")],
      },
    ],
  },
  {
    name: "thursday afternoon instead of the offered morning slot offers afternoon times only",
    sector: "dental-clinic",
    turns: [
      {
        say: "can i book a cleaning tomorrow at 9am",
        intent: "booking",
        has: ["Fri, Jan 16, 9:00 AM (New York time) is available"],
      },
      {
        say: "actually can we do thursday afternoon instead",
        intent: "time-window",
        has: ["in the afternoon", "12:00 PM", "(New York time)"],
        lacks: ["8:00 AM", "8:30 AM", "9:00 AM"],
      },
      { say: "1pm", intent: "booking", has: ["1:00 PM (New York time) is available"] },
      { say: "yes", intent: "booking", has: ["to hold", "(New York time)", ASKS_NAME] },
      { say: "Priya Shah", intent: "booking", has: ["Thanks, Priya", ASKS_PHONE] },
      {
        say: "212 555 0143",
        intent: "booking",
        has: ["You're booked in for Thu, Jan 15, 1:00 PM (New York time), Priya!"],
        actions: ["appointment_booked"],
      },
    ],
  },
  {
    name: "after 5 on a day the clinic closes at 5 says so and offers the nearest times",
    sector: "dental-clinic",
    turns: [
      {
        say: "do you have any appointments monday after 5",
        intent: "time-window",
        has: [/no free times (?:after 5 pm|in the evening)/, "(New York time)"],
      },
    ],
  },
  {
    name: "a morning checkup next week: only morning slots",
    sector: "dental-clinic",
    turns: [
      {
        say: "can i book a checkup next tuesday morning",
        intent: "time-window",
        has: ["Tuesday, January 20 in the morning", "8:00 AM"],
        lacks: ["12:00 PM", "1:00 PM"],
      },
    ],
  },
  {
    name: "insurance typo, then parking, then thanks",
    sector: "dental-clinic",
    turns: [
      { say: "do u take delta dental insurence", intent: "faq", has: [A("insurance")] },
      { say: "is there parking", intent: "faq", has: [A("location")] },
      { say: "thanks!", intent: "small-talk", has: ["You're welcome"] },
    ],
  },
  {
    name: "three questions at once: hours, payment plans and kids",
    sector: "dental-clinic",
    turns: [
      {
        say: "what are your hours? do you have payment plans? and do you see kids",
        intent: "multi-question",
        has: [A("hours"), A("financing"), A("new-patients")],
      },
    ],
  },
  {
    name: "implant price: the answer first, the quote offer second",
    sector: "dental-clinic",
    turns: [
      { say: "how much r implants", intent: "faq", has: [A("implants"), "personalised quote"] },
      { say: "ok my name is Kevin O'Brien", intent: "lead", has: ["Thanks, Kevin", ASKS_PHONE] },
      { say: "646-555-0187", intent: "lead", has: [ASKS_EMAIL] },
      {
        say: "kevin.obrien@gmail.con",
        intent: "contact-correction",
        has: ["doesn't end in a real domain"],
        actions: [],
      },
      {
        say: "oops kevin.obrien@gmail.com",
        intent: "contact-correction",
        has: ["Thank you, Kevin!"],
        lacks: ["Oops"],
        actions: ["lead_captured"],
      },
    ],
  },
  {
    name: "a corrected phone number after the lead updates the lead",
    sector: "dental-clinic",
    turns: [
      {
        say: "I'm interested in veneers. my name is Sara Lind, 917 555 0120, sara.lind@outlook.com",
        intent: "lead",
        actions: ["lead_captured"],
      },
      {
        say: "sorry, my number is 917 555 0199",
        intent: "contact-correction",
        has: ["updated your phone number to +1 917 555 0199"],
        actions: ["lead_updated"],
      },
    ],
  },
  {
    name: "bleeding gums after an extraction is urgent",
    sector: "dental-clinic",
    turns: [
      {
        say: "had a tooth pulled yesterday and its still bleeding a lot",
        intent: "urgent",
        has: [URGENT_FACTS, PERSON_OFFERED],
        lacks: [/^Yes/],
      },
    ],
  },
  {
    name: "asking whether whitening hurts is a question, not an emergency",
    sector: "dental-clinic",
    turns: [
      {
        say: "does teeth whitening hurt?",
        intent: "faq",
        has: ["In-office whitening takes about 90 minutes"],
        lacks: [PERSON_OFFERED, /^Yes/],
      },
    ],
  },
  {
    name: "reschedule request when idle explains how and offers a person",
    sector: "dental-clinic",
    turns: [
      {
        say: "hi can i move my appointment to next week",
        intent: "appointment-change",
        has: [A("cancellation"), "can't change or cancel bookings"],
        lacks: ["is available", "Here's what I have"],
      },
      { say: "yes", intent: "handoff", actions: ["handoff"] },
    ],
  },
  {
    name: "a question instead of a phone number is answered and the phone asked again",
    sector: "dental-clinic",
    turns: [
      { say: "i want a quote for braces, I'm Ana Lopez", intent: "lead", has: [A("orthodontics")] },
      { say: "yes please", intent: "lead", has: [ASKS_PHONE] },
      {
        say: "wait do you take cigna?",
        intent: "mid-form-question",
        has: [A("insurance"), ASKS_PHONE],
        lacks: [STILL_NEED],
      },
      { say: "415 555 0132", intent: "lead", has: [ASKS_EMAIL] },
    ],
  },
  {
    name: "hello then opening hours on sunday",
    sector: "dental-clinic",
    turns: [
      { say: "hello", intent: "small-talk", has: ["I'm Ava"] },
      { say: "r u open sunday", intent: "faq", has: [A("hours")] },
    ],
  },
  {
    name: "a chipped tooth from a fall is urgent even with a booking word",
    sector: "dental-clinic",
    turns: [
      {
        say: "I fell and chipped my tooth, need an appointment asap",
        intent: "urgent",
        has: [URGENT_FACTS, PERSON_OFFERED],
        lacks: [/^Yes/, "Which day and time"],
      },
    ],
  },
  {
    name: "a tooth knocked out playing soccer is urgent, even told about someone else",
    sector: "dental-clinic",
    turns: [
      {
        say: "my daughter knocked her front tooth out playing soccer",
        intent: "urgent",
        has: [URGENT_FACTS, PERSON_OFFERED],
        lacks: [/^Yes/, FALLBACK],
      },
    ],
  },
  {
    name: "kids after school: times from 3 pm, in New York time",
    sector: "dental-clinic",
    turns: [
      {
        say: "I want to book my kids in for a cleaning after school",
        intent: "time-window",
        has: ["after 3 pm", "3:00 PM", "(New York time)"],
        lacks: ["8:00 AM", "9:00 AM"],
      },
    ],
  },
];
