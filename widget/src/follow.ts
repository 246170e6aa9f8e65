/**
 * Following a chat a person handles: the live stream (replies, typing, "seen", the end of the
 * chat) while it is up, transcript polling while it is down, and catching up on what was
 * missed. The conversation (conversation.ts) owns the saved state; this reads and extends it.
 */
import type { Api } from "./api.ts";
import type { WidgetConfig } from "./config.ts";
import { guard } from "./guard.ts";
import type { StoredMessage, StoredState } from "./store.ts";
import type { Strings } from "./strings.ts";
import { askRating } from "./rating.ts";
import type { Transcript } from "./transcript.ts";
import type { View } from "./view.ts";

/** Hand-off polling stops after this long without news; opening or sending restarts it. */
const POLL_IDLE_LIMIT_MS = 30 * 60_000;

export interface FollowContext {
  config: WidgetConfig;
  api: Api;
  view: View;
  s: Strings;
  transcript: Transcript;
  isOpen(): boolean;
  state(): StoredState | null;
  usable(current: StoredState | null): current is StoredState;
  busy(): boolean;
  append(current: StoredState, message: StoredMessage): void;
  save(): void;
}

export interface Follow {
  catchUp(): Promise<void>;
  /** Re-arms hand-off polling at the panel's current rate (or stops it), and goes live when it can. */
  schedulePoll(): void;
  /** Counts as activity: polling carries on for another idle limit. */
  touch(): void;
}

export function createFollow(ctx: FollowContext): Follow {
  const { api, view, s, transcript } = ctx;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  let pollFailures = 0;
  let lastActivity = Date.now();
  // The chat's live stream while a person handles it; polling is the fallback while it is down.
  let live: AbortController | null = null;
  let liveFailures = 0;
  let liveRetryAt = 0;
  let typingTimer: ReturnType<typeof setTimeout> | undefined;

  /** Fetches what came after the last known message (operator replies, or what a reload missed). */
  async function catchUp(): Promise<void> {
    const current = ctx.state();
    if (!ctx.usable(current)) return;
    const history = await api.history(current.token, current.sessionId, current.lastId);
    if (ctx.state() !== current) return;
    for (const message of history.data) {
      const known = current.log.find((m) => m.id === message.message_id);
      // A visitor message we sent ourselves may come back before its send answered.
      const pending =
        !known &&
        message.role === "visitor" &&
        current.log.find((m) => m.id === null && m.role === "visitor" && m.text === message.text);
      if (pending) {
        // The server has it after all (the answer, not the message, was lost): no longer failed.
        pending.id = message.message_id;
        if (pending.failed) {
          pending.failed = undefined;
          transcript.redraw(pending);
        }
      } else if (!known) {
        ctx.append(current, {
          id: message.message_id,
          role: message.role,
          text: message.text,
          quick: message.quick_replies,
          author: message.author_name,
          at: Date.parse(message.created_at ?? "") || Date.now(),
        });
        lastActivity = Date.now();
      }
      current.lastId = message.message_id;
    }
    current.status = history.status;
    if (history.seen_message_id !== undefined) current.seenId = history.seen_message_id;
    if (current.status !== "handoff") live?.abort();
    ctx.save();
    transcript.renderStatus(current);
    askRating(api, view, s, current, ctx.save);
  }

  /** An operator typing: the dots, with their name for screen readers, for a few seconds. */
  function showTyping(name: string | null | undefined): void {
    clearTimeout(typingTimer);
    view.typing.setAttribute("aria-label", name ? `${name}: ${s.typing}` : s.typing);
    view.typing.hidden = false;
    view.log.scrollTop = view.log.scrollHeight;
    typingTimer = setTimeout(() => (view.typing.hidden = !ctx.busy()), 5_000);
  }

  /**
   * Opens the chat's live stream once a person handles it: a reply, the typing dots and the
   * end of the chat arrive as they happen. Each (re)connection first fetches what it missed;
   * while the stream is down, polling carries on and the stream is tried again, less often.
   */
  function goLive(): void {
    const current = ctx.state();
    if (live || Date.now() < liveRetryAt || !ctx.usable(current) || current.status !== "handoff") return;
    const controller = new AbortController();
    live = controller;
    clearTimeout(pollTimer);
    catchUp().catch(() => undefined);
    api
      .live(
        current.token,
        current.sessionId,
        (kind, data) => {
          liveFailures = 0;
          if (kind === "operator.typing") showTyping(data.author_name);
          else if (kind === "operator.seen") {
            current.seenId = data.message_id ?? null;
            ctx.save();
            transcript.renderStatus(current);
          } else {
            clearTimeout(typingTimer);
            view.typing.hidden = !ctx.busy();
            catchUp().catch(() => undefined);
          }
        },
        controller.signal,
      )
      .catch(() => liveFailures++)
      .finally(
        guard(() => {
          if (live !== controller) return;
          live = null;
          if (controller.signal.aborted || ctx.state() !== current || current.status !== "handoff") return;
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
    if (live || ctx.state()?.status !== "handoff" || Date.now() - lastActivity > POLL_IDLE_LIMIT_MS) return;
    const delay = (ctx.isOpen() ? ctx.config.pollMs : ctx.config.pollMs * 5) * 2 ** Math.min(pollFailures, 4);
    pollTimer = setTimeout(
      guard(async () => {
        try {
          if (!ctx.busy()) await catchUp();
          pollFailures = 0;
        } catch {
          pollFailures++;
        }
        schedulePoll();
      }),
      delay,
    );
  }

  return {
    catchUp,
    schedulePoll,
    touch() {
      lastActivity = Date.now();
    },
  };
}
