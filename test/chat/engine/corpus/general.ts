import {
  answer,
  ASKS_EMAIL,
  ASKS_NAME,
  ASKS_PHONE,
  PERSON_OFFERED,
  STILL_NEED,
  type CorpusConversation,
} from "./types.ts";

const A = (id: string): string => answer("general", id);

/** The general template: what any business starts from. */
export const GENERAL_CORPUS: CorpusConversation[] = [
  {
    name: "prices and payment methods asked together",
    sector: "general",
    turns: [
      {
        say: "how much do you charge? and do you take cards",
        intent: "multi-question",
        has: [A("pricing"), A("payment")],
      },
    ],
  },
  {
    name: "something urgent asap reaches the urgent answer and a person",
    sector: "general",
    turns: [
      { say: "i need help asap its urgent", intent: "urgent", has: [A("urgent"), PERSON_OFFERED], lacks: [ASKS_NAME] },
    ],
  },
  {
    name: "a call-back request with a question mid-form and a corrected e-mail",
    sector: "general",
    turns: [
      { say: "can someone call me back about a quote", intent: "lead", has: [ASKS_NAME] },
      { say: "Hi, it's Ben Carter", intent: "lead", has: ["Thanks, Ben", ASKS_PHONE] },
      {
        say: "how quickly do you usually reply?",
        intent: "mid-form-question",
        has: [A("response-time"), ASKS_PHONE],
        lacks: [STILL_NEED],
      },
      { say: "(555) 201-4477", intent: "lead", lacks: [STILL_NEED] },
      { say: "202 555 0198", intent: "lead", has: [ASKS_EMAIL] },
      { say: "ben@carter.co", intent: "lead", has: ["Thank you, Ben!"], lacks: ["Hi"], actions: ["lead_captured"] },
      {
        say: "actually use ben.carter@gmail.com instead",
        intent: "contact-correction",
        has: ["updated your e-mail to ben.carter@gmail.com"],
        actions: ["lead_updated"],
      },
    ],
  },
  {
    name: "cancelling an appointment is explained, not mistaken for stopping",
    sector: "general",
    turns: [
      {
        say: "how do i cancel my appointment for tomorrow",
        intent: "appointment-change",
        has: [A("cancellation"), "Talk to a person"],
        lacks: ["is available"],
      },
    ],
  },
  {
    name: "a time after 2pm next monday in New York time",
    sector: "general",
    turns: [
      {
        say: "can we book a call monday after 2pm",
        intent: "time-window",
        has: ["after 2 pm", "2:00 PM", "(New York time)"],
        lacks: ["9:00 AM", "10:00 AM"],
      },
    ],
  },
  {
    name: "opening hours and where they are, informal",
    sector: "general",
    turns: [
      { say: "hey what time r u open", intent: "faq", has: [A("hours")] },
      { say: "where r u", intent: "faq", has: [A("location")] },
    ],
  },
  {
    name: "a real person on request",
    sector: "general",
    turns: [{ say: "can i talk to a human", intent: "handoff", actions: ["handoff"] }],
  },
];
