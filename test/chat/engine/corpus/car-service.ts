import { answer, ASKS_NAME, ASKS_PHONE, PERSON_OFFERED, STILL_NEED, type CorpusConversation } from "./types.ts";

const A = (id: string): string => answer("car-service", id);

/** An auto repair shop in Chicago. */
export const CAR_SERVICE_CORPUS: CorpusConversation[] = [
  {
    name: "a car that broke down on the highway is urgent, not a booking",
    sector: "car-service",
    turns: [
      {
        say: "my car broke down on I-90 and wont start, can you tow it",
        intent: "urgent",
        has: [A("breakdown"), PERSON_OFFERED],
        lacks: [ASKS_NAME, "Which day and time"],
        quick: "Talk to a person",
      },
      { say: "yes please asap", intent: "urgent", has: [A("breakdown")] },
    ],
  },
  {
    name: "how long an oil change takes and how much it is, in one message",
    sector: "car-service",
    turns: [
      {
        say: "how long does an oil change take and how much is it",
        intent: "multi-question",
        has: [A("service-duration"), A("oil-change"), "45 minutes", "$49.95"],
      },
    ],
  },
  {
    name: "brake pads price then booking for friday morning in Chicago time",
    sector: "car-service",
    turns: [
      { say: "my brakes are squeaking how much for new pads", intent: "faq", has: [A("brakes")] },
      {
        say: "can i drop my car off friday morning",
        intent: "time-window",
        has: ["Friday, January 16 in the morning", "7:00 AM", "(Chicago time)"],
        lacks: ["12:00 PM", "1:00 PM"],
      },
      { say: "8am", intent: "booking", has: ["Fri, Jan 16, 8:00 AM (Chicago time) is available"] },
      { say: "yes book it", intent: "booking", has: [ASKS_NAME] },
      { say: "Mike Novak", intent: "booking", has: [ASKS_PHONE] },
      {
        say: "312-555-0176",
        intent: "booking",
        has: ["You're booked in for Fri, Jan 16, 8:00 AM (Chicago time), Mike!"],
        actions: ["appointment_booked"],
      },
    ],
  },
  {
    name: "moving a service booking is an appointment change",
    sector: "car-service",
    turns: [
      {
        say: "need to reschedule my service appointment on monday",
        intent: "appointment-change",
        has: [A("cancellation"), "Talk to a person"],
        lacks: ["is available"],
      },
    ],
  },
  {
    name: "loaner car question in the middle of the details form",
    sector: "car-service",
    turns: [
      { say: "I need an estimate for a transmission repair", intent: "lead", has: [ASKS_NAME] },
      {
        say: "do you have loaner cars?",
        intent: "mid-form-question",
        has: [A("loaner"), ASKS_NAME],
        lacks: [STILL_NEED],
      },
      { say: "Carlos Ruiz", intent: "lead", has: ["Thanks, Carlos", ASKS_PHONE] },
    ],
  },
  {
    name: "warranty and financing asked together",
    sector: "car-service",
    turns: [
      {
        say: "will it void my warranty if you service it? also do you do financing",
        intent: "multi-question",
        has: [A("warranty"), A("financing")],
      },
    ],
  },
  {
    name: "check engine light typo",
    sector: "car-service",
    turns: [{ say: "check engin light came on whats a diagnostic cost", intent: "faq", has: [A("diagnostics")] }],
  },
  {
    name: "a car accident is urgent",
    sector: "car-service",
    turns: [
      {
        say: "I was just in an accident, the front end is smashed",
        intent: "urgent",
        has: [A("breakdown"), PERSON_OFFERED],
      },
    ],
  },
  {
    name: "after 3 on saturday: the shop closes at 2, so it says so and offers others",
    sector: "car-service",
    turns: [
      {
        say: "can i book saturday after 3",
        intent: "time-window",
        has: [/no free times on Saturday, January 17 after 3 pm/, "(Chicago time)"],
      },
    ],
  },
  {
    name: "hours on sunday and the address",
    sector: "car-service",
    turns: [
      { say: "are you guys open sundays", intent: "faq", has: [A("hours")] },
      { say: "and where are you located", intent: "faq", has: [A("location")] },
      { say: "cool thx", intent: "small-talk", has: ["You're welcome"] },
    ],
  },
];
