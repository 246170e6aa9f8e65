/** Hand-off inbox: sessions waiting for a person; read, reply, close. */
import { api, query, type Page } from "./api.ts";
import { busy, byId, code, fillRows, h, pager, say, sayError, when } from "./dom.ts";
import type { Message, Session } from "./types.ts";

const ROLE_LABELS: Record<Message["role"], string> = { visitor: "Visitor", bot: "Bot", operator: "Operator" };

export function wireInbox() {
  const message = byId("inbox-msg");
  const convo = byId("convo");
  const convoMessage = byId("convo-msg");
  let openId: string | null = null;

  const list = pager(byId("inbox-prev"), byId("inbox-next"), byId("inbox-page"), async (cursor) => {
    try {
      const page = await api<Page<Session>>("GET", `/sessions${query({ status: "handoff", cursor, limit: "25" })}`);
      fillRows(
        byId("inbox-rows"),
        page.data.map((session) => [
          code(session.session_id),
          session.channel,
          String(session.message_count),
          session.handoff_reason ?? "—",
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
        ...transcript.data.map((entry) => h("li", { class: entry.role }, h("span", { class: "who" }, ROLE_LABELS[entry.role] ?? entry.role, " · ", when(entry.created_at)), entry.text)),
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

  return { show: () => list.reset() };
}
