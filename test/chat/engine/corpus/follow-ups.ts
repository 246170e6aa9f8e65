import { answer, ASKS_NAME, FALLBACK, type CorpusConversation } from "./types.ts";

/** Short follow-ups people type while times are on offer: "next wednesday", "any later?", "ok 2". */
export const FOLLOW_UPS: CorpusConversation[] = [
  {
    name: "dental: a bare day after a service question starts a booking; 'any later?' moves on the same day",
    sector: "dental-clinic",
    turns: [
      { say: "i need a cleaning", intent: "faq", has: [answer("dental-clinic", "cleaning-price")] },
      {
        say: "next wednesday",
        intent: "booking",
        has: ["Wednesday, January 21", "8:00 AM", "(New York time)"],
        lacks: [FALLBACK],
      },
      {
        say: "any later?",
        intent: "time-window",
        has: ["Wednesday, January 21 after", "10:00 AM"],
        lacks: ["8:00 AM", "Cancellations"],
      },
      { say: "3pm", intent: "booking", has: ["Wed, Jan 21, 3:00 PM (New York time) is available"] },
      { say: "no", intent: "booking", has: ["I won't book anything"] },
      { say: "never mind", intent: "small-talk", has: ["No problem"], lacks: [FALLBACK] },
    ],
  },
  {
    name: "dental: asking whether a time is New York time gets the zone, then the offer again",
    sector: "dental-clinic",
    turns: [
      {
        say: "book me in friday at 10",
        intent: "booking",
        has: ["Fri, Jan 16, 10:00 AM (New York time) is available"],
      },
      {
        say: "is that new york time?",
        intent: "mid-form-question",
        has: [
          "All the times I give are New York time (America/New_York).",
          "Shall I book Fri, Jan 16, 10:00 AM (New York time)",
        ],
      },
      { say: "yes", intent: "booking", has: [ASKS_NAME] },
    ],
  },
  {
    name: "car: 'tomorrow' alone, then the afternoon of that day, booked with taps and a name",
    sector: "car-service",
    turns: [
      { say: "need an oil change", intent: "faq", has: [answer("car-service", "oil-change")] },
      { say: "tomorrow", intent: "booking", has: ["Friday, January 16", "(Chicago time)"], lacks: [FALLBACK] },
      {
        say: "any in the afternoon",
        intent: "time-window",
        has: ["Friday, January 16 in the afternoon", "12:00 PM"],
        lacks: ["7:00 AM"],
        actions: [],
      },
      { say: "2pm", intent: "booking", has: ["Fri, Jan 16, 2:00 PM (Chicago time) is available"] },
      { say: "yes", intent: "booking", has: [ASKS_NAME] },
      { say: "Jo", intent: "booking" },
      {
        say: "773 555 0164",
        intent: "booking",
        has: ["You're booked in for Fri, Jan 16, 2:00 PM (Chicago time), Jo!"],
        actions: ["appointment_booked"],
      },
    ],
  },
  {
    name: "salon: 'ok 2' after Sunday afternoon was offered means 2 pm that Sunday",
    sector: "beauty-salon",
    turns: [
      { say: "i want to book nails", intent: "booking", has: ["Which day and time"] },
      { say: "sunday afternoon", intent: "time-window", has: ["Sunday, January 18 in the afternoon", "(Sydney time)"] },
      { say: "ok 2", intent: "booking", has: ["Sun, Jan 18, 2:00 PM (Sydney time) is available"] },
      { say: "sure", intent: "booking", has: [ASKS_NAME] },
      {
        say: "Mia Wong 0412 345 678",
        intent: "booking",
        has: ["You're booked in for Sun, Jan 18, 2:00 PM (Sydney time), Mia!"],
        actions: ["appointment_booked"],
      },
    ],
  },
  {
    name: "real estate: 'anything earlier?' on a viewing offer looks before it on the same day",
    sector: "real-estate",
    turns: [
      {
        say: "can i book a viewing monday at 3pm",
        intent: "booking",
        has: ["Mon, Jan 19, 3:00 PM (London time) is available"],
      },
      {
        say: "anything earlier?",
        intent: "time-window",
        has: ["Monday, January 19 before 3 pm", "2:30 PM"],
        lacks: ["3:30 PM"],
      },
    ],
  },
];
