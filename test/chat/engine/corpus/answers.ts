import { CLINIC_OPEN_MS, type CorpusConversation } from "./types.ts";

/**
 * Answers a business can leave alone with its visitors: no false "yes", answers before forms,
 * follow-ups on the last topic, details in any order, complaints handed to a person, and the
 * same in Portuguese and Spanish. Run at 09:00 UTC, when the clinic and the shop are closed.
 */

const THREE = ["en", "pt", "es"] as const;
const NO_INFO = "I don't have that information";

export const ANSWERS: CorpusConversation[] = [
  {
    name: "medicaid is not answered with the new-patients entry",
    sector: "dental-clinic",
    turns: [
      {
        say: "do you accept medicaid?",
        intent: "no-answer",
        has: [NO_INFO, "leave them a message"],
        lacks: ["new patients", /^Yes/],
      },
    ],
  },
  {
    name: "electric cars are not answered with the shuttle entry",
    sector: "car-service",
    turns: [
      { say: "do you work on electric cars like teslas?", intent: "no-answer", has: [NO_INFO], lacks: ["shuttle"] },
    ],
  },
  {
    name: "braces in installments: the payment plans before any detail",
    sector: "dental-clinic",
    turns: [
      {
        say: "can i pay for braces in installments?",
        intent: "faq",
        has: ["6 or 12 interest-free monthly payments"],
        lacks: [/^I'd be happy/],
      },
    ],
  },
  {
    name: "full synthetic price and how long: both answered first",
    sector: "car-service",
    turns: [
      {
        say: "how much for a full synthetic oil change and how long will it take?",
        intent: "multi-question",
        has: ["full synthetic $89.95", "An oil change takes about 45 minutes"],
      },
    ],
  },
  {
    name: "in-office whitening, then 'and the take-home one?'",
    sector: "dental-clinic",
    turns: [
      { say: "how much is in-office whitening?", intent: "faq", has: ["costs $450"] },
      {
        say: "and the take-home one?",
        intent: "follow-up",
        has: ["take-home trays with gel are $250"],
        lacks: ["not sure"],
      },
    ],
  },
  {
    name: "the manager and an angry refund demand hand off",
    sector: "dental-clinic",
    at: CLINIC_OPEN_MS,
    turns: [
      { say: "this is ridiculous, i want to talk to the manager", intent: "handoff", actions: ["handoff"] },
      { say: "I was charged twice and I want a refund", intent: "handoff", has: ["already been notified"] },
    ],
  },
  {
    name: "'just email me' is honoured where the clinic allows it",
    sector: "dental-clinic",
    turns: [
      { say: "i want a quote for invisalign", intent: "lead", has: ["Could I get your name"] },
      { say: "Ana Lopez", intent: "lead" },
      {
        say: "I'd rather not give my phone number, can you just email me?",
        intent: "lead",
        has: ["reply by e-mail", "your e-mail address"],
        lacks: ["phone number to reach you"],
      },
      { say: "ana@example.com", intent: "lead", actions: ["lead_captured"] },
    ],
  },
  {
    name: "a booking offer answered with name, phone and e-mail is booked and the lead saved",
    sector: "dental-clinic",
    turns: [
      { say: "can I book tuesday at 12pm?", intent: "booking", has: ["Shall I book it for you?"] },
      { say: "Ana Lopez", intent: "booking", has: ["to hold Tue, Jan 20, 12:00 PM"], lacks: ["Could I get your name"] },
      { say: "+1 212 555 0187", intent: "booking", actions: ["appointment_booked"] },
      { say: "ana@example.com", intent: "lead", actions: ["lead_captured"] },
    ],
  },
  {
    name: "pt: a breakdown on the road is an emergency with the tow number",
    sector: "car-service",
    languages: [...THREE],
    turns: [
      {
        say: "meu carro quebrou na estrada, preciso de um guincho urgente",
        intent: "urgent",
        has: ["(312) 555-0142", "Falar com uma pessoa"],
      },
      { say: "sim", intent: "handoff", actions: ["handoff"] },
    ],
  },
  {
    name: "pt and es price and parking questions get their own language's entries",
    sector: "car-service",
    languages: [...THREE],
    turns: [
      { say: "hola, tienen estacionamiento?", intent: "faq", has: ["estacionamiento gratis para clientes"] },
      { say: "¿cuánto cuesta el cambio de aceite?", intent: "faq", has: ["sintético 89,95 USD"] },
    ],
  },
  {
    name: "pt: a cleaning price, then the name asked in Portuguese",
    sector: "dental-clinic",
    languages: [...THREE],
    turns: [{ say: "Oi, quanto custa uma limpeza?", intent: "faq", has: ["custa US$ 120", "Pode me dizer seu nome"] }],
  },
  {
    name: "pt: a women's cut price at the salon",
    sector: "beauty-salon",
    languages: [...THREE],
    turns: [
      { say: "quanto custa um corte feminino?", intent: "faq", has: ["Corte feminino com escova a partir de US$ 85"] },
    ],
  },
  {
    name: "es: a booking tomorrow afternoon with the details in one message",
    sector: "dental-clinic",
    languages: [...THREE],
    turns: [
      { say: "quiero una cita mañana por la tarde", intent: "time-window", has: ["Fri, Jan 16, 12:00 PM"] },
      { say: "Fri, Jan 16, 1:00 PM", intent: "booking", has: ["¿Te la reservo?"] },
      {
        say: "me llamo Luis García, 212 555 0142",
        intent: "booking",
        actions: ["appointment_booked"],
        has: ["¡Reservado para Fri, Jan 16, 1:00 PM"],
      },
    ],
  },
  {
    name: "es: a complaint hands off with an apology",
    sector: "beauty-salon",
    languages: [...THREE],
    turns: [
      {
        say: "esto es inaceptable, exijo un reembolso",
        intent: "handoff",
        actions: ["handoff"],
        has: ["Lamento mucho"],
      },
    ],
  },
];
