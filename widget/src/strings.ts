/** Every piece of visible text, per language: English, Portuguese (Brazil), Spanish. */
const EN = {
  locale: "en",
  open: "Open chat",
  close: "Close chat",
  send: "Send",
  placeholder: "Type your message…",
  typing: "Typing…",
  unread: "unread messages",
  agent: "Agent",
  fallbackTitle: "Chat",
  error: "Something went wrong. Please try again.",
  offline: "Chat isn't available right now. Please try again later.",
  notAllowed: "Chat isn't available on this site.",
  rateLimited: "You're sending messages too fast. Please wait a moment.",
  failed: "Not sent.",
  retry: "Retry",
  waiting: "Waiting for a person to join…",
  back: "Our team is away. We're back",
  joined: "You're chatting with",
  // {t} is a duration in the visitor's language ("4 minutes").
  replyIn: "A person will join shortly, usually within {t}.",
  seen: "Seen",
  rateAsk: "How was your chat with us?",
  rateScore: "{n} out of 5",
  rateComment: "Anything to add? (optional)",
  rateSend: "Send rating",
  rateThanks: "Thank you for your feedback!",
  // For the site's developer, in the console: stays English.
  refused:
    "this page's origin is not in the tenant's allowed origins (or the tenant does not exist); the chat launcher is not shown.",
};

export type Strings = typeof EN;

export const STRINGS: Record<"en" | "pt" | "es", Strings> = {
  en: EN,
  pt: {
    ...EN,
    locale: "pt-BR",
    open: "Abrir chat",
    close: "Fechar chat",
    send: "Enviar",
    placeholder: "Digite sua mensagem…",
    typing: "Digitando…",
    unread: "mensagens não lidas",
    agent: "Atendente",
    error: "Algo deu errado. Tente de novo.",
    offline: "O chat não está disponível agora. Tente mais tarde.",
    notAllowed: "O chat não está disponível neste site.",
    rateLimited: "Você está enviando mensagens rápido demais. Aguarde um pouco.",
    failed: "Não enviada.",
    retry: "Tentar de novo",
    waiting: "Aguardando uma pessoa entrar…",
    back: "Nossa equipe não está agora. Voltamos",
    joined: "Você está conversando com",
    replyIn: "Uma pessoa vai entrar em breve, normalmente em até {t}.",
    seen: "Vista",
    rateAsk: "Como foi a conversa com a gente?",
    rateScore: "{n} de 5",
    rateComment: "Quer acrescentar algo? (opcional)",
    rateSend: "Enviar avaliação",
    rateThanks: "Obrigado pela avaliação!",
  },
  es: {
    ...EN,
    locale: "es",
    open: "Abrir chat",
    close: "Cerrar chat",
    send: "Enviar",
    placeholder: "Escribe tu mensaje…",
    typing: "Escribiendo…",
    unread: "mensajes sin leer",
    agent: "Agente",
    error: "Algo salió mal. Inténtalo de nuevo.",
    offline: "El chat no está disponible ahora. Inténtalo más tarde.",
    notAllowed: "El chat no está disponible en este sitio.",
    rateLimited: "Estás enviando mensajes demasiado rápido. Espera un momento.",
    failed: "No enviado.",
    retry: "Reintentar",
    waiting: "Esperando a que se una una persona…",
    back: "Nuestro equipo no está ahora. Volvemos",
    joined: "Estás hablando con",
    replyIn: "Una persona se unirá en breve, normalmente en {t}.",
    seen: "Visto",
    rateAsk: "¿Qué tal ha ido la conversación?",
    rateScore: "{n} de 5",
    rateComment: "¿Algo que añadir? (opcional)",
    rateSend: "Enviar valoración",
    rateThanks: "¡Gracias por tu opinión!",
  },
};

/** The language of `data-lang`, else the browser's first that we speak ("pt-BR" → pt), else English. */
export function pickLanguage(dataLang: string | undefined, browserLanguages: readonly string[]): string {
  for (const tag of [dataLang, ...browserLanguages]) {
    const lang = tag?.trim().toLowerCase().slice(0, 2);
    if (lang && lang in STRINGS) return lang;
  }
  return "en";
}

export function stringsFor(lang: string): Strings {
  return (STRINGS as Record<string, Strings>)[lang] ?? STRINGS.en;
}
