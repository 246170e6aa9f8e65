import {
  answer,
  ASKS_EMAIL,
  ASKS_NAME,
  ASKS_PHONE,
  PERSON_OFFERED,
  STILL_NEED,
  type CorpusConversation,
} from "./types.ts";

const A = (id: string): string => answer("real-estate", id);

/** A UK estate and letting agency (Europe/London). */
export const REAL_ESTATE_CORPUS: CorpusConversation[] = [
  {
    name: "Tom Baker selling his flat: a mistyped e-mail is refused and 'oops' never becomes his name",
    sector: "real-estate",
    turns: [
      { say: "Hi I'm Tom Baker, I'm thinking of selling my flat in Richmond", intent: "lead", has: ["Tom"] },
      { say: "07911 123457", intent: "lead", has: [ASKS_EMAIL] },
      { say: "tom.baker@gmail.con", intent: "contact-correction", has: ["doesn't end in a real domain"], actions: [] },
      {
        say: "oops tom.baker@gmail.com",
        intent: "contact-correction",
        has: ["Thank you, Tom!"],
        lacks: ["Oops"],
        actions: ["lead_captured"],
      },
      {
        say: "sorry, my number is actually 07123 456789",
        intent: "contact-correction",
        has: ["Thanks, Tom", "updated your phone number to +44 7123 456789"],
        actions: ["lead_updated"],
      },
    ],
  },
  {
    name: "renting a 2 bedroom flat under 1500: details taken for listings, not the documents answer",
    sector: "real-estate",
    turns: [
      {
        say: "I want to rent a 2 bedroom flat under 1500 a month, what do you have?",
        intent: "lead",
        has: [ASKS_NAME],
        lacks: [A("documents"), A("renting-costs")],
      },
      { say: "Chloe Martin", intent: "lead", has: ["Thanks, Chloe", ASKS_PHONE] },
      {
        say: "do you allow dogs though",
        intent: "mid-form-question",
        has: [A("pets"), ASKS_PHONE],
        lacks: [STILL_NEED],
      },
    ],
  },
  {
    name: "selling fees and a free valuation asked together",
    sector: "real-estate",
    turns: [
      {
        say: "what do you charge to sell a house, and is the valuation free?",
        intent: "multi-question",
        has: [A("selling-fees"), A("valuation")],
      },
    ],
  },
  {
    name: "burst pipe in a managed flat is urgent",
    sector: "real-estate",
    turns: [
      {
        say: "there's a burst pipe in my flat and water everywhere!!",
        intent: "urgent",
        has: [A("emergency-repairs"), PERSON_OFFERED],
        lacks: [ASKS_NAME],
        quick: "Talk to a person",
      },
      { say: "yes", intent: "handoff", actions: ["handoff"] },
    ],
  },
  {
    name: "gas smell while booking a viewing interrupts the booking",
    sector: "real-estate",
    turns: [
      { say: "can i book a viewing", intent: "booking", has: ["Which day and time"] },
      {
        say: "hang on i can smell gas in the kitchen",
        intent: "urgent",
        has: [A("emergency-repairs"), PERSON_OFFERED],
        lacks: ["Which day and time"],
      },
    ],
  },
  {
    name: "a viewing on saturday afternoon: afternoon times in London time",
    sector: "real-estate",
    turns: [
      {
        say: "could we see the flat saturday afternoon",
        intent: "time-window",
        has: ["Saturday, January 17 in the afternoon", "(London time)", "12:00 PM"],
        lacks: ["10:00 AM"],
      },
      { say: "2pm works", intent: "booking", has: ["Sat, Jan 17, 2:00 PM (London time) is available"] },
      { say: "yep", intent: "booking", has: [ASKS_NAME] },
      {
        say: "James Wright 07400 123456",
        intent: "booking",
        has: ["You're booked in for Sat, Jan 17, 2:00 PM (London time), James!"],
        actions: ["appointment_booked"],
      },
    ],
  },
  {
    name: "rearranging a viewing is an appointment change with the agency's own policy",
    sector: "real-estate",
    turns: [
      {
        say: "I can't make my viewing tomorrow, can we rearrange it?",
        intent: "appointment-change",
        has: [A("cancellation"), "Talk to a person"],
        lacks: ["is available", "Here's what I have"],
      },
    ],
  },
  {
    name: "mortgage help and office hours, lower case no punctuation",
    sector: "real-estate",
    turns: [
      { say: "first time buyer here can you help with a mortgage", intent: "faq", has: [A("mortgage")] },
      { say: "when is the office open on saturdays", intent: "faq", has: [A("hours")] },
    ],
  },
  {
    name: "deposit question mid-form is answered and the e-mail asked again",
    sector: "real-estate",
    turns: [
      { say: "id like to let my property, can someone call me", intent: "lead", has: [ASKS_NAME] },
      { say: "Olivia Chen 07911 123457", intent: "lead", has: [ASKS_EMAIL] },
      {
        say: "how long does referencing take?",
        intent: "mid-form-question",
        has: [A("documents"), ASKS_EMAIL],
        lacks: [STILL_NEED],
      },
      { say: "olivia.chen@yahoo.co.uk", intent: "lead", has: ["Thank you, Olivia!"], actions: ["lead_captured"] },
    ],
  },
  {
    name: "where the office is, with a typo",
    sector: "real-estate",
    turns: [{ say: "wheres ur ofice", intent: "faq", has: [A("location")] }],
  },
  {
    name: "a negotiator asked for by name hands off",
    sector: "real-estate",
    turns: [{ say: "can I speak to a negotiator please", intent: "handoff", actions: ["handoff"] }],
  },
  {
    name: "a broken boiler in winter is urgent",
    sector: "real-estate",
    turns: [
      { say: "my boiler is broken and its freezing", intent: "urgent", has: [A("emergency-repairs"), PERSON_OFFERED] },
    ],
  },
  {
    name: "a viewing tomorrow evening offers that evening only, not tonight",
    sector: "real-estate",
    turns: [
      {
        say: "can i view the flat on high street tomorrow evening",
        intent: "time-window",
        has: ["Friday, January 16 in the evening", "Fri, Jan 16, 5:00 PM", "(London time)"],
        lacks: ["Thu, Jan 15"],
      },
    ],
  },
];
