import type { BotConfig } from "../bot-config.ts";
import { CAR_SERVICE_FAQ_PT_ES } from "./car-service-faq-pt-es.ts";
import {
  COMMON_HANDOFF_KEYWORDS,
  DEFAULT_LOW_CONFIDENCE_THRESHOLD,
  DEFAULT_MAX_LOW_CONFIDENCE_TURNS,
} from "./shared.ts";

/** An independent auto repair shop in Chicago: hour-long service slots, early opening. */
export const CAR_SERVICE_TEMPLATE: BotConfig = {
  bot_name: "Max",
  greeting:
    "Hi, I'm Max from the service desk. I can answer questions about servicing, repairs and prices, get you a quote, or book your car in. What can I do for you?",
  sector: "car-service",
  language: "en",
  languages: ["en"],
  faq: [
    {
      id: "hours",
      question: "What are your opening hours?",
      answer: "The shop is open Monday to Friday 7 am–6 pm and Saturday 8 am–2 pm. We're closed on Sundays.",
      keywords: ["hours", "open", "opening times", "closed", "saturday", "sunday"],
    },
    {
      id: "oil-change",
      question: "How much is an oil change?",
      answer:
        "A conventional oil change is $49.95, synthetic blend $69.95 and full synthetic $89.95. Each includes a new filter, a 21-point inspection and a tire pressure check.",
      keywords: ["oil change", "oil", "lube", "synthetic", "price", "cost"],
    },
    {
      id: "service-duration",
      question: "How long does a service take?",
      answer:
        "An oil change takes about 45 minutes and a full scheduled service 2–3 hours. You're welcome to wait in our lounge (free Wi-Fi and coffee) or drop the car off.",
      keywords: ["how long", "duration", "wait", "waiting", "same day", "ready"],
    },
    {
      id: "loaner",
      question: "Do you offer a loaner car or shuttle?",
      answer:
        "Yes — our free shuttle runs within 5 miles of the shop, and loaner cars are available for repairs over $500 if you reserve one when booking.",
      keywords: ["loaner", "courtesy car", "shuttle", "ride", "rental"],
    },
    {
      id: "warranty",
      question: "Will servicing with you void my manufacturer warranty?",
      answer:
        "No. Federal law (the Magnuson-Moss Warranty Act) lets you service your car anywhere. We use OEM-spec parts and fluids and stamp your service book, and our own repairs carry a 24-month / 24,000-mile warranty.",
      keywords: ["warranty", "void", "dealer", "oem", "guarantee"],
    },
    {
      id: "brakes",
      question: "How much do brake pads cost?",
      answer:
        "Brake pad replacement is usually $189–$289 per axle, depending on the vehicle. If the rotors need replacing too, we'll show you and quote before doing any work.",
      keywords: ["brakes", "brake pads", "rotors", "squeaking", "grinding"],
    },
    {
      id: "diagnostics",
      question: "My check engine light is on — what does a diagnostic cost?",
      answer:
        "A computer diagnostic is $99 and takes about an hour. If you go ahead with the repair, the $99 is credited toward it.",
      keywords: ["check engine", "engine light", "diagnostic", "warning light", "code scan"],
    },
    {
      id: "financing",
      question: "Do you offer financing for repairs?",
      answer:
        "Yes. Repairs over $300 can be financed with 6 months interest-free through Synchrony Car Care. We also accept all major cards, cash and Apple Pay.",
      keywords: ["financing", "payment plan", "pay later", "synchrony", "payment", "credit"],
    },
    {
      id: "location",
      question: "Where is the shop located?",
      answer:
        "We're at 2150 N Elston Ave, Chicago, IL 60614, just off I-90/94 at the Fullerton exit, with free customer parking.",
      keywords: ["address", "location", "located", "directions", "where", "parking"],
    },
    {
      id: "breakdown",
      question: "My car broke down — can you help?",
      answer:
        "Call us on (312) 555-0142 and we'll send our tow partner, usually within an hour in Chicago (free towing to our shop within 10 miles when we do the repair). If you're on a highway or anyone is hurt, get to safety and call 911 first.",
      keywords: [
        "breakdown",
        "broke down",
        "broken down",
        "tow",
        "towing",
        "won't start",
        "stranded",
        "emergency",
        "accident",
      ],
    },
    {
      id: "cancellation",
      question: "Can I cancel or reschedule my service?",
      answer:
        "Yes, free of charge with at least 4 hours' notice. If you reserved a loaner car, please cancel 24 hours ahead so we can offer it to someone else.",
      keywords: ["cancel", "cancellation", "reschedule", "change my booking", "move my appointment"],
    },
    ...CAR_SERVICE_FAQ_PT_ES,
  ],
  lead: {
    enabled: true,
    require_phone: true,
    default_country: "US",
    intent_keywords: ["estimate", "repair", "fleet", "new tires", "transmission", "bodywork"],
  },
  appointments: {
    enabled: true,
    timezone: "America/Chicago",
    business_hours: {
      mon: { open: "07:00", close: "18:00" },
      tue: { open: "07:00", close: "18:00" },
      wed: { open: "07:00", close: "18:00" },
      thu: { open: "07:00", close: "18:00" },
      fri: { open: "07:00", close: "18:00" },
      sat: { open: "08:00", close: "14:00" },
      sun: null,
    },
    slot_minutes: 60,
    lead_time_minutes: 120,
    max_days_ahead: 30,
    intent_keywords: [
      "drop off",
      "drop my car",
      "bring my car",
      "bring in my car",
      "book my car",
      "inspection",
      "service appointment",
    ],
  },
  handoff: {
    keywords: [
      ...COMMON_HANDOFF_KEYWORDS,
      "agent",
      "talk to a mechanic",
      "speak to a mechanic",
      "service advisor",
      "speak to the manager",
    ],
    low_confidence_threshold: DEFAULT_LOW_CONFIDENCE_THRESHOLD,
    max_low_confidence_turns: DEFAULT_MAX_LOW_CONFIDENCE_TURNS,
  },
  allowed_origins: [],
};
