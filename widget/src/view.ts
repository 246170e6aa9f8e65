import type { Strings } from "./strings.ts";
import type { StoredMessage } from "./store.ts";

/** Every element the controller touches. Built once; message text only ever goes in as text nodes. */
export interface View {
  root: HTMLDivElement;
  launcher: HTMLButtonElement;
  badge: HTMLSpanElement;
  panel: HTMLDivElement;
  title: HTMLSpanElement;
  /** Under the title: the hand-off state ("Waiting for a person…", then who is answering). */
  sub: HTMLSpanElement;
  closeButton: HTMLButtonElement;
  log: HTMLDivElement;
  typing: HTMLDivElement;
  quick: HTMLDivElement;
  form: HTMLFormElement;
  input: HTMLInputElement;
  sendButton: HTMLButtonElement;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = "", text = ""): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function chatIcon(): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute(
    "d",
    "M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm3 6.5a1.5 1.5 0 1 0 0 .01zm5 0a1.5 1.5 0 1 0 0 .01zm5 0a1.5 1.5 0 1 0 0 .01z",
  );
  svg.append(path);
  return svg;
}

export function buildView(s: Strings, themeClass: string, position: string, panelId: string): View {
  const root = el("div", `w ${themeClass} ${position}`);

  const launcher = el("button", "launcher");
  launcher.type = "button";
  launcher.setAttribute("aria-label", s.open);
  launcher.setAttribute("aria-expanded", "false");
  launcher.setAttribute("aria-controls", panelId);
  const badge = el("span", "badge");
  badge.hidden = true;
  launcher.append(chatIcon(), badge);

  const panel = el("div", "panel");
  panel.id = panelId;
  panel.hidden = true;
  panel.setAttribute("role", "dialog");
  const head = el("div", "head");
  const title = el("span", "title", s.fallbackTitle);
  title.id = `${panelId}-t`;
  panel.setAttribute("aria-labelledby", title.id);
  const sub = el("span", "sub");
  sub.setAttribute("role", "status");
  sub.hidden = true;
  const closeButton = el("button", "x", "×");
  closeButton.type = "button";
  closeButton.setAttribute("aria-label", s.close);
  const heading = el("div", "hd");
  heading.append(title, sub);
  head.append(heading, closeButton);

  const log = el("div", "log");
  log.setAttribute("role", "log");
  log.setAttribute("aria-live", "polite");
  const typing = el("div", "typing");
  typing.setAttribute("aria-label", s.typing);
  typing.setAttribute("role", "status");
  typing.append(el("i"), el("i"), el("i"));
  typing.hidden = true;

  const quick = el("div", "quick");
  const form = el("form", "form");
  const input = el("input");
  input.type = "text";
  input.enterKeyHint = "send";
  input.maxLength = 4000;
  input.autocomplete = "off";
  input.placeholder = s.placeholder;
  input.setAttribute("aria-label", s.placeholder);
  const sendButton = el("button", "", s.send);
  sendButton.type = "submit";
  form.append(input, sendButton);

  panel.append(head, log, quick, form);
  root.append(panel, launcher);
  return { root, launcher, badge, panel, title, sub, closeButton, log, typing, quick, form, input, sendButton };
}

/** One bubble; the text is a text node, never markup. A failed visitor message carries its Retry button. */
export function messageNode(
  message: StoredMessage,
  s: Strings,
  onRetry?: (message: StoredMessage) => void,
): HTMLDivElement {
  const node = el("div", `m ${message.role}${message.failed ? " failed" : ""}`);
  if (message.role === "operator") {
    const name = message.author || s.agent;
    const who = el("span", "who", name);
    // The initial is drawn by CSS (an avatar), so the name is read once and the text stays the name.
    who.dataset.initial = [...name][0]?.toUpperCase() ?? "";
    node.append(who);
  }
  if (message.at) {
    node.dataset.at = String(message.at);
    node.dataset.when = relativeTime(message.at);
    node.title = new Date(message.at).toLocaleString();
  }
  node.append(document.createTextNode(message.text));
  if (message.sources && message.sources.length > 0) node.append(sourcesNode(message.sources));
  if (message.failed && onRetry) {
    const retry = el("button", "retry", s.retry);
    retry.type = "button";
    retry.addEventListener("click", () => onRetry(message));
    node.append(el("span", "fail", s.failed), retry);
  }
  return node;
}

const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", Infinity],
];

/** "now", "5 minutes ago", "yesterday" in the browser's language. */
export function relativeTime(at: number, now = Date.now()): string {
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  if (Math.abs(at - now) < 60_000) return format.format(0, "second");
  let amount = Math.round((at - now) / 60_000);
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return format.format(amount, unit);
    amount = Math.round(amount / size);
  }
  return format.format(amount, "week");
}

/** The cited documents under an answer: a link only for an http(s) URL, else plain text (never markup). */
function sourcesNode(sources: NonNullable<StoredMessage["sources"]>): HTMLElement {
  const list = el("span", "src");
  for (const source of sources) {
    const safe = source.url && /^https?:\/\//i.test(source.url) ? source.url : null;
    const item = el(safe ? "a" : "span", "", source.title);
    if (safe && item instanceof HTMLAnchorElement) {
      item.href = safe;
      item.target = "_blank";
      item.rel = "noopener noreferrer";
    }
    list.append(item);
  }
  return list;
}

/** Replaces the quick-reply row; each button sends its own label. */
export function renderQuickReplies(
  container: HTMLDivElement,
  replies: readonly string[],
  onPick: (text: string) => void,
): void {
  container.replaceChildren();
  for (const reply of replies) {
    const button = el("button", "", reply);
    button.type = "button";
    button.addEventListener("click", () => onPick(reply));
    container.append(button);
  }
  container.hidden = replies.length === 0;
}

/** The bot's bubble while a streamed reply arrives: created at the first piece, dropped for the stored reply. */
export function liveBubble(view: View, s: Strings): { grow(piece: string): void; drop(): void } {
  let live: Text | null = null;
  return {
    grow(piece) {
      if (!live) {
        const node = messageNode({ id: null, role: "bot", text: "" }, s);
        live = node.appendChild(document.createTextNode(""));
        view.log.insertBefore(node, view.typing);
        view.typing.hidden = true;
      }
      live.data += piece;
      view.log.scrollTop = view.log.scrollHeight;
    },
    drop() {
      live?.parentElement?.remove();
      live = null;
    },
  };
}
