import {
  answer,
  ASKS_EMAIL,
  ASKS_NAME,
  ASKS_PHONE,
  FALLBACK,
  PERSON_OFFERED,
  STILL_NEED,
  type CorpusConversation,
} from "./types.ts";

/** Longer chats that wander: questions between steps, second thoughts, corrections. */
export const LONGER_CHATS: CorpusConversation[] = [
  {
    name: "dental: browse, ask two things, book, then fix the phone number",
    sector: "dental-clinic",
    turns: [
      { say: "hi there", intent: "small-talk", has: ["I'm Ava"] },
      {
        say: "do you take aetna and is there parking",
        intent: "multi-question",
        has: [answer("dental-clinic", "insurance"), answer("dental-clinic", "location")],
      },
      {
        say: "ok can i book a cleaning monday at 10",
        intent: "booking",
        has: ["Mon, Jan 19, 10:00 AM (New York time) is available"],
      },
      {
        say: "how much is a cleaning again?",
        intent: "mid-form-question",
        has: [answer("dental-clinic", "cleaning-price"), "Shall I book Mon, Jan 19, 10:00 AM (New York time)"],
      },
      { say: "yes", intent: "booking", has: [ASKS_NAME] },
      { say: "Lucy Park", intent: "booking", has: [ASKS_PHONE] },
      {
        say: "347 555 0111",
        intent: "booking",
        has: ["You're booked in for Mon, Jan 19, 10:00 AM (New York time), Lucy!"],
        actions: ["appointment_booked"],
      },
      { say: "sorry my number is 347 555 0122", intent: "contact-correction", has: ["updated your phone number"] },
    ],
  },
  {
    name: "dental: a form abandoned by two questions in a row stops asking",
    sector: "dental-clinic",
    turns: [
      { say: "can i get a quote for a crown", intent: "lead", has: [ASKS_NAME] },
      {
        say: "do you offer payment plans",
        intent: "mid-form-question",
        has: [answer("dental-clinic", "financing"), ASKS_NAME],
      },
      { say: "what about whitening", intent: "faq", has: [answer("dental-clinic", "whitening")], lacks: [STILL_NEED] },
    ],
  },
  {
    name: "real estate: viewing booked, then a question while the slot waits",
    sector: "real-estate",
    turns: [
      {
        say: "id like to book a viewing for monday at 11am",
        intent: "booking",
        has: ["Mon, Jan 19, 11:00 AM (London time) is available"],
      },
      {
        say: "do you allow cats",
        intent: "mid-form-question",
        has: [answer("real-estate", "pets"), "Shall I book Mon, Jan 19, 11:00 AM (London time)"],
      },
      { say: "yes", intent: "booking", has: [ASKS_NAME] },
      {
        say: "my name is Hannah Scott and my mobile is 07911 123457",
        intent: "booking",
        has: ["You're booked in for Mon, Jan 19, 11:00 AM (London time), Hannah!"],
        actions: ["appointment_booked"],
      },
    ],
  },
  {
    name: "real estate: valuation lead with a name that is not overwritten",
    sector: "real-estate",
    turns: [
      { say: "can you value my house", intent: "lead", has: [answer("real-estate", "valuation")] },
      { say: "my name is George Hill", intent: "lead", has: ["Thanks, George", ASKS_PHONE] },
      { say: "thanks 07400 123456", intent: "lead", has: [ASKS_EMAIL], lacks: ["Thanks, Thanks"] },
      { say: "ok george.hill@btinternet.com", intent: "lead", has: ["Thank you, George!"], actions: ["lead_captured"] },
    ],
  },
  {
    name: "car: quote with a question mid-form, a bad number, then the right one",
    sector: "car-service",
    turns: [
      { say: "need an estimate for new tires", intent: "lead", has: [ASKS_NAME] },
      { say: "Ray Thompson", intent: "lead", has: [ASKS_PHONE] },
      {
        say: "do you do financing?",
        intent: "mid-form-question",
        has: [answer("car-service", "financing"), ASKS_PHONE],
      },
      { say: "555 12", intent: "lead", has: ["too short"] },
      { say: "773 555 0164", intent: "lead", has: [ASKS_EMAIL] },
      { say: "ray.t@gmail.com", intent: "lead", has: ["Thank you, Ray!"], actions: ["lead_captured"] },
    ],
  },
  {
    name: "car: booking stopped on purpose still stops",
    sector: "car-service",
    turns: [
      { say: "can i book an oil change", intent: "booking", has: ["Which day and time"] },
      { say: "actually never mind", intent: "booking", has: ["I won't book anything"] },
      { say: "whats the price of synthetic oil", intent: "faq", has: [answer("car-service", "oil-change")] },
    ],
  },
  {
    name: "salon: colour price, patch test and a booking in the afternoon",
    sector: "beauty-salon",
    turns: [
      {
        say: "how much is colour and do i need a patch test first",
        intent: "multi-question",
        has: [answer("beauty-salon", "haircut-prices"), answer("beauty-salon", "patch-test")],
      },
      {
        say: "ok book me in saturday afternoon",
        intent: "time-window",
        has: ["Saturday, January 17 in the afternoon", "(Sydney time)"],
        lacks: ["8:30 AM"],
      },
      { say: "3pm", intent: "booking", has: ["Sat, Jan 17, 3:00 PM (Sydney time) is available"] },
      { say: "yes please", intent: "booking", has: [ASKS_NAME] },
      { say: "Zoe", intent: "booking", has: [ASKS_PHONE] },
      {
        say: "0412 345 678",
        intent: "booking",
        has: ["You're booked in for Sat, Jan 17, 3:00 PM (Sydney time), Zoe!"],
        actions: ["appointment_booked"],
      },
    ],
  },
  {
    name: "salon: 'how much' right after an answer asks about that answer's topic",
    sector: "beauty-salon",
    turns: [
      { say: "do you do balayage", intent: "faq", has: [answer("beauty-salon", "haircut-prices")] },
      {
        say: "how much",
        intent: "faq",
        has: [answer("beauty-salon", "haircut-prices")],
        lacks: [/^I'd be happy to help/],
      },
    ],
  },
  {
    name: "car: one answer holding price and duration is not followed by another entry's duration",
    sector: "car-service",
    turns: [
      {
        say: "my check engine light is on, how much to diagnose and how long does it take",
        intent: "duration",
        has: [answer("car-service", "diagnostics"), "about an hour"],
        lacks: [answer("car-service", "service-duration")],
      },
      {
        say: "ok can i bring it in tomorrow morning",
        intent: "time-window",
        has: ["Friday, January 16 in the morning", "7:00 AM", "(Chicago time)"],
        lacks: [ASKS_NAME],
      },
    ],
  },
  {
    name: "salon: gibberish twice hands over to a person",
    sector: "beauty-salon",
    turns: [
      { say: "asdfgh qwerty", intent: "handoff", has: [FALLBACK] },
      { say: "zzzz blorp", intent: "handoff", actions: ["handoff"] },
    ],
  },
  {
    name: "general: urgent in the middle of a booking, then a yes hands off",
    sector: "general",
    turns: [
      { say: "can i book a call", intent: "booking", has: ["Which day and time"] },
      {
        say: "actually this is urgent, I need someone right away",
        intent: "urgent",
        has: [answer("general", "urgent"), PERSON_OFFERED],
        lacks: ["Which day and time"],
      },
      { say: "yes", intent: "handoff", actions: ["handoff"] },
    ],
  },
  {
    name: "general: hours, then a callback, details in one go",
    sector: "general",
    turns: [
      { say: "r u open weekends", intent: "faq", has: [answer("general", "hours")] },
      { say: "can someone get in touch with me", intent: "lead", has: [ASKS_NAME] },
      {
        say: "Nina Patel, 646 555 0102, nina.patel@icloud.com",
        intent: "lead",
        has: ["Thank you, Nina!"],
        actions: ["lead_captured"],
      },
      { say: "thank you", intent: "small-talk", has: ["You're welcome"] },
    ],
  },
];
