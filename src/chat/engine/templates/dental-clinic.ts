import type { BotConfig } from "../bot-config.ts";
import { DENTAL_CLINIC_FAQ_PT_ES } from "./dental-clinic-faq-pt-es.ts";
import {
  COMMON_HANDOFF_KEYWORDS,
  DEFAULT_LOW_CONFIDENCE_THRESHOLD,
  DEFAULT_MAX_LOW_CONFIDENCE_TURNS,
} from "./shared.ts";

export const DENTAL_CLINIC_TEMPLATE: BotConfig = {
  bot_name: "Ava",
  greeting:
    "Hi! I'm Ava, the virtual assistant at the clinic. I can answer questions about treatments, prices and insurance, or book you in for a visit. How can I help?",
  sector: "dental-clinic",
  language: "en",
  languages: ["en"],
  faq: [
    {
      id: "hours",
      question: "What are your opening hours?",
      answer:
        "We're open Monday to Thursday 8 am–5 pm, Friday 8 am–2 pm and Saturday 9 am–1 pm. We're closed on Sundays and public holidays.",
      keywords: ["hours", "open", "opening times", "closed", "saturday", "sunday", "weekend"],
    },
    {
      id: "cleaning-price",
      question: "How much does a cleaning cost?",
      answer:
        "A check-up with a professional cleaning is $120 without insurance and takes about 45 minutes; x-rays are $45 when needed. Most insurance plans cover two cleanings a year in full.",
      keywords: ["price", "cost", "cleaning", "check-up", "checkup", "hygienist", "fee", "how much"],
    },
    {
      id: "insurance",
      question: "Which dental insurance plans do you accept?",
      answer:
        "We're in-network with Delta Dental, Cigna, Aetna, MetLife and Guardian, and we file claims for most other PPO plans. Please bring your insurance card to your first visit.",
      keywords: ["insurance", "ppo", "delta", "cigna", "aetna", "metlife", "coverage", "in-network", "covered"],
    },
    {
      id: "emergency",
      question: "Do you see dental emergencies?",
      answer:
        "Yes. For severe pain, swelling or a broken tooth, call (212) 555-0100 and we'll see you the same day. Outside opening hours the same number reaches our on-call dentist.",
      keywords: ["emergency", "pain", "toothache", "broken tooth", "chipped", "swelling", "urgent", "same day"],
    },
    {
      id: "location",
      question: "Where are you located and is there parking?",
      answer:
        "We're at 245 Park Avenue South, 2nd floor, New York. Validated parking is available at the garage on East 19th Street, and the 23rd St subway station is a 3-minute walk away.",
      keywords: ["address", "location", "located", "parking", "directions", "where", "subway"],
    },
    {
      id: "financing",
      question: "Do you offer payment plans or financing?",
      answer:
        "Yes — treatment over $500 can be split into 6 or 12 interest-free monthly payments through CareCredit or our in-house plan. We accept all major cards and HSA/FSA cards.",
      keywords: [
        "financing",
        "payment plan",
        "installments",
        "monthly payments",
        "carecredit",
        "hsa",
        "fsa",
        "credit card",
      ],
    },
    {
      id: "cancellation",
      question: "What is your cancellation policy?",
      answer:
        "Please give us at least 24 hours' notice to cancel or reschedule. Late cancellations and missed appointments may be charged a $50 fee.",
      keywords: ["cancel", "cancellation", "reschedule", "no-show", "missed appointment", "late"],
    },
    {
      id: "whitening",
      question: "Do you offer teeth whitening?",
      answer:
        "Yes. In-office whitening takes about 90 minutes and costs $450; custom take-home trays with gel are $250. We check your teeth first to make sure whitening is right for you.",
      keywords: ["whitening", "bleaching", "whiter teeth", "stains"],
    },
    {
      id: "new-patients",
      question: "Are you accepting new patients?",
      answer:
        "Yes, we welcome new patients of all ages, including children from age 3. The first visit includes an exam, x-rays and a cleaning, and takes about an hour.",
      keywords: ["new patient", "first visit", "children", "kids", "family", "accepting"],
    },
    {
      id: "walk-ins",
      question: "Do you accept walk-ins?",
      answer:
        "We see dental emergencies the same day, walk-in or not. For check-ups and cleanings please book ahead — we fit walk-ins in only when there's a gap, so booking saves you a wait.",
      keywords: [
        "walk-in",
        "walk-ins",
        "walkin",
        "walk in",
        "without an appointment",
        "drop in",
        "just turn up",
        "no appointment",
      ],
    },
    {
      id: "orthodontics",
      question: "Do you do Invisalign or braces?",
      answer:
        "Yes — we offer Invisalign clear aligners (usually $3,500–$6,000) and fixed braces (from $4,000), and the first orthodontic consultation is free. Most cases take 12–18 months, and payment plans are available.",
      keywords: [
        "invisalign",
        "aligners",
        "clear aligners",
        "braces",
        "orthodontics",
        "orthodontist",
        "straighten",
        "crooked teeth",
      ],
    },
    {
      id: "implants",
      question: "Do you do dental implants?",
      answer:
        "Yes. A single implant with its crown is usually $3,000–$4,500, depending on whether bone grafting is needed; the consultation and 3D scan cost $95, credited if you go ahead. Treatment takes 3–6 months from start to finish.",
      keywords: ["implant", "implants", "missing tooth", "replace a tooth", "dentures"],
    },
    ...DENTAL_CLINIC_FAQ_PT_ES,
  ],
  lead: {
    enabled: true,
    require_phone: false,
    default_country: "US",
    intent_keywords: ["estimate", "implants", "invisalign", "braces", "veneers", "treatment plan", "crown"],
  },
  appointments: {
    enabled: true,
    timezone: "America/New_York",
    business_hours: {
      mon: { open: "08:00", close: "17:00" },
      tue: { open: "08:00", close: "17:00" },
      wed: { open: "08:00", close: "17:00" },
      thu: { open: "08:00", close: "17:00" },
      fri: { open: "08:00", close: "14:00" },
      sat: { open: "09:00", close: "13:00" },
      sun: null,
    },
    slot_minutes: 30,
    lead_time_minutes: 120,
    max_days_ahead: 60,
    intent_keywords: ["check-up", "checkup", "see a dentist", "see the dentist", "come in"],
  },
  handoff: {
    keywords: [...COMMON_HANDOFF_KEYWORDS, "receptionist", "front desk"],
    low_confidence_threshold: DEFAULT_LOW_CONFIDENCE_THRESHOLD,
    max_low_confidence_turns: DEFAULT_MAX_LOW_CONFIDENCE_TURNS,
  },
  allowed_origins: [],
};
