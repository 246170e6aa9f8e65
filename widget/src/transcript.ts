/**
 * The message list on screen: one bubble per message (kept, so a failed send is redrawn where
 * it stands), notices, the launcher's unread badge and the header's hand-off line. It draws;
 * the conversation (conversation.ts) decides what to draw.
 */
import { handoffStatus } from "./restart.ts";
import type { StoredMessage, StoredState } from "./store.ts";
import type { Strings } from "./strings.ts";
import { el, messageNode, relativeTime, type View } from "./view.ts";

export interface Transcript {
  /** Adds a bubble below the others; one `arriving` from the bot or an operator while closed counts as unread. */
  show(message: StoredMessage, arriving: boolean): void;
  /** Adds a bubble above everything already on screen (a greeting that comes after typed messages). */
  showFirst(message: StoredMessage): void;
  notice(text: string): void;
  /** Redraws one bubble (failed ↔ sent) where it stands. */
  redraw(message: StoredMessage): void;
  renderStatus(state: StoredState | null): void;
  /** From the widget's settings: out of hours when the team is back, inside hours the usual reply time (s). */
  setHours(backAt: number | null, replyS: number | null): void;
  clearUnread(): void;
}

export function createTranscript(
  view: View,
  s: Strings,
  isOpen: () => boolean,
  retry: (message: StoredMessage) => void,
): Transcript {
  /** Each bubble on screen, by its message: a failed send is redrawn in place. */
  const nodes = new WeakMap<StoredMessage, HTMLElement>();
  let unread = 0;
  let backAt: number | null = null;
  let replyS: number | null = null;
  /** "Seen", under the visitor's newest message once a person opened the chat after it. */
  let seenNode: HTMLElement | null = null;

  function updateBadge(): void {
    view.badge.hidden = unread === 0;
    view.badge.textContent = unread > 9 ? "9+" : String(unread);
    view.launcher.setAttribute("aria-label", unread ? `${s.open} (${unread} ${s.unread})` : s.open);
  }

  function dropSeen(): void {
    seenNode?.remove();
    seenNode = null;
  }

  function show(message: StoredMessage, arriving: boolean): void {
    const node = messageNode(message, s, retry);
    nodes.set(message, node);
    view.log.insertBefore(node, view.typing);
    if (message.role === "visitor") dropSeen();
    // Each new message refreshes every relative time on screen: no timer runs for it.
    for (const bubble of view.log.querySelectorAll<HTMLElement>("[data-at]"))
      bubble.dataset.when = relativeTime(Number(bubble.dataset.at));
    if (arriving && !isOpen() && (message.role === "bot" || message.role === "operator")) {
      unread++;
      updateBadge();
    }
    view.log.scrollTop = view.log.scrollHeight;
  }

  return {
    show,
    showFirst(message) {
      show(message, true);
      const node = nodes.get(message);
      if (node) view.log.prepend(node);
    },
    notice(text) {
      show({ id: null, role: "notice", text }, false);
    },
    redraw(message) {
      const old = nodes.get(message);
      if (!old) return;
      const node = messageNode(message, s, retry);
      nodes.set(message, node);
      old.replaceWith(node);
    },
    setHours(at, seconds) {
      backAt = at;
      replyS = seconds;
    },
    renderStatus(state) {
      const text = handoffStatus(state, s, backAt, replyS);
      view.sub.hidden = text === null;
      view.sub.textContent = text ?? "";
      dropSeen();
      const last = state?.log.findLast((m) => m.role === "visitor");
      const bubble = last?.id && last.id === state?.seenId ? nodes.get(last) : undefined;
      if (!bubble) return;
      seenNode = el("span", "seen", s.seen);
      bubble.after(seenNode);
    },
    clearUnread() {
      unread = 0;
      updateBadge();
    },
  };
}
