/**
 * The visitor's language, per message: English, Portuguese (Brazil) or Spanish. A small
 * hand-written score: words only one of the three languages uses ("você", "cuánto", "the")
 * and letters only one writes (ã, õ, ç for Portuguese; ñ, ¿, ¡ for Spanish). A message with
 * no such sign ("Ana Lopez", a phone number, "ok") keeps the language of the conversation.
 */

export const LANGUAGES = ["en", "pt", "es"] as const;
export type Lang = (typeof LANGUAGES)[number];

export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

const words = (text: string): ReadonlySet<string> => new Set(text.split(" "));

/** Words that mark one language and not the other two (shared ones like "de", "para", "no", "tarde" are left out). */
const MARKERS: Readonly<Record<Lang, ReadonlySet<string>>> = {
  en: words(
    "the you your do does is are what what's whats how much can could i i'm my have has and of to for with hi hello hey " +
      "please thanks thank want need when where which will would there this that it's any open book get much long",
  ),
  pt: words(
    "oi olá você voce vocês voces não nao obrigado obrigada valeu quanto quanta quantos custa custam uma um do da dos " +
      "das meu minha com em na nas é estão tem têm quero queria preciso gostaria podem quais onde hoje amanhã amanha " +
      "manhã manha noite bom boa aceitam fazem horário horários funcionam tchau então também agendar marcar consulta " +
      "preço valor quebrou estrada guincho seu sua tenho sábado sábados segunda terça quarta quinta sexta falar " +
      "atendente pessoa vocês posso pode ao aos às isso sim ficou obrigada muito dói ajuda agora estou",
  ),
  es: words(
    "hola usted ustedes tienen tiene cuánto cuanto cuánta cuesta cuestan una un el los las del mi mis con es estoy " +
      "quiero quisiera necesito puedo pueden cuál cuáles cuándo dónde hoy mañana manana noche buenos buenas gracias " +
      "aceptan hacen horario abren adiós entonces reservar cita precio estacionamiento aparcamiento aceite coche lunes " +
      "martes miércoles jueves viernes hay y sí vale hablar encargado persona sus su tengo por favor la mucho muy " +
      "duele pero ayuda ahora",
  ),
};

const PT_LETTERS = /[ãõçâêô]/;
const ES_LETTERS = /[ñ¿¡]/;
/** Words and letters; "¿" and "¡" stay on their own. */
const TOKEN = /[¿¡]|[\p{L}']+/gu;

/**
 * The language of `message` among `offered`, or `previous` when the message shows none. A
 * tenant offering one language pays nothing per message.
 */
export function detectLanguage(message: string, offered: readonly Lang[], previous: Lang): Lang {
  const fallback = offered.includes(previous) ? previous : (offered[0] ?? "en");
  if (offered.length < 2) return fallback;
  // "ana@example.com" says nothing about the language ("com" is Portuguese for "with").
  const lower = (message.includes("@") ? message.replace(/\S+@\S+/g, " ") : message).toLowerCase();
  const scores: Record<Lang, number> = { en: 0, pt: 0, es: 0 };
  for (const token of lower.match(TOKEN) ?? []) {
    for (const lang of offered) if (MARKERS[lang].has(token)) scores[lang] += 1;
  }
  if (PT_LETTERS.test(lower)) scores.pt += 2;
  if (ES_LETTERS.test(lower)) scores.es += 2;
  let best = fallback;
  for (const lang of offered) if (scores[lang] > scores[best]) best = lang;
  return best;
}
