import type { Weekday } from "../bot-config.ts";
import type { Phrases } from "./types.ts";

const WEEKDAYS: Record<Weekday, string> = {
  mon: "los lunes",
  tue: "los martes",
  wed: "los miércoles",
  thu: "los jueves",
  fri: "los viernes",
  sat: "los sábados",
  sun: "los domingos",
};
const FIELD = { name: "tu nombre", phone: "un teléfono", email: "tu correo electrónico" } as const;
const withName = (firstName: string): string => (firstName ? `, ${firstName}` : "");
const UNITS = { day: ["día", "días"], hour: ["hora", "horas"], minute: ["minuto", "minutos"] } as const;

/** Spanish. */
export const ES: Phrases = {
  quick: {
    book: "Reservar una cita",
    human: "Hablar con una persona",
    yesBook: "Sí, resérvala",
    otherTime: "Elegir otra hora",
    noThanks: "No, gracias",
  },
  greeting: (botName) => `¡Hola! Soy ${botName}, el asistente virtual. ¿En qué puedo ayudarte?`,
  handoff: {
    keyword:
      "Por supuesto — he pedido a alguien de nuestro equipo que se una a este chat. Te responderán aquí mismo lo antes posible.",
    low_confidence:
      "Siento no haber podido ayudarte. He pedido a alguien de nuestro equipo que se una a este chat — te responderán aquí mismo lo antes posible.",
    already: "Ya hemos avisado a alguien de nuestro equipo y te responderá aquí mismo lo antes posible.",
    urgent: "He pedido a alguien de nuestro equipo que se una a este chat ahora mismo — te responderán aquí.",
    complaint:
      "Lamento mucho lo ocurrido. He pedido a alguien de nuestro equipo que se una a este chat — te responderán aquí mismo lo antes posible para solucionarlo.",
  },
  handoffAway: {
    offer:
      "Nuestro equipo no está ahora mismo, así que nadie puede responderte en este momento. Deja aquí tu nombre, tu teléfono o e-mail y tu pregunta: el equipo lo verá en cuanto vuelva y se pondrá en contacto contigo.",
    already: "Tu mensaje está con el equipo: lo verán en cuanto vuelvan.",
  },
  fallback:
    "Perdona, creo que no te he entendido. Aquí tienes algunas cosas en las que puedo ayudarte — o reformula tu pregunta.",
  fallbackAfterHandoff: "No estoy seguro de eso, pero alguien de nuestro equipo te responderá aquí en breve.",
  emptyMessage: "Perdona, no lo he captado — ¿puedes escribir tu pregunta?",
  thanks: "¡De nada! ¿Puedo ayudarte en algo más?",
  dismissed: "Sin problema. ¿Puedo ayudarte en algo más?",
  goodbye: "Gracias por escribirnos — ¡que tengas un buen día!",
  leadStopped: "Sin problema — no tomaré tus datos. ¿Puedo ayudarte en algo más?",
  bookingStopped: "Sin problema, no reservaré nada. ¿Puedo ayudarte en algo más?",
  askTime: '¡Claro! ¿Qué día y hora te vendría bien? Por ejemplo "mañana a las 10".',
  otherTime: "Sin problema — ¿qué día y hora te vendría mejor?",
  askTimeAgain:
    'Perdona, no he entendido la fecha. ¿Qué día y hora te vendría bien? Por ejemplo "el lunes que viene a las 14".',
  bookingDisabled: "No hacemos reservas por este chat, pero puedo pedir al equipo que te llame para acordar una hora.",
  softLeadOffer: "Si quieres un presupuesto personalizado, puedo pedir al equipo que se ponga en contacto contigo.",
  leadIntro: "Con gusto te ayudo — solo tomaré algunos datos para que el equipo te conteste.",
  phoneWaived: "Sin problema — el equipo te responderá por correo electrónico.",
  phoneNeeded:
    "Lo entiendo. El equipo necesita un teléfono para hacer el seguimiento, así que no puedo pasarlo sin uno. Puedes seguir preguntándome lo que quieras, o tocar “Hablar con una persona” para seguir con el equipo aquí mismo.",
  notKnown: "Lo siento, no tengo esa información.",
  notKnownPerson: "Alguien de nuestro equipo puede decírtelo — ¿quieres que le pida que se una a este chat?",
  notKnownMessage: "El equipo no está disponible ahora — ¿quieres dejarles un mensaje? Di que sí y tomaré tus datos.",
  notCovered: "No tengo esa respuesta aquí, pero el equipo sí — te lo dirán cuando se pongan en contacto.",
  changeBooking:
    "No puedo cambiar ni cancelar reservas desde este chat, pero el equipo sí — toca “Hablar con una persona” y lo resolverán contigo aquí mismo.",
  urgentOffer:
    "¿Quieres que alguien de nuestro equipo te responda aquí ahora mismo? Toca “Hablar con una persona” o simplemente di que sí.",
  urgentNoAnswer: "Lo siento — parece urgente.",
  notSureAbout: (part) =>
    `No estoy seguro de “${part}” — alguien del equipo puede decírtelo (toca “Hablar con una persona”).`,
  zone: (label, timeZone) => `Todas las horas que doy son en la hora local del negocio, ${label} (${timeZone}).`,
  thanksName: (firstName) => `¡Gracias, ${firstName}!`,
  askName: "¿Me dices tu nombre, por favor?",
  askPhone: "¿Cuál es el mejor teléfono para contactarte?",
  askEmail: "¿Y tu correo electrónico?",
  great: "Perfecto.",
  stillNeed: (field) =>
    `Perdona, todavía necesito ${FIELD[field]} para continuar (o di "cancelar" y dejaré de preguntar).`,
  phoneProblem: {
    too_short: "Ese teléfono parece demasiado corto — incluye el prefijo, por favor.",
    too_long: "Ese teléfono tiene demasiados dígitos — ¿puedes revisarlo?",
    invalid_country: "No he podido saber de qué país es ese número — empieza con + y el código del país, por favor.",
    invalid: "Ese teléfono no parece válido — incluye el prefijo, por favor.",
  },
  emailProblem: {
    missing_at: "A ese correo parece faltarle la @ — ¿puedes escribirlo de nuevo?",
    missing_domain: "A ese correo le falta el dominio (como @ejemplo.com) — ¿puedes revisarlo?",
    unknown_tld:
      "Ese correo no termina en un dominio real — ¿puedes revisar la parte después del último punto (como .com)?",
    invalid: "Ese correo no parece correcto — ¿puedes revisarlo?",
  },
  leadThanks: (firstName, phone, email) =>
    `¡Gracias, ${firstName}! He pasado tus datos al equipo — te ${phone ? `contactarán en el ${phone} o en ${email}` : `responderán a ${email}`} en breve. ¿Puedo ayudarte en algo más?`,
  detailsKnown: (firstName) => `Gracias — ya tenemos tus datos${withName(firstName)}. ¿Puedo ayudarte en algo más?`,
  updatedField: {
    name: (value) => `tu nombre a ${value}`,
    phone: (value) => `tu teléfono a ${value}`,
    email: (value) => `tu correo a ${value}`,
  },
  detailsUpdated: (firstName, changes) =>
    `Gracias${withName(firstName)} — he cambiado ${changes.join(" y ")}. ¿Puedo ayudarte en algo más?`,
  offerSlot: (when) => `${when} está libre. ¿Te la reservo?`,
  shallIBook: (when) => `¿Te reservo ${when}?`,
  answerYesNo: "Responde sí o no, por favor.",
  booked: (when, firstName) =>
    `¡Reservado para ${when}${withName(firstName)}! Si necesitas cambiarlo, avísanos. ¿Puedo ayudarte en algo más?`,
  holdSlot: (when) => `Perfecto — para reservar ${when} solo necesito un par de datos.`,
  whenCome: "¿Cuándo te gustaría venir?",
  noted: "Gracias, lo he anotado.",
  proposals: (zone, list) => `Las próximas horas libres (${zone}) son: ${list}. Toca una, o dime otro día y hora.`,
  noFreeTimes: (days) =>
    `No he encontrado ninguna hora libre en los próximos ${days} días — ¿quieres hablar con una persona?`,
  haveOn: (when) => `Esto es lo que tengo el ${when}.`,
  noFreeOn: (when) => `Lo siento, no tengo horas libres el ${when}.`,
  haveWindow: (window) => `Esto es lo que tengo ${window}.`,
  noFreeWindow: (window) => `Lo siento, no tengo horas libres ${window}.`,
  refusal: {
    past: (when) => `${when} ya ha pasado.`,
    tooSoon: (when, notice) => `${when} es demasiado pronto — necesitamos al menos ${notice} de antelación.`,
    tooFar: (days) => `Solo puedo reservar con hasta ${days} días de antelación.`,
    taken: (when) => `Lo siento, ${when} ya está ocupada.`,
    misaligned: (minutes, when) =>
      `Las citas empiezan cada ${minutes} minutos desde la apertura, así que ${when} no es una hora de inicio.`,
    closedDay: (weekday) => `Cerramos ${WEEKDAYS[weekday]}.`,
    closedHours: (weekday, open, close, when) =>
      `${WEEKDAYS[weekday].replace(/^./, (letter) => letter.toUpperCase())} abrimos de ${open} a ${close}, así que ${when} está fuera de horario.`,
  },
  locale: "es-ES",
  window: {
    morning: "por la mañana",
    afternoon: "por la tarde",
    evening: "por la noche",
    after: (clock) => `después de las ${clock}`,
    before: (clock) => `antes de las ${clock}`,
    between: (from, to) => `entre las ${from} y las ${to}`,
  },
  notice: (amount, unit) => `${amount} ${UNITS[unit][amount === 1 ? 0 : 1]}`,
};
