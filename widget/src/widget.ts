/**
 * Mounts the widget in its shadow root: the launcher and the panel (open, close, Esc), the
 * composer's submit, and the launcher's reveal once the server accepts this page's origin.
 * The conversation with the server is conversation.ts; the bubbles on screen, transcript.ts.
 */
import { ApiError, createApi } from "./api.ts";
import type { WidgetConfig } from "./config.ts";
import { readableTextOn } from "./contrast.ts";
import { createConversation } from "./conversation.ts";
import { guard, report } from "./guard.ts";
import { stringsFor } from "./strings.ts";
import { createStyleSheet } from "./styles.ts";
import { createTranscript } from "./transcript.ts";
import { buildView } from "./view.ts";

export interface WidgetControls {
  open(): void;
  close(): void;
  toggle(): void;
}

export function mountWidget(config: WidgetConfig, host: HTMLElement): WidgetControls {
  const s = stringsFor(config.lang);
  const api = createApi(config.base, config.tenant, config.lang);
  const shadow = host.attachShadow({ mode: "open" });
  shadow.adoptedStyleSheets = [createStyleSheet(config.color, config.color ? readableTextOn(config.color) : "#fff")];
  const view = buildView(s, config.theme, config.position, `parley-${Math.random().toString(36).slice(2, 8)}`);
  view.log.append(view.typing);
  // No launcher until the server says this origin may chat (see the end of this function).
  view.launcher.hidden = true;
  shadow.append(view.root);

  let isOpen = false;
  const isPanelOpen = () => isOpen;
  // A bubble's Retry reaches the conversation, which is created just below (clicks come later).
  const transcript = createTranscript(view, s, isPanelOpen, (message) => retry(message));
  const { current, send, retry, track, schedulePoll, opened, resume } = createConversation(
    config,
    api,
    view,
    s,
    transcript,
    isPanelOpen,
  );

  function open(): void {
    if (isOpen) return;
    isOpen = true;
    view.panel.hidden = false;
    view.launcher.setAttribute("aria-expanded", "true");
    transcript.clearUnread();
    view.log.scrollTop = view.log.scrollHeight;
    view.input.focus();
    opened();
  }

  function close(): void {
    if (!isOpen) return;
    const hadFocus = view.panel.contains(shadow.activeElement);
    isOpen = false;
    track("widget_closed");
    view.panel.hidden = true;
    view.launcher.setAttribute("aria-expanded", "false");
    if (hadFocus) view.launcher.focus();
    schedulePoll();
  }

  const toggle = () => (isOpen ? close() : open());

  view.launcher.addEventListener("click", guard(toggle));
  view.closeButton.addEventListener("click", guard(close));
  view.form.addEventListener(
    "submit",
    guard((event: SubmitEvent) => {
      event.preventDefault();
      return send(view.input.value);
    }),
  );
  view.root.addEventListener(
    "keydown",
    guard((event: KeyboardEvent) => {
      if (event.key !== "Escape" || !isOpen) return;
      event.stopPropagation();
      close();
      view.launcher.focus();
    }),
  );

  /**
   * The launcher appears only once the server accepts this page's origin for the tenant. A
   * refused origin (or an unknown tenant) gets no launcher at all and one console warning for
   * the site's developer; a server that cannot be reached still gets the launcher, whose panel
   * then says so.
   */
  const reveal = () => {
    view.launcher.hidden = false;
    resume();
    track("widget_loaded");
    if (config.open) open();
  };
  api.settings().then(
    guard((settings) => {
      if (!current()?.botName) view.title.textContent = settings.bot_name;
      transcript.setHours(settings.back_at ? Date.parse(settings.back_at) : null, settings.expected_reply_s ?? null);
      transcript.renderStatus(current());
      reveal();
    }),
    guard((error: unknown) => {
      if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
        report(s.refused);
        host.remove();
      } else reveal();
    }),
  );

  return { open: guard(open), close: guard(close), toggle: guard(toggle) };
}
