import type { Weekday } from "../bot-config.ts";
import type { Phrases } from "./types.ts";

const WEEKDAYS: Record<Weekday, string> = {
  mon: "Mondays",
  tue: "Tuesdays",
  wed: "Wednesdays",
  thu: "Thursdays",
  fri: "Fridays",
  sat: "Saturdays",
  sun: "Sundays",
};
const FIELD = { name: "your name", phone: "a phone number", email: "your e-mail address" } as const;
const withName = (firstName: string): string => (firstName ? `, ${firstName}` : "");

export const EN: Phrases = {
  quick: {
    book: "Book an appointment",
    human: "Talk to a person",
    yesBook: "Yes, book it",
    otherTime: "Pick another time",
    noThanks: "No thanks",
  },
  greeting: (botName) => `Hi! I'm ${botName}, the virtual assistant. How can I help?`,
  handoff: {
    keyword:
      "Of course — I've asked a member of our team to join this chat. They'll reply right here as soon as they can.",
    low_confidence:
      "I'm sorry I couldn't help with that. I've asked a member of our team to join this chat — they'll reply right here as soon as they can.",
    already: "A member of our team has already been notified and will reply right here as soon as they can.",
    urgent: "I've asked a member of our team to join this chat straight away — they'll reply right here.",
    complaint:
      "I'm sorry about this. I've asked a member of our team to join this chat — they'll reply right here as soon as they can and sort it out with you.",
  },
  handoffAway: {
    offer:
      "Our team is away right now, so nobody can reply at the moment. Leave your name, your phone number or e-mail and your question here: the team sees it first thing when they're back and will get in touch.",
    already: "Your message is with the team: they'll see it first thing when they're back.",
  },
  fallback: "Sorry, I'm not sure I understood. Here are some things I can help with — or rephrase your question.",
  fallbackAfterHandoff: "I'm not sure about that one, but a member of our team will reply here shortly.",
  emptyMessage: "Sorry, I didn't catch that — could you type your question?",
  thanks: "You're welcome! Is there anything else I can help with?",
  dismissed: "No problem. Is there anything else I can help with?",
  goodbye: "Thanks for chatting with us — have a great day!",
  leadStopped: "No problem — I won't take your details. Is there anything else I can help with?",
  bookingStopped: "No problem, I won't book anything. Is there anything else I can help with?",
  askTime: 'Sure! Which day and time would suit you? For example "tomorrow at 10am".',
  otherTime: "No problem — which day and time would suit you better?",
  askTimeAgain: 'Sorry, I didn\'t catch a date. Which day and time would suit you? For example "next Monday at 2pm".',
  bookingDisabled: "We don't take bookings in this chat, but I can have the team call you to arrange a time.",
  softLeadOffer: "If you'd like a personalised quote, I can have the team get in touch.",
  leadIntro: "I'd be happy to help with that — I'll just take a few details so the team can get back to you.",
  phoneWaived: "No problem — the team will reply by e-mail.",
  phoneNeeded:
    "I understand. The team needs a phone number to follow up on this, so I can't pass it on without one. You can keep asking me anything, or tap “Talk to a person” to continue with the team right here.",
  notKnown: "I'm sorry, I don't have that information.",
  notKnownPerson: "A member of our team can tell you — would you like me to ask one to join this chat?",
  notKnownMessage:
    "The team is away right now — would you like to leave them a message? Say yes and I'll take your details.",
  notCovered: "I don't have the answer to that here, but the team does — they'll tell you when they get in touch.",
  changeBooking:
    "I can't change or cancel bookings from this chat, but the team can — tap “Talk to a person” and they'll sort it out with you right here.",
  urgentOffer: "Would you like a member of our team to reply here right now? Tap “Talk to a person”, or just say yes.",
  urgentNoAnswer: "I'm sorry — that sounds urgent.",
  notSureAbout: (part) => `I'm not sure about “${part}” — a member of the team can tell you (tap “Talk to a person”).`,
  zone: (label, timeZone) => `All the times I give are ${label} (${timeZone}).`,
  thanksName: (firstName) => `Thanks, ${firstName}!`,
  askName: "Could I get your name, please?",
  askPhone: "What's the best phone number to reach you on?",
  askEmail: "And your e-mail address?",
  great: "Great.",
  stillNeed: (field) => `Sorry, I still need ${FIELD[field]} to go ahead (or say "cancel" and I'll stop asking).`,
  phoneProblem: {
    too_short: "That phone number looks too short — please include the area code.",
    too_long: "That phone number has too many digits — could you check it?",
    invalid_country: "I couldn't tell which country that number is from — please start it with + and the country code.",
    invalid: "That phone number doesn't look valid — please include the area code.",
  },
  emailProblem: {
    missing_at: "That e-mail address seems to be missing the @ — could you type it again?",
    missing_domain: "That e-mail address is missing its domain (like @example.com) — could you check it?",
    unknown_tld:
      "That e-mail address doesn't end in a real domain — could you check the part after the last dot (like .com)?",
    invalid: "That e-mail address doesn't look right — could you check it?",
  },
  leadThanks: (firstName, phone, email) =>
    `Thank you, ${firstName}! I've passed your details to the team — they'll ${phone ? `contact you on ${phone} or at ${email}` : `reply to you at ${email}`} shortly. Is there anything else I can help with?`,
  detailsKnown: (firstName) =>
    `Thanks — we already have your details${withName(firstName)}. Anything else I can help with?`,
  updatedField: {
    name: (value) => `your name to ${value}`,
    phone: (value) => `your phone number to ${value}`,
    email: (value) => `your e-mail to ${value}`,
  },
  detailsUpdated: (firstName, changes) =>
    `Thanks${withName(firstName)} — I've updated ${changes.join(" and ")}. Anything else I can help with?`,
  offerSlot: (when) => `${when} is available. Shall I book it for you?`,
  shallIBook: (when) => `Shall I book ${when} for you?`,
  answerYesNo: "Please answer yes or no.",
  booked: (when, firstName) =>
    `You're booked in for ${when}${withName(firstName)}! If you need to change it, just let us know. Anything else I can help with?`,
  holdSlot: (when) => `Great — to hold ${when} I just need a couple of details.`,
  whenCome: "When would you like to come in?",
  noted: "Thanks, I've noted that.",
  proposals: (zone, list) => `The nearest free times (${zone}) are: ${list}. Tap one, or tell me another day and time.`,
  noFreeTimes: (days) => `I couldn't find a free time in the next ${days} days — would you like to talk to a person?`,
  haveOn: (when) => `Here's what I have on ${when}.`,
  noFreeOn: (when) => `Sorry, I have no free times on ${when}.`,
  haveWindow: (window) => `Here's what I have ${window}.`,
  noFreeWindow: (window) => `Sorry, I have no free times ${window}.`,
  refusal: {
    past: (when) => `${when} has already passed.`,
    tooSoon: (when, notice) => `${when} is a little too soon — we need at least ${notice} notice.`,
    tooFar: (days) => `I can only book up to ${days} days ahead.`,
    taken: (when) => `Sorry, ${when} is already taken.`,
    misaligned: (minutes, when) =>
      `Appointments start every ${minutes} minutes from opening time, so ${when} isn't a start time.`,
    closedDay: (weekday) => `We're closed on ${WEEKDAYS[weekday]}.`,
    closedHours: (weekday, open, close, when) =>
      `On ${WEEKDAYS[weekday]} we're open ${open}–${close}, so ${when} is outside our hours.`,
  },
  locale: "en-US",
  window: {
    morning: "in the morning",
    afternoon: "in the afternoon",
    evening: "in the evening",
    after: (clock) => `after ${clock}`,
    before: (clock) => `before ${clock}`,
    between: (from, to) => `between ${from} and ${to}`,
  },
  notice: (amount, unit) => {
    if (amount === 1) return unit === "day" ? "a day's" : unit === "hour" ? "an hour's" : "1 minute's";
    return `${amount} ${unit}s'`;
  },
};
