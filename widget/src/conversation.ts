/**
 * The visitor's conversation with the server: the session (started on first need, replaced
 * before its token expires or once the server ends it), sending with the streamed reply and
 * Retry, hand-off polling and telemetry. It keeps the saved state; what it shows goes through
 * the transcript.
 */
import { ApiError, type Api, type SendResult } from "./api.ts";
import type { WidgetConfig } from "./config.ts";
import { guard } from "./guard.ts";
import { failureNotice, shouldRestart } from "./restart.ts";
import { loadState, saveState, type StoredMessage, type StoredState } from "./store.ts";
import type { Strings } from "./strings.ts";
import type { Transcript } from "./transcript.ts";
import { liveBubble, renderQuickReplies, type View } from "./view.ts";

/** A token this close to expiry is replaced before use rather than risking a 401 mid-send. */
const TOKEN_MARGIN_MS = 60_000;
/** Hand-off polling stops after this long without news; opening or sending restarts it. */
const POLL_IDLE_LIMIT_MS = 30 * 60_000;

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
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  let pollFailures = 0;
  let lastActivity = Date.now();
  // The chat's live stream while a person handles it; polling is the fallback while it is down.
  let live: AbortController | null = null;
  let liveFailures = 0;
  let liveRetryAt = 0;
  let typingTimer: ReturnType<typeof setTimeout> | undefined;

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
          const greeting: StoredMessage = { id: null, role: "bot", text: started.greeting, quick: started.quick_replies };
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
    state ??= { token: "", expiresAt: 0, sessionId: "", lastId: null, status: "bot", botName: view.title.textContent ?? "", log: [] };
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
        const sources = result.reply.sources?.map((source) => (source.url ? { title: source.title, url: source.url } : { title: source.title }));
        append(current, { id: result.reply.message_id, role: "bot", text: result.reply.text, quick: result.reply.quick_replies, at: Date.now(), ...(sources?.length ? { sources } : {}) });
      }
      save();
      lastActivity = Date.now();
      renderStatus(state);
      schedulePoll();
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

  /** Fetches what came after the last known message (operator replies, or what a reload missed). */
  async function catchUp(): Promise<void> {
    const current = state;
    if (!usable(current)) return;
    const history = await api.history(current.token, current.sessionId, current.lastId);
    if (state !== current) return;
    for (const message of history.data) {
      const known = current.log.find((m) => m.id === message.message_id);
      // A visitor message we sent ourselves may come back before its send answered.
      const pending = !known && message.role === "visitor" && current.log.find((m) => m.id === null && m.role === "visitor" && m.text === message.text);
      if (pending) {
        // The server has it after all (the answer, not the message, was lost): no longer failed.
        pending.id = message.message_id;
        if (pending.failed) {
          pending.failed = undefined;
          redraw(pending);
        }
      } else if (!known) {
        append(current, { id: message.message_id, role: message.role, text: message.text, quick: message.quick_replies, author: message.author_name, at: Date.parse(message.created_at ?? "") || Date.now() });
        lastActivity = Date.now();
      }
      current.lastId = message.message_id;
    }
    current.status = history.status;
    if (current.status !== "handoff") live?.abort();
    save();
    renderStatus(state);
  }

  /** An operator typing: the dots, with their name for screen readers, for a few seconds. */
  function showTyping(name: string | null | undefined): void {
    clearTimeout(typingTimer);
    view.typing.setAttribute("aria-label", name ? `${name}: ${s.typing}` : s.typing);
    view.typing.hidden = false;
    view.log.scrollTop = view.log.scrollHeight;
    typingTimer = setTimeout(() => (view.typing.hidden = !busy), 5_000);
  }

  /**
   * Opens the chat's live stream once a person handles it: a reply, the typing dots and the
   * end of the chat arrive as they happen. Each (re)connection first fetches what it missed;
   * while the stream is down, polling carries on and the stream is tried again, less often.
   */
  function goLive(): void {
    const current = state;
    if (live || Date.now() < liveRetryAt || !usable(current) || current.status !== "handoff") return;
    const controller = new AbortController();
    live = controller;
    clearTimeout(pollTimer);
    catchUp().catch(() => undefined);
    api
      .live(current.token, current.sessionId, (kind, data) => {
        liveFailures = 0;
        if (kind === "operator.typing") showTyping(data.author_name);
        else {
          clearTimeout(typingTimer);
          view.typing.hidden = !busy;
          catchUp().catch(() => undefined);
        }
      }, controller.signal)
      .catch(() => liveFailures++)
      .finally(
        guard(() => {
          if (live !== controller) return;
          live = null;
          if (controller.signal.aborted || state !== current || current.status !== "handoff") return;
          const delay = 2_000 * 2 ** Math.min(liveFailures, 5);
          liveRetryAt = Date.now() + delay;
          schedulePoll();
          setTimeout(guard(goLive), delay);
        }),
      );
  }

  /** Re-arms one timer (never setInterval): fast while open, 5× slower while closed, bounded. */
  function schedulePoll(): void {
    clearTimeout(pollTimer);
    goLive();
    if (live || state?.status !== "handoff" || Date.now() - lastActivity > POLL_IDLE_LIMIT_MS) return;
    const delay = (isOpen() ? config.pollMs : config.pollMs * 5) * 2 ** Math.min(pollFailures, 4);
    pollTimer = setTimeout(
      guard(async () => {
        try {
          if (!busy) await catchUp();
          pollFailures = 0;
        } catch {
          pollFailures++;
        }
        schedulePoll();
      }),
      delay,
    );
  }

  // After a reload the saved transcript is back on screen, with the last bot message's quick replies.
  if (state) {
    view.title.textContent = state.botName || s.fallbackTitle;
    for (const message of state.log) show(message, false);
    const last = state.log.at(-1);
    renderQuickReplies(view.quick, last?.role === "bot" ? (last.quick ?? []) : [], pick);
    renderStatus(state);
  } else renderQuickReplies(view.quick, [], pick);

  return {
    current: () => state,
    send,
    retry,
    track,
    schedulePoll,
    opened() {
      if (!state?.token) freshSession().catch(guard(fail));
      track("widget_opened");
      lastActivity = Date.now();
      schedulePoll();
    },
    resume() {
      if (state?.token) catchUp().catch(() => undefined).then(guard(schedulePoll));
    },
  };
}
