import { describe, expect, test } from "bun:test";
import { findBestFaq } from "../../../src/chat/engine/faq-search.ts";
import { configForSector, SECTOR_SLUGS } from "../../../src/chat/engine/sector-templates.ts";

/**
 * How visitors actually ask: two or three everyday rephrasings per FAQ topic of every sector
 * template, often with words no FAQ entry uses ("near the clinic", "the house first").
 * Each must find its entry above the template's hand-off threshold.
 */
const REPHRASINGS: Record<string, Record<string, readonly string[]>> = {
  "dental-clinic": {
    hours: ["what time do you open on saturday?", "when are you open?", "are you open on weekends?"],
    "cleaning-price": [
      "how much is a teeth cleaning?",
      "what do you charge for a check-up?",
      "what's the price of a cleaning?",
    ],
    insurance: [
      "do you accept my insurance plan?",
      "do you take Delta Dental?",
      "is my insurance in-network with you?",
    ],
    emergency: ["I have a dental emergency", "I broke a tooth, what should I do?", "my tooth is in a lot of pain"],
    location: ["where can I park near you?", "Is there parking near the clinic?", "what's your address?"],
    financing: ["can I pay in monthly installments?", "do you have payment plans?", "can I use CareCredit?"],
    cancellation: [
      "what happens if I cancel my appointment?",
      "is there a fee for cancelling late?",
      "how much notice do you need to reschedule?",
    ],
    whitening: ["how much is teeth whitening?", "can you make my teeth whiter?", "do you do whitening?"],
    "new-patients": ["are you taking new patients?", "do you treat children?", "can my kids come to you?"],
    "walk-ins": ["can I just walk in?", "do I need an appointment or can I drop in?", "do you take walk ins"],
    orthodontics: ["how much is invisalign?", "do you do braces for adults?", "can you straighten crooked teeth?"],
    implants: ["how much is a dental implant?", "can you replace a missing tooth?", "do you do implants"],
  },
  "real-estate": {
    hours: ["what time does your office open on saturday?", "when is the office open?", "are you open on sundays?"],
    valuation: ["what's my home worth?", "do you do free valuations?", "can you value my house?"],
    "selling-fees": [
      "what commission do you charge?",
      "how much are your selling fees?",
      "what are your fees to sell my flat?",
    ],
    "renting-costs": [
      "how much deposit do I need to rent a flat?",
      "what are the upfront costs of renting?",
      "what is the holding deposit?",
    ],
    viewings: ["how do I arrange a viewing?", "how do property viewings work?", "can I view the house first?"],
    mortgage: [
      "can you help me find a mortgage?",
      "do you have a mortgage broker?",
      "I'm a first-time buyer, can you help?",
    ],
    location: ["where is your office located?", "what's your address?", "is there parking at your office?"],
    pets: ["can I rent with a dog?", "do you allow pets?", "are any of your rentals pet friendly?"],
    documents: [
      "what paperwork do I need to rent?",
      "which documents do you need from tenants?",
      "do I need references to rent?",
    ],
    "emergency-repairs": [
      "who do I call for an emergency repair?",
      "my landlord isn't answering about a repair",
      "is there a maintenance line for repairs?",
    ],
    cancellation: ["can I cancel my viewing?", "how do I rearrange a viewing?", "I need to reschedule my viewing"],
  },
  "beauty-salon": {
    hours: ["what time do you open on saturday?", "are you open late on thursdays?", "are you open on sunday?"],
    "haircut-prices": [
      "how much for a women's haircut?",
      "what's the price of a cut and colour?",
      "how much does balayage cost?",
    ],
    "patch-test": [
      "do I need an allergy test before colour?",
      "do you do patch tests for hair dye?",
      "is a skin test needed before colouring?",
    ],
    nails: ["do you do manicures?", "can I get gel nails done?", "do you offer acrylic nails?"],
    "brows-lashes": ["do you do eyebrow waxing?", "can I get a lash lift?", "do you tint eyelashes?"],
    location: ["where can I park near the salon?", "what's your address?", "where are you located?"],
    cancellation: [
      "what if I need to cancel my booking?",
      "can I reschedule my appointment?",
      "is there a fee for no-shows?",
    ],
    vouchers: ["can I buy a gift card?", "do you have gift vouchers?", "I'd like a voucher as a present"],
    reaction: [
      "what if I get a reaction after my treatment?",
      "what should I do about a rash after waxing?",
      "I'm allergic, what do I do after a reaction",
    ],
    payment: ["can I pay with Afterpay?", "do you take cards?", "do you accept cash?"],
    bridal: ["do you do wedding hair?", "can you do makeup for my bridesmaids?", "do you offer bridal packages?"],
  },
  "car-service": {
    hours: ["what time do you open on saturday?", "are you open on sundays?", "when do you close?"],
    "oil-change": [
      "how much for an oil change?",
      "what do you charge for synthetic oil?",
      "what does an oil change cost?",
    ],
    "service-duration": [
      "how long will the service take?",
      "can I wait while you service my car?",
      "will my car be ready the same day?",
    ],
    loaner: ["can I get a courtesy car?", "do you have a shuttle service?", "do you offer loaner cars?"],
    warranty: [
      "will it void my warranty?",
      "do I have to go to the dealer to keep my warranty?",
      "will servicing here affect my manufacturer warranty?",
    ],
    brakes: ["my brakes are squeaking", "how much for new brake pads?", "do you replace rotors?"],
    diagnostics: ["my engine light came on", "how much is a diagnostic?", "can you scan a warning light code?"],
    financing: ["do you offer payment plans for repairs?", "can I finance a big repair?", "can I pay later?"],
    location: ["where are you located?", "what's the shop address?", "is there parking at the shop?"],
    cancellation: ["can I move my appointment?", "how do I cancel my service?", "I need to reschedule my booking"],
    breakdown: ["my car broke down, can you help?", "do you do towing?", "can you tow my car?"],
  },
  general: {
    hours: ["what time do you open?", "are you open on weekends?", "when do you close?"],
    location: ["where are you?", "what's your address?", "where can I park?"],
    pricing: ["how much do you charge?", "what are your rates?", "what are your prices?"],
    payment: ["can I pay by card?", "do you accept bank transfer?", "can you send me an invoice?"],
    "response-time": ["how long until you reply?", "when will you get back to me?", "how fast do you respond?"],
    cancellation: ["can I get a refund?", "how do I cancel?", "can I reschedule?"],
    urgent: ["who can help with something urgent?", "it's an emergency", "I have an urgent problem"],
  },
};

describe("FAQ search: everyday rephrasings of every template's questions", () => {
  // Entries in Portuguese and Spanish have their own phrasings in languages.test.ts.
  test("the table covers every English FAQ entry of every template", () => {
    for (const slug of SECTOR_SLUGS) {
      const english = configForSector(slug).faq.filter((entry) => entry.language === undefined);
      expect(Object.keys(REPHRASINGS[slug] ?? {}).sort()).toEqual(english.map((entry) => entry.id).sort());
    }
  });

  for (const [slug, topics] of Object.entries(REPHRASINGS)) {
    const config = configForSector(slug);
    for (const [id, messages] of Object.entries(topics)) {
      for (const message of messages) {
        test(`${slug}: "${message}" finds "${id}" confidently`, () => {
          const match = findBestFaq(config.faq, message);
          expect(match?.entry.id).toBe(id);
          expect(match?.confidence ?? 0).toBeGreaterThan(config.handoff.low_confidence_threshold);
        });
      }
    }
  }

  test("gibberish and off-topic questions stay below the threshold in every template", () => {
    const offTopic = [
      "blorp zib quantum llama",
      "frobnicate the wibble",
      "where is the nearest hospital",
      "who won the game last night",
      "can you help me with my homework",
      "what is the meaning of life",
    ];
    const confident = SECTOR_SLUGS.flatMap((slug) => {
      const config = configForSector(slug);
      return offTopic
        .map((message) => ({ slug, message, match: findBestFaq(config.faq, message) }))
        .filter(({ match }) => (match?.confidence ?? 0) >= config.handoff.low_confidence_threshold)
        .map(({ message, match }) => `${slug}: "${message}" -> ${match?.entry.id} ${match?.confidence}`);
    });
    expect(confident).toEqual([]);
  });
});
