import type { BotConfig } from "../bot-config.ts";
import {
  COMMON_HANDOFF_KEYWORDS,
  DEFAULT_LOW_CONFIDENCE_THRESHOLD,
  DEFAULT_MAX_LOW_CONFIDENCE_TURNS,
} from "./shared.ts";

/**
 * A UK estate and letting agency. Its hand-off keywords leave out a bare "agent": visitors
 * say "estate agent" and "letting agent" all the time without asking for a human.
 */
export const REAL_ESTATE_TEMPLATE: BotConfig = {
  bot_name: "Harper",
  greeting:
    "Hello! I'm Harper from the sales and lettings team. Looking to buy, rent or sell, or want to book a viewing? Ask me anything.",
  sector: "real-estate",
  language: "en",
  languages: ["en"],
  faq: [
    {
      id: "hours",
      question: "What are your office opening hours?",
      answer:
        "Our office is open Monday to Friday 9 am–6 pm and Saturday 10 am–4 pm. We're closed on Sundays and bank holidays.",
      keywords: ["hours", "open", "opening times", "closed", "saturday", "sunday"],
    },
    {
      id: "valuation",
      question: "How much does a property valuation cost?",
      answer:
        "Our market valuations are free with no obligation. A valuer visits for about 45 minutes and sends you a written report within 48 hours.",
      keywords: ["valuation", "value my home", "worth", "appraisal", "free valuation"],
    },
    {
      id: "selling-fees",
      question: "What are your fees for selling a property?",
      answer:
        "Our sales fee is 1.2% + VAT of the agreed price on a no-sale, no-fee basis. It includes professional photos, floor plans and listings on Rightmove and Zoopla.",
      keywords: ["selling fee", "commission", "sell", "selling", "fees", "rightmove", "zoopla"],
    },
    {
      id: "renting-costs",
      question: "What do I need to pay to rent a property?",
      answer:
        "Tenants pay a holding deposit of one week's rent and a security deposit of five weeks' rent, protected with the DPS. We charge no other tenant fees, in line with the Tenant Fees Act.",
      keywords: ["deposit", "rent", "renting", "tenant fees", "holding deposit", "letting", "costs", "upfront"],
    },
    {
      id: "viewings",
      question: "How do viewings work?",
      answer:
        "Viewings take 20–30 minutes and one of our negotiators goes with you. We run them Monday to Saturday, and evening viewings until 7 pm can be arranged on request.",
      keywords: ["viewing", "viewings", "view", "see the property", "visit"],
    },
    {
      id: "mortgage",
      question: "Can you help me get a mortgage?",
      answer:
        "Yes — our independent mortgage adviser compares deals from over 90 lenders and can usually get you an agreement in principle within 24 hours, at no cost to you.",
      keywords: ["mortgage", "agreement in principle", "lender", "broker", "first-time buyer"],
    },
    {
      id: "location",
      question: "Where is your office?",
      answer:
        "We're at 18 High Street, Richmond, TW9 1DN, two minutes from Richmond station. Free 30-minute parking is available on Paradise Road.",
      keywords: ["address", "office", "location", "located", "parking", "directions", "where"],
    },
    {
      id: "pets",
      question: "Do you have pet-friendly rentals?",
      answer:
        "Many of our landlords accept pets. Filter for 'pets considered' on our website, or tell us what pets you have and we'll shortlist suitable homes.",
      keywords: ["pets", "pet", "dog", "cat", "pet-friendly"],
    },
    {
      id: "documents",
      question: "What documents do I need to rent?",
      answer:
        "You'll need photo ID, proof of your right to rent in the UK, your last three months' payslips or bank statements, and a reference from your previous landlord. Referencing takes 3–5 working days.",
      keywords: ["documents", "paperwork", "referencing", "references", "right to rent", "payslips", "id"],
    },
    {
      id: "emergency-repairs",
      question: "Who do I call for an emergency repair in my rental?",
      answer:
        "For a property we manage, call our 24-hour maintenance line on 020 7946 0999 — for a burst pipe, turn the water off at the stopcock first. If you smell gas, leave the property and call the National Gas Emergency line on 0800 111 999.",
      keywords: [
        "emergency",
        "repair",
        "maintenance",
        "burst pipe",
        "leak",
        "flooding",
        "boiler",
        "no heating",
        "locked out",
        "landlord",
      ],
    },
    {
      id: "cancellation",
      question: "Can I cancel or rearrange a viewing?",
      answer:
        "Of course — just let us know as early as you can, ideally 24 hours before, so we can tell the current occupants.",
      keywords: ["cancel", "cancellation", "rearrange", "reschedule", "change my viewing"],
    },
  ],
  lead: {
    enabled: true,
    require_phone: true,
    default_country: "GB",
    intent_keywords: [
      "valuation",
      "sell my house",
      "sell my home",
      "sell my flat",
      "list my property",
      "make an offer",
      "let my property",
    ],
  },
  appointments: {
    enabled: true,
    timezone: "Europe/London",
    business_hours: {
      mon: { open: "09:00", close: "18:00" },
      tue: { open: "09:00", close: "18:00" },
      wed: { open: "09:00", close: "18:00" },
      thu: { open: "09:00", close: "18:00" },
      fri: { open: "09:00", close: "18:00" },
      sat: { open: "10:00", close: "16:00" },
      sun: null,
    },
    slot_minutes: 30,
    lead_time_minutes: 240,
    max_days_ahead: 30,
    intent_keywords: ["viewing", "view the property", "see the property", "see the flat", "see the house"],
  },
  handoff: {
    keywords: [
      ...COMMON_HANDOFF_KEYWORDS,
      "speak to a negotiator",
      "talk to a negotiator",
      "speak to the manager",
      "branch manager",
    ],
    low_confidence_threshold: DEFAULT_LOW_CONFIDENCE_THRESHOLD,
    max_low_confidence_turns: DEFAULT_MAX_LOW_CONFIDENCE_TURNS,
  },
  allowed_origins: [],
};
