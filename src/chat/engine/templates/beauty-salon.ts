import type { BotConfig } from "../bot-config.ts";
import { BEAUTY_SALON_FAQ_PT_ES } from "./beauty-salon-faq-pt-es.ts";
import {
  COMMON_HANDOFF_KEYWORDS,
  DEFAULT_LOW_CONFIDENCE_THRESHOLD,
  DEFAULT_MAX_LOW_CONFIDENCE_TURNS,
} from "./shared.ts";

/** A Sydney hair and beauty salon: southern-hemisphere daylight saving, closed Mondays. */
export const BEAUTY_SALON_TEMPLATE: BotConfig = {
  bot_name: "Bella",
  greeting:
    "Hi lovely! I'm Bella, the salon's assistant. I can tell you about our treatments and prices, or book you in. What are you after today?",
  sector: "beauty-salon",
  language: "en",
  languages: ["en"],
  faq: [
    {
      id: "hours",
      question: "What are your opening hours?",
      answer:
        "We're open Tuesday to Friday 9 am–7 pm (late night Thursday until 9 pm), Saturday 8:30 am–5 pm and Sunday 10 am–4 pm. We're closed on Mondays.",
      keywords: ["hours", "open", "opening times", "closed", "late night", "sunday", "monday"],
    },
    {
      id: "haircut-prices",
      question: "How much is a haircut?",
      answer:
        "A women's cut and blow-dry starts at $85, men's cuts at $45 and kids' cuts (under 12) at $35. Colour starts at $120 for a regrowth tint, and a full head of foils is from $220.",
      keywords: ["price", "prices", "cost", "haircut", "cut", "colour", "color", "foils", "balayage", "price list"],
    },
    {
      id: "patch-test",
      question: "Do I need a patch test before colouring?",
      answer:
        "Yes, if you're new to us or haven't had colour with us in six months. The patch test takes five minutes and must be done at least 48 hours before your colour appointment.",
      keywords: ["patch test", "allergy", "skin test", "colouring", "coloring", "dye"],
    },
    {
      id: "nails",
      question: "Do you do gel nails?",
      answer:
        "Yes: a gel manicure is $55 (45 minutes), a gel pedicure $70 and removal $15, or free when you get a new set. We also do BIAB and acrylic extensions.",
      keywords: ["nails", "gel", "manicure", "pedicure", "biab", "acrylic", "shellac"],
    },
    {
      id: "brows-lashes",
      question: "Do you do brows and lashes?",
      answer:
        "Yes: brow wax and shape $30, brow tint $20, lash lift and tint $95 (60 minutes) and classic lash extensions from $150. A patch test is needed 48 hours before any tint.",
      keywords: ["brows", "eyebrows", "lashes", "eyelashes", "lash lift", "tint", "wax", "waxing"],
    },
    {
      id: "location",
      question: "Where is the salon and where can I park?",
      answer:
        "We're at Shop 4, 112 Crown Street, Surry Hills. There's 2-hour street parking on Crown Street and a Secure Parking garage on Foveaux Street.",
      keywords: ["address", "location", "located", "parking", "park", "directions", "where"],
    },
    {
      id: "cancellation",
      question: "What is your cancellation policy?",
      answer:
        "Please give us 24 hours' notice if you need to cancel or move your booking. Late cancellations and no-shows are charged 50% of the booked service.",
      keywords: ["cancel", "cancellation", "reschedule", "no-show", "late", "move my booking"],
    },
    {
      id: "reaction",
      question: "What should I do if I have a reaction after a treatment?",
      answer:
        "Rinse the area with cool water, don't apply anything else, and call us on (02) 9360 0112 so we can see you straight away. If your face, lips or throat swell or you have trouble breathing, call 000 now.",
      keywords: ["reaction", "allergic", "rash", "burning", "swelling", "itchy", "emergency", "urgent"],
    },
    {
      id: "vouchers",
      question: "Do you sell gift vouchers?",
      answer:
        "Yes — gift vouchers from $50 are available in the salon or online, are valid for three years and can be used on any service or product.",
      keywords: ["gift voucher", "gift card", "voucher", "present", "gift"],
    },
    {
      id: "payment",
      question: "What payment methods do you accept?",
      answer: "We accept cash, all major cards, Apple Pay and Google Pay, and Afterpay for services over $100.",
      keywords: ["payment", "pay", "afterpay", "card", "cash", "apple pay"],
    },
    {
      id: "bridal",
      question: "Do you do bridal hair and makeup?",
      answer:
        "We do! Bridal packages include a trial and on-the-day styling at the salon or on location. Prices start at $280 for the bride; bridesmaids are from $150.",
      keywords: ["bridal", "wedding", "bride", "bridesmaid", "makeup", "make-up", "formal"],
    },
    ...BEAUTY_SALON_FAQ_PT_ES,
  ],
  lead: {
    enabled: true,
    require_phone: false,
    default_country: "AU",
    intent_keywords: ["bridal package", "wedding party", "group booking", "hen party", "corporate"],
  },
  appointments: {
    enabled: true,
    timezone: "Australia/Sydney",
    business_hours: {
      mon: null,
      tue: { open: "09:00", close: "19:00" },
      wed: { open: "09:00", close: "19:00" },
      thu: { open: "09:00", close: "21:00" },
      fri: { open: "09:00", close: "19:00" },
      sat: { open: "08:30", close: "17:00" },
      sun: { open: "10:00", close: "16:00" },
    },
    slot_minutes: 30,
    lead_time_minutes: 60,
    max_days_ahead: 42,
    intent_keywords: ["book in", "blow dry", "blowout", "manicure", "pedicure", "facial", "wax", "appointment for"],
  },
  handoff: {
    keywords: [
      ...COMMON_HANDOFF_KEYWORDS,
      "speak to a stylist",
      "talk to a stylist",
      "speak to the manager",
      "talk to the manager",
    ],
    low_confidence_threshold: DEFAULT_LOW_CONFIDENCE_THRESHOLD,
    max_low_confidence_turns: DEFAULT_MAX_LOW_CONFIDENCE_TURNS,
  },
  allowed_origins: [],
};
