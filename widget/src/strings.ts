/** Every piece of visible text, per language. Only English exists; `data-lang` picks from here. */
export const STRINGS = {
  en: {
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
    refused: "this page's origin is not in the tenant's allowed origins (or the tenant does not exist); the chat launcher is not shown.",
  },
} as const;

export type Strings = (typeof STRINGS)["en"];

export function stringsFor(lang: string): Strings {
  return (STRINGS as Record<string, Strings>)[lang] ?? STRINGS.en;
}
