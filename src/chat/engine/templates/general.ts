import type { BotConfig } from "../bot-config.ts";
import {
  COMMON_HANDOFF_KEYWORDS,
  DEFAULT_LOW_CONFIDENCE_THRESHOLD,
  DEFAULT_MAX_LOW_CONFIDENCE_TURNS,
} from "./shared.ts";

/** The fallback for any business: neutral wording the owner is expected to edit. */
export const GENERAL_TEMPLATE: BotConfig = {
  bot_name: "Assistant",
  greeting:
    "Hi! I'm the virtual assistant. Ask me a question, leave your details for a call back, or book a time to talk.",
  sector: "general",
  language: "en",
  languages: ["en"],
  faq: [
    {
      id: "hours",
      question: "What are your opening hours?",
      answer:
        "We're open Monday to Friday, 9 am to 5 pm. Messages sent outside these hours are answered the next business day.",
      keywords: ["hours", "open", "opening times", "closed", "weekend"],
    },
    {
      id: "location",
      question: "Where are you located?",
      answer: "You'll find our address and directions on the Contact page of our website. Visits are by appointment.",
      keywords: ["address", "location", "located", "directions", "where", "parking"],
    },
    {
      id: "pricing",
      question: "How much do your services cost?",
      answer:
        "Prices depend on what you need. Leave your name, phone number and e-mail and we'll send you a tailored quote within one business day.",
      keywords: ["price", "prices", "pricing", "cost", "rates", "fees", "how much", "charge"],
    },
    {
      id: "payment",
      question: "What payment methods do you accept?",
      answer: "We accept all major credit and debit cards and bank transfer. Invoices are due within 14 days.",
      keywords: ["payment", "pay", "card", "invoice", "bank transfer"],
    },
    {
      id: "response-time",
      question: "How quickly will you get back to me?",
      answer: "We reply to every enquiry within one business day, usually much sooner.",
      keywords: ["response time", "respond", "get back", "reply", "call back", "how long", "quickly"],
    },
    {
      id: "urgent",
      question: "I have an urgent problem — who can help?",
      answer:
        "For anything urgent, call us during opening hours and we'll put you straight through to someone who can help.",
      keywords: ["urgent", "emergency", "asap", "right away"],
    },
    {
      id: "cancellation",
      question: "What is your cancellation policy?",
      answer: "You can cancel or reschedule free of charge up to 24 hours before your appointment.",
      keywords: ["cancel", "cancellation", "reschedule", "refund"],
    },
  ],
  lead: { enabled: true, require_phone: false, default_country: "US", intent_keywords: [] },
  appointments: {
    enabled: true,
    timezone: "America/New_York",
    business_hours: {
      mon: { open: "09:00", close: "17:00" },
      tue: { open: "09:00", close: "17:00" },
      wed: { open: "09:00", close: "17:00" },
      thu: { open: "09:00", close: "17:00" },
      fri: { open: "09:00", close: "17:00" },
      sat: null,
      sun: null,
    },
    slot_minutes: 30,
    lead_time_minutes: 60,
    max_days_ahead: 30,
    intent_keywords: [],
  },
  handoff: {
    keywords: [...COMMON_HANDOFF_KEYWORDS, "agent"],
    low_confidence_threshold: DEFAULT_LOW_CONFIDENCE_THRESHOLD,
    max_low_confidence_turns: DEFAULT_MAX_LOW_CONFIDENCE_TURNS,
  },
  allowed_origins: [],
};
