/** Hand-off inbox: sessions waiting for a person; read, reply, close. */
import { api, query, type Page } from "./api.ts";
import { busy, byId, fillRows, h, idCode, pager, run, say, sayError, when } from "./dom.ts";
import type { InboxSession, Message } from "./types.ts";
import { alertHandoff, askForNotifications, showWaiting, soundOn } from "./alerts.ts";
import { openInboxStream, type LiveEvent } from "./live.ts";

const ROLE_LABELS: Record<Message["role"], string> = { visitor: "Visitor", bot: "Bot", operator: "Operator" };
/** How often the inbox (and an open transcript) reloads by itself while the live stream is down. */
export const INBOX_REFRESH_MS = 10_000;

/** "Operator (Ana)" when the reply was sent by an operator with a display name. */
const whoWrote = (entry: { role: Message["role"]; author_name: string | null }) => `${ROLE_LABELS[entry.role] ?? entry.role}${entry.author_name ? ` (${entry.author_name})` : ""}`;

function previewCell(session: InboxSession): Node | string {
  if (!session.preview) return "—";
  return h("span", { class: "preview" }, h("strong", {}, `${whoWrote(session.preview)}: `), session.preview.text);
}

export function wireInbox() {
  const message = byId("inbox-msg");
  const convo = byId("convo");
  const convoMessage = byId("convo-msg");
  let openId: string | null = null;

  const list = pager(byId("inbox-prev"), byId("inbox-next"), byId("inbox-page"), async (cursor) => {
    try {
      const page = await api<Page<InboxSession>>("GET", `/inbox${query({ cursor, limit: "25" })}`);
      if (!cursor) showWaiting(page.data.length);
      fillRows(
        byId("inbox-rows"),
        page.data.map((session) => [
          idCode(session.session_id),
          previewCell(session),
          session.channel,
          String(session.message_count),
          // Out of hours nobody was promised: the visitor left a message for the team's return.
          `${session.handoff_reason ?? "—"}${session.within_business_hours === false ? " · out of hours" : ""}`,
          when(session.updated_at),
          h("button", { type: "button", "aria-label": `Open ${session.session_id}`, onclick: () => openSession(session.session_id) }, "Open"),
        ]),
        "No chat is waiting for a person.",
      );
      return page.next_cursor;
    } catch (error) {
      sayError(message, error);
      return null;
    }
  });

  async function loadTranscript() {
    if (!openId) return;
    try {
      const transcript = await api<{ status: string; data: Message[] }>("GET", `/chatbot/sessions/${encodeURIComponent(openId)}/messages`);
      byId("convo-title").textContent = `Conversation ${openId} (${transcript.status})`;
      byId("convo-log").replaceChildren(
        ...transcript.data.map((entry) => h("li", { class: entry.role }, h("span", { class: "who" }, whoWrote(entry), " · ", when(entry.created_at)), entry.text)),
      );
      const log = byId("convo-log");
      log.scrollTop = log.scrollHeight;
    } catch (error) {
      sayError(convoMessage, error);
    }
  }

  async function openSession(sessionId: string) {
    openId = sessionId;
    convo.hidden = false;
    say(convoMessage, "", "");
    await loadTranscript();
    byId("reply-text").focus();
  }

  // The visitor sees "typing" while the operator writes: one call per 3 s of typing at most.
  let typingSent = 0;
  byId("reply-text").addEventListener("input", () => {
    if (!openId || Date.now() - typingSent < 3_000) return;
    typingSent = Date.now();
    api("POST", `/sessions/${encodeURIComponent(openId)}/typing`).catch(() => undefined);
  });

  byId("reply-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const field = byId<HTMLTextAreaElement>("reply-text");
    const button = (submitted.target as HTMLFormElement).querySelector<HTMLButtonElement>("button[type=submit]");
    if (!openId || !button) return;
    const sessionId = openId;
    void busy(button, async () => {
      try {
        await api("POST", `/sessions/${encodeURIComponent(sessionId)}/operator-messages`, { text: field.value });
        field.value = "";
        say(convoMessage, "ok", "Reply sent.");
        await loadTranscript();
      } catch (error) {
        sayError(convoMessage, error);
      }
    });
  });

  byId("convo-reload").addEventListener("click", () => void loadTranscript());
  byId("convo-close").addEventListener("click", (clicked) => {
    if (!openId) return;
    const sessionId = openId;
    void busy(clicked.currentTarget as HTMLButtonElement, async () => {
      try {
        await api("POST", `/sessions/${encodeURIComponent(sessionId)}/close`);
        openId = null;
        convo.hidden = true;
        say(message, "ok", `Session ${sessionId} closed.`);
        await list.reset();
      } catch (error) {
        sayError(convoMessage, error);
      }
    });
  });
  byId("inbox-refresh").addEventListener("click", () => void list.reset());

  const sound = byId<HTMLInputElement>("inbox-sound");
  sound.checked = soundOn.get();
  sound.addEventListener("change", () => soundOn.set(sound.checked));
  byId("inbox-notify").addEventListener("click", () => void askForNotifications().then((text) => say(message, "ok", text)));

  // Live: every event reloads the list (the title's count with it) and the open transcript if it
  // is that chat's. A busy reply form is never touched.
  let live = false;
  function onLive(event: LiveEvent) {
    if (event.event === "handoff.requested") alertHandoff(event.data.text);
    void run(async () => {
      await list.reload();
      if (openId === event.data.session_id) await loadTranscript();
    });
  }
  function onState(up: boolean) {
    live = up;
    byId("inbox-live").textContent = up ? "Live" : "Reconnecting… (refreshing every 10 s)";
    if (up) void run(() => Promise.all([list.reload(), loadTranscript()]));
    else scheduleRefresh();
  }

  // While the stream is down: one re-armed timer (never setInterval), alive only while the tab is shown.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const panel = byId("panel-inbox");
  function scheduleRefresh() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (panel.hidden || live) return;
      void run(async () => {
        if (document.visibilityState === "visible") await Promise.all([list.reload(), loadTranscript()]);
        scheduleRefresh();
      });
    }, INBOX_REFRESH_MS);
  }

  return {
    show: async () => {
      if (!live) scheduleRefresh();
      await list.reset();
    },
    /** Signed in: the stream runs whatever tab is shown, so the title and the alerts work from anywhere. */
    goLive: () => openInboxStream(onLive, onState),
  };
}
