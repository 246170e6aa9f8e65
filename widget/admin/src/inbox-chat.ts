/** The open chat of the inbox: who the visitor is, who has the chat, the transcript, the reply box. */
import { api, person } from "./api.ts";
import { busy, byId, h, say, sayError, when } from "./dom.ts";
import type { InboxChat, Message } from "./types.ts";
import { wireCannedPicker } from "./canned.ts";

const ROLE_LABELS: Record<Message["role"], string> = { visitor: "Visitor", bot: "Bot", operator: "Operator" };

/** "Operator (Ana)" when the reply was sent by an operator with a display name. */
export const whoWrote = (entry: { role: Message["role"]; author_name: string | null }) =>
  `${ROLE_LABELS[entry.role] ?? entry.role}${entry.author_name ? ` (${entry.author_name})` : ""}`;

/** "45 s", "12 min", "2 h 5 min": how long a visitor has waited. */
export function waited(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** "Sam", "you", or "nobody yet": who has a chat, as the signed-in person reads it. */
export const holderOf = (chat: InboxChat, me: string | null) =>
  chat.assigned_to === null
    ? "nobody yet"
    : chat.assigned_to.user_id === me
      ? "you"
      : (chat.assigned_to.display_name ?? "another person");

export function wireConversation(options: { me: () => string | null; changed: () => Promise<void> }) {
  const section = byId("convo");
  const message = byId("convo-msg");
  const field = byId<HTMLTextAreaElement>("reply-text");
  const assignee = byId<HTMLSelectElement>("convo-assignee");
  const canned = wireCannedPicker(field);
  let openId: string | null = null;
  let chat: InboxChat | null = null;

  function showFacts(current: InboxChat) {
    const facts: Array<[string, Node | string]> = [
      ["Visitor", current.visitor_name ?? "Not given"],
      ["E-mail", current.lead?.email || "—"],
      ["Phone", current.lead?.phone || "—"],
      [
        "Appointment",
        current.appointment
          ? h("span", {}, when(current.appointment.starts_at), ` (${current.appointment.timezone})`)
          : "—",
      ],
      ["Language", current.language ?? "—"],
      [
        "Page",
        current.page_url
          ? h("a", { href: current.page_url, target: "_blank", rel: "noopener noreferrer" }, current.page_url)
          : "—",
      ],
      ["Waiting", waited(current.waiting_seconds)],
      ["Channel", `${current.channel}${current.handoff_reason ? ` · handed over: ${current.handoff_reason}` : ""}`],
    ];
    byId("convo-facts").replaceChildren(...facts.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]));
    const me = options.me();
    const holder = holderOf(current, me);
    byId("convo-owner").textContent = `Who has it: ${holder}.`;
    const closed = current.status === "closed";
    byId("convo-take").hidden =
      closed || (current.assigned_to !== null && current.assigned_to.user_id === me) || me === null;
    byId("convo-release").hidden = closed || current.assigned_to === null || current.assigned_to.user_id !== me;
    byId("convo-close").hidden = closed;
    byId("convo-reopen").hidden = !closed;
    assignee.value = current.assigned_to?.user_id ?? "";
    byId("convo-title").textContent = `Conversation with ${current.visitor_name ?? "a visitor"} (${current.status})`;
  }

  /** Reads the chat again; a person's opening marks its messages read. */
  async function refreshChat() {
    if (!openId) return;
    const path = `/inbox/chats/${encodeURIComponent(openId)}`;
    chat = person.signedIn() ? await api<InboxChat>("POST", `${path}/read`) : await api<InboxChat>("GET", path);
    showFacts(chat);
  }

  async function loadTranscript() {
    if (!openId) return;
    const transcript = await api<{ status: string; data: Message[] }>(
      "GET",
      `/chatbot/sessions/${encodeURIComponent(openId)}/messages`,
    );
    const log = byId("convo-log");
    log.replaceChildren(
      ...transcript.data.map((entry) =>
        h(
          "li",
          { class: entry.role },
          h("span", { class: "who" }, whoWrote(entry), " · ", when(entry.created_at)),
          entry.text,
        ),
      ),
    );
    log.scrollTop = log.scrollHeight;
  }

  async function reload() {
    try {
      await Promise.all([refreshChat(), loadTranscript()]);
    } catch (error) {
      sayError(message, error);
    }
  }

  /** A change made here: the chat, then the list, read again. */
  function act(button: HTMLButtonElement, method: string, path: string, body: unknown, done: string) {
    if (!openId) return;
    const sessionId = openId;
    void busy(button, async () => {
      try {
        await api(method, path.replace(":id", encodeURIComponent(sessionId)), body);
        say(message, "ok", done);
        await Promise.all([reload(), options.changed()]);
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  const clicked = (event: Event) => event.currentTarget as HTMLButtonElement;
  byId("convo-take").addEventListener("click", (event) =>
    act(clicked(event), "POST", "/sessions/:id/assign", {}, "You have this chat."),
  );
  byId("convo-release").addEventListener("click", (event) =>
    act(clicked(event), "POST", "/sessions/:id/assign", { user_id: null }, "Released: anyone may take it."),
  );
  byId("convo-close").addEventListener("click", (event) =>
    act(clicked(event), "POST", "/sessions/:id/close", undefined, "Chat closed."),
  );
  byId("convo-reopen").addEventListener("click", (event) =>
    act(clicked(event), "POST", "/sessions/:id/reopen", undefined, "Chat reopened."),
  );
  byId("convo-reload").addEventListener("click", () => void reload());
  assignee.addEventListener("change", () => {
    const chosen = assignee.value || null;
    if (!openId || chosen === (chat?.assigned_to?.user_id ?? null)) return;
    const name = assignee.selectedOptions[0]?.textContent ?? "";
    void api("POST", `/sessions/${encodeURIComponent(openId)}/assign`, { user_id: chosen })
      .then(() => say(message, "ok", chosen ? `Assigned to ${name}.` : "Nobody has this chat now."))
      .then(() => Promise.all([reload(), options.changed()]))
      .catch((error: unknown) => sayError(message, error));
  });

  // The visitor sees "typing" while the operator writes: one call per 3 s of typing at most.
  let typingSent = 0;
  field.addEventListener("input", () => {
    if (!openId || Date.now() - typingSent < 3_000) return;
    typingSent = Date.now();
    api("POST", `/sessions/${encodeURIComponent(openId)}/typing`).catch(() => undefined);
  });

  byId("reply-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const button = (submitted.target as HTMLFormElement).querySelector<HTMLButtonElement>("button[type=submit]");
    if (!openId || !button) return;
    const sessionId = openId;
    void busy(button, async () => {
      try {
        await api("POST", `/sessions/${encodeURIComponent(sessionId)}/operator-messages`, { text: field.value });
        field.value = "";
        say(message, "ok", "Reply sent.");
        await reload();
      } catch (error) {
        sayError(message, error);
      }
    });
  });

  /** The team in the "Assign to" list (owners and admins read it; an agent's page hides the list). */
  async function loadTeam() {
    try {
      const team = await api<{ data: Array<{ user_id: string; email: string; display_name: string | null }> }>(
        "GET",
        "/users",
      );
      assignee.replaceChildren(
        h("option", { value: "" }, "Nobody"),
        ...team.data.map((member) => h("option", { value: member.user_id }, member.display_name ?? member.email)),
      );
    } catch {
      // An agent may not read the team: the list stays hidden.
    }
  }

  return {
    async open(sessionId: string) {
      openId = sessionId;
      section.hidden = false;
      say(message, "", "");
      await reload();
      field.focus();
      // Opening read the chat: its unread badge goes.
      await options.changed();
    },
    /** Something happened in a chat: read it again if it is the open one. */
    async touched(sessionId: string) {
      if (openId === sessionId) await reload();
    },
    reload,
    prepare: () => Promise.all([canned.load(), document.body.dataset.role === "agent" ? null : loadTeam()]),
  };
}
