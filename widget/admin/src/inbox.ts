/** Hand-off inbox: chats waiting for a person, who the visitor is and who has each; search; Take; the open chat. */
import { api, query, type Page } from "./api.ts";
import { byId, fillRows, h, idCode, pager, run, say, sayError } from "./dom.ts";
import type { InboxChat } from "./types.ts";
import { alertHandoff, askForNotifications, showWaiting, soundOn } from "./alerts.ts";
import { openInboxStream, type LiveEvent } from "./live.ts";
import { holderOf, waited, whoWrote, wireConversation } from "./inbox-chat.ts";
import { wireCannedEditor } from "./canned.ts";

/** How often the inbox (and an open transcript) reloads by itself while the live stream is down. */
export const INBOX_REFRESH_MS = 10_000;

function previewCell(chat: InboxChat): Node | string {
  if (!chat.preview) return "—";
  return h("span", { class: "preview" }, h("strong", {}, `${whoWrote(chat.preview)}: `), chat.preview.text);
}

const visitorCell = (chat: InboxChat) =>
  h(
    "span",
    {},
    h("strong", {}, chat.visitor_name ?? "Visitor"),
    chat.language ? ` (${chat.language})` : "",
    h("br"),
    idCode(chat.session_id),
  );

const unreadCell = (chat: InboxChat) =>
  chat.unread > 0 ? h("span", { class: "badge" }, String(chat.unread), h("span", { class: "sr" }, " unread")) : "0";

/** `me()`: the signed-in person's user id (null with an API key), to tell "you" from the others. */
export function wireInbox(me: () => string | null) {
  const message = byId("inbox-msg");
  const status = byId<HTMLSelectElement>("inbox-status");
  const searchField = byId<HTMLInputElement>("inbox-search");
  const clearSearch = byId("inbox-search-clear");
  let searching: string | null = null;

  const take = (chat: InboxChat) => async () => {
    try {
      await api("POST", `/sessions/${encodeURIComponent(chat.session_id)}/assign`, {});
      say(message, "ok", `You have the chat with ${chat.visitor_name ?? "the visitor"}.`);
      await Promise.all([list.reload(), conversation.touched(chat.session_id)]);
    } catch (error) {
      sayError(message, error);
    }
  };

  const list = pager(byId("inbox-prev"), byId("inbox-next"), byId("inbox-page"), async (cursor) => {
    try {
      const path = searching
        ? `/inbox/search${query({ q: searching, cursor, limit: "25" })}`
        : `/inbox${query({ status: status.value, cursor, limit: "25" })}`;
      const page = await api<Page<InboxChat>>("GET", path);
      if (!cursor && !searching && status.value === "handoff") showWaiting(page.data.length);
      fillRows(
        byId("inbox-rows"),
        page.data.map((chat) => [
          visitorCell(chat),
          // Out of hours nobody was promised: the visitor left a message for the team's return.
          `${waited(chat.waiting_seconds)}${chat.within_business_hours === false ? " · out of hours" : ""}`,
          previewCell(chat),
          unreadCell(chat),
          holderOf(chat, me()),
          h(
            "div",
            { class: "acts" },
            h(
              "button",
              {
                type: "button",
                "aria-label": `Open the chat with ${chat.visitor_name ?? chat.session_id}`,
                onclick: () => conversation.open(chat.session_id),
              },
              "Open",
            ),
            chat.assigned_to === null && chat.status === "handoff" && me() !== null
              ? h(
                  "button",
                  {
                    type: "button",
                    "aria-label": `Take the chat with ${chat.visitor_name ?? chat.session_id}`,
                    onclick: take(chat),
                  },
                  "Take",
                )
              : null,
          ),
        ]),
        searching
          ? `No conversation matches "${searching}".`
          : status.value === "closed"
            ? "No closed chat."
            : "No chat is waiting for a person.",
      );
      return page.next_cursor;
    } catch (error) {
      sayError(message, error);
      return null;
    }
  });

  const conversation = wireConversation({ me, changed: () => list.reload() });
  const editor = wireCannedEditor(() => void conversation.prepare());

  byId("inbox-search-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    searching = searchField.value.trim() || null;
    clearSearch.hidden = searching === null;
    status.disabled = searching !== null;
    void list.reset();
  });
  clearSearch.addEventListener("click", () => {
    searching = null;
    searchField.value = "";
    clearSearch.hidden = true;
    status.disabled = false;
    void list.reset();
  });
  status.addEventListener("change", () => void list.reset());
  byId("inbox-refresh").addEventListener("click", () => void list.reset());

  const sound = byId<HTMLInputElement>("inbox-sound");
  sound.checked = soundOn.get();
  sound.addEventListener("change", () => soundOn.set(sound.checked));
  byId("inbox-notify").addEventListener(
    "click",
    () => void askForNotifications().then((text) => say(message, "ok", text)),
  );

  // Live: every event reloads the list (the title's count with it) and the open chat if it is
  // that chat's. A busy reply form is never touched.
  let live = false;
  function onLive(event: LiveEvent) {
    if (event.event === "handoff.requested") alertHandoff(event.data.text);
    void run(() => Promise.all([list.reload(), conversation.touched(event.data.session_id)]));
  }
  function onState(up: boolean) {
    live = up;
    byId("inbox-live").textContent = up ? "Live" : "Reconnecting… (refreshing every 10 s)";
    if (up) void run(() => Promise.all([list.reload(), conversation.reload()]));
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
        if (document.visibilityState === "visible") await Promise.all([list.reload(), conversation.reload()]);
        scheduleRefresh();
      });
    }, INBOX_REFRESH_MS);
  }

  return {
    show: async () => {
      if (!live) scheduleRefresh();
      await Promise.all([
        list.reset(),
        conversation.prepare(),
        document.body.dataset.role === "agent" ? null : editor.show().catch(() => undefined),
      ]);
    },
    /** Signed in: the stream runs whatever tab is shown, so the title and the alerts work from anywhere. */
    goLive: () => openInboxStream(onLive, onState),
  };
}
