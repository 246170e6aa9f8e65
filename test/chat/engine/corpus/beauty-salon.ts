import {
  answer,
  ASKS_EMAIL,
  ASKS_NAME,
  ASKS_PHONE,
  PERSON_OFFERED,
  STILL_NEED,
  type CorpusConversation,
} from "./types.ts";

const A = (id: string): string => answer("beauty-salon", id);

/** A Sydney hair and beauty salon. */
export const BEAUTY_SALON_CORPUS: CorpusConversation[] = [
  {
    name: "gel manicure price, lash lifts and parking in one message",
    sector: "beauty-salon",
    turns: [
      {
        say: "hi! how much is a gel mani and do you do lash lifts? also is there parking",
        intent: "multi-question",
        has: [A("nails"), A("brows-lashes"), A("location")],
      },
    ],
  },
  {
    name: "a reaction after a brow tint is urgent",
    sector: "beauty-salon",
    turns: [
      {
        say: "i had my brows tinted yesterday and now my skin is burning and swollen",
        intent: "urgent",
        has: [A("reaction"), PERSON_OFFERED],
        lacks: [ASKS_NAME],
      },
      { say: "yes pls", intent: "handoff", actions: ["handoff"] },
    ],
  },
  {
    name: "bridal package enquiry: answer, then the details, with a question in between",
    sector: "beauty-salon",
    turns: [
      { say: "how much is your bridal package", intent: "lead", has: [A("bridal"), "personalised quote"] },
      { say: "my name is Emily Nguyen", intent: "lead", has: ["Thanks, Emily", ASKS_PHONE] },
      {
        say: "do i need a patch test for lash tint?",
        intent: "mid-form-question",
        has: [/patch test/, "48 hours", ASKS_PHONE],
        lacks: [STILL_NEED],
      },
      { say: "0412 345 678", intent: "lead", has: [ASKS_EMAIL] },
      { say: "emily.nguyen@gmail.com", intent: "lead", has: ["Thank you, Emily!"], actions: ["lead_captured"] },
    ],
  },
  {
    name: "thursday evening haircut: late-night slots in Sydney time",
    sector: "beauty-salon",
    turns: [
      {
        say: "can i book a haircut thursday evening",
        intent: "time-window",
        has: ["in the evening", "5:00 PM", "(Sydney time)"],
        lacks: ["9:00 AM", "12:00 PM"],
      },
      { say: "7:30pm", intent: "booking", has: ["7:30 PM (Sydney time) is available"] },
    ],
  },
  {
    name: "moving a booking to next week is a change, explained with the salon's policy",
    sector: "beauty-salon",
    turns: [
      {
        say: "hey can i move my booking to next week",
        intent: "appointment-change",
        has: [A("cancellation"), "Talk to a person"],
        lacks: ["Here's what I have"],
      },
    ],
  },
  {
    name: "gift vouchers and afterpay asked together",
    sector: "beauty-salon",
    turns: [
      {
        say: "do you sell gift cards and can i pay with afterpay?",
        intent: "multi-question",
        has: [A("vouchers"), A("payment")],
      },
    ],
  },
  {
    name: "closed on monday, lower case",
    sector: "beauty-salon",
    turns: [
      { say: "r u open mondays", intent: "faq", has: [A("hours")] },
      { say: "ok thanks bye", intent: "small-talk", has: [/welcome|great day/] },
    ],
  },
  {
    name: "a foils price question typo'd",
    sector: "beauty-salon",
    turns: [{ say: "how much for a full head of foils??", intent: "faq", has: [A("haircut-prices")] }],
  },
  {
    name: "wanting to speak to a stylist hands off",
    sector: "beauty-salon",
    turns: [{ say: "can i talk to a stylist", intent: "handoff", actions: ["handoff"] }],
  },
  {
    name: "how long a lash lift takes gets the duration",
    sector: "beauty-salon",
    turns: [{ say: "how long does a lash lift take", intent: "duration", has: ["60 minutes"] }],
  },
];
