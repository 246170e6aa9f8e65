/**
 * The visitor's conversation with the server: the session (started on first need, replaced
 * before its token expires or once the server ends it), sending with the streamed reply and
 * Retry, and telemetry. It keeps the saved state; following a chat a person handles is
 * follow.ts, and what it shows goes through the transcript.
 */
import { ApiError, type Api, type SendResult } from "./api.ts";
import type { WidgetConfig } from "./config.ts";
import { guard } from "./guard.ts";
import { createFollow } from "./follow.ts";
import { askRating } from "./rating.ts";
import { failureNotice, shouldRestart } from "./restart.ts";
import { loadState, saveState, type StoredMessage, type StoredState } from "./store.ts";
import type { Strings } from "./strings.ts";
import type { Transcript } from "./transcript.ts";
import { liveBubble, renderQuickReplies, type View } from "./view.ts";

/** A token this close to expiry is replaced before use rather than risking a 401 mid-send. */
const TOKEN_MARGIN_MS = 60_000;

export interface Conversation {
  /** The saved session (or the placeholder holding messages typed before one), if any. */
  current(): StoredState | null;
  send(raw: string): Promise<void>;
  retry(message: StoredMessage): void;
  track(name?: string): void;
  /** Re-arms hand-off polling at the panel's current rate (or stops it). */
  schedulePoll(): void;
  /** The panel opened: a session is started if none, and hand-off polling counts this as activity. */
  opened(): void;
  /** The launcher appeared: a saved session fetches what it missed, then polls if handed off. */
  resume(): void;
}

/** Loads the saved conversation and puts it back on screen (a reload keeps the transcript). */
export function createConversation(
  config: WidgetConfig,
  api: Api,
  view: View,
  s: Strings,
  transcript: Transcript,
  isOpen: () => boolean,
): Conversation {
  const { show, showFirst, notice, redraw, renderStatus } = transcript;
  let state = loadState(config.tenant);
  let busy = false;
  let starting: Promise<StoredState> | null = null;

  const save = () => state && saveState(config.tenant, state);
  const usable = (current: StoredState | null): current is StoredState =>
    !!current && current.status !== "closed" && current.expiresAt - TOKEN_MARGIN_MS > Date.now();
  // Telemetry waits for a session token; it never blocks or breaks the chat.
  const pendingEvents: string[] = [];
  function track(name?: string): void {
    if (name) pendingEvents.push(name);
    if (!usable(state) || pendingEvents.length === 0) return;
    api.track(state.token, pendingEvents.splice(0, 20)).catch(() => undefined);
  }
  const pick = guard((text: string) => {
    track("quick_reply_clicked");
    return send(text);
  });

  function append(current: StoredState, message: StoredMessage): void {
    current.log.push(message);
    show(message, true);
    renderQuickReplies(view.quick, message.quick ?? [], pick);
  }

  function fail(error: unknown): void {
    const why = failureNotice(error, s);
    if (why) notice(why);
    if (!(error instanceof ApiError)) throw error;
  }

  function setBusy(value: boolean): void {
    busy = value;
    view.typing.hidden = !value;
    view.sendButton.disabled = value;
    view.log.scrollTop = view.log.scrollHeight;
  }

  /** A new visitor session; the transcript so far stays on screen. One at a time. */
  function freshSession(): Promise<StoredState> {
    starting ??= api
      .startSession()
      .then((started) => {
        // Messages typed before (or while failing to get) a session stay in the transcript.
        const log = state?.log ?? [];
        const next: StoredState = {
          token: started.access_token,
          expiresAt: Date.now() + started.expires_in * 1000,
          sessionId: started.session_id,
          lastId: null,
          status: "bot",
          botName: started.bot_name,
          log,
        };
        state = next;
        view.title.textContent = started.bot_name;
        // The greeting opens the first conversation, before anything typed while the session
        // was still starting (or while offline); a later session does not greet again.
        if (started.greeting && !log.some((m) => m.role === "bot" || m.role === "operator")) {
          const greeting: StoredMessage = {
            id: null,
            role: "bot",
            text: started.greeting,
            quick: started.quick_replies,
          };
          log.unshift(greeting);
          showFirst(greeting);
          if (log.length === 1) renderQuickReplies(view.quick, greeting.quick ?? [], pick);
        }
        save();
        track();
        return next;
      })
      .finally(() => {
        starting = null;
      });
    return starting;
  }

  /** A typed message (or quick reply): on screen and saved at once, then delivered. */
  async function send(raw: string): Promise<void> {
    const text = raw.trim().slice(0, 4000);
    if (!text || busy) return;
    view.input.value = "";
    // The quick-reply button that was clicked is about to go: keep focus (and Esc) in the panel.
    if (isOpen()) view.input.focus();
    renderQuickReplies(view.quick, [], pick);
    const mine: StoredMessage = { id: null, role: "visitor", text, at: Date.now() };
    // Without a session yet the message still needs a saved home: a placeholder with no token.
    state ??= {
      token: "",
      expiresAt: 0,
      sessionId: "",
      lastId: null,
      status: "bot",
      botName: view.title.textContent ?? "",
      log: [],
    };
    state.log.push(mine);
    show(mine, false);
    save();
    await deliver(mine);
  }

  function retry(message: StoredMessage): void {
    guard(deliver)(message);
  }

  /** Sends one visitor message; on failure it stays in the log, marked failed, for Retry. */
  async function deliver(mine: StoredMessage): Promise<void> {
    if (busy) return;
    const text = mine.text;
    if (mine.failed) {
      mine.failed = undefined;
      redraw(mine);
    }
    setBusy(true);
    track("message_sent");
    // The bubble grows as the model writes; `done` then replaces it with the stored reply.
    const { grow, drop: dropLive } = liveBubble(view, s);
    try {
      let current = usable(state) ? state : await freshSession();
      let result: SendResult;
      try {
        result = await api.send(current.token, text, grow);
      } catch (error) {
        if (!(await shouldRestart(api, error, current))) throw error;
        dropLive();
        current = await freshSession();
        result = await api.send(current.token, text, grow);
      }
      mine.id = result.message_id;
      current.lastId = result.reply?.message_id ?? result.message_id;
      current.status = result.status;
      dropLive();
      if (result.reply) {
        const sources = result.reply.sources?.map((source) =>
          source.url ? { title: source.title, url: source.url } : { title: source.title },
        );
        append(current, {
          id: result.reply.message_id,
          role: "bot",
          text: result.reply.text,
          quick: result.reply.quick_replies,
          at: Date.now(),
          ...(sources?.length ? { sources } : {}),
        });
      }
      save();
      follow.touch();
      renderStatus(state);
      follow.schedulePoll();
    } catch (error) {
      dropLive();
      mine.failed = true;
      redraw(mine);
      save();
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  const follow = createFollow({
    config,
    api,
    view,
    s,
    transcript,
    isOpen,
    state: () => state,
    usable,
    busy: () => busy,
    append,
    save,
  });

  // After a reload the saved transcript is back on screen, with the last bot message's quick replies.
  if (state) {
    view.title.textContent = state.botName || s.fallbackTitle;
    for (const message of state.log) show(message, false);
    const last = state.log.at(-1);
    renderQuickReplies(view.quick, last?.role === "bot" ? (last.quick ?? []) : [], pick);
    renderStatus(state);
    askRating(api, view, s, state, save);
  } else renderQuickReplies(view.quick, [], pick);

  return {
    current: () => state,
    send,
    retry,
    track,
    schedulePoll: () => follow.schedulePoll(),
    opened() {
      if (!state?.token) freshSession().catch(guard(fail));
      track("widget_opened");
      follow.touch();
      follow.schedulePoll();
    },
    resume() {
      if (state?.token)
        follow
          .catchUp()
          .catch(() => undefined)
          .then(guard(follow.schedulePoll));
    },
  };
}
