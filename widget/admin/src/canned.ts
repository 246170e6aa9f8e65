/** Canned replies: the `/` picker in the reply box, and the editor managers use. */
import { api } from "./api.ts";
import { armedForSecondClick, busy, byId, fillRows, h, say, sayError } from "./dom.ts";
import type { CannedReply } from "./types.ts";

let replies: CannedReply[] = [];
const PICK_MAX = 8;

async function loadReplies(): Promise<CannedReply[]> {
  replies = (await api<{ data: CannedReply[] }>("GET", "/canned-replies")).data;
  return replies;
}

/** The `/word` that ends right at the caret (a slash at the start or after a space): what the picker looks for. */
export function slashQuery(value: string, caret: number): { start: number; query: string } | null {
  const match = /(?:^|\s)\/([\p{L}\p{N}_-]*)$/u.exec(value.slice(0, caret));
  if (!match) return null;
  const query = match[1] ?? "";
  return { start: caret - query.length - 1, query: query.toLowerCase() };
}

/** Shortcuts that start with the query first, then replies whose text holds it. */
export function matchReplies(list: readonly CannedReply[], query: string): CannedReply[] {
  const starts = list.filter((reply) => reply.shortcut.startsWith(query));
  const holds = list.filter((reply) => !reply.shortcut.startsWith(query) && reply.text.toLowerCase().includes(query));
  return [...starts, ...holds].slice(0, PICK_MAX);
}

/** The reply box's picker (the ARIA combobox pattern on a textarea): arrows choose, Enter or Tab inserts, Escape closes. */
export function wireCannedPicker(field: HTMLTextAreaElement) {
  const pick = byId<HTMLUListElement>("canned-pick");
  let shown: CannedReply[] = [];
  let active = 0;
  let slash: { start: number; query: string } | null = null;

  function close() {
    shown = [];
    pick.hidden = true;
    field.setAttribute("aria-expanded", "false");
    field.removeAttribute("aria-activedescendant");
  }
  function render() {
    pick.replaceChildren(
      ...shown.map((reply, index) =>
        h(
          "li",
          {
            id: `canned-opt-${index}`,
            role: "option",
            "aria-selected": String(index === active),
            onmousedown: (event) => event.preventDefault(),
            onclick: () => insert(index),
          },
          h("strong", {}, `/${reply.shortcut}`),
          " ",
          reply.text.length > 90 ? `${reply.text.slice(0, 89)}…` : reply.text,
        ),
      ),
    );
    pick.hidden = false;
    field.setAttribute("aria-expanded", "true");
    field.setAttribute("aria-activedescendant", `canned-opt-${active}`);
  }
  function update() {
    slash = slashQuery(field.value, field.selectionStart ?? field.value.length);
    shown = slash ? matchReplies(replies, slash.query) : [];
    active = 0;
    if (shown.length === 0) close();
    else render();
  }
  function insert(index: number) {
    const reply = shown[index];
    if (!reply || !slash) return;
    const end = slash.start + 1 + slash.query.length;
    field.value = field.value.slice(0, slash.start) + reply.text + field.value.slice(end);
    const caret = slash.start + reply.text.length;
    field.setSelectionRange(caret, caret);
    close();
    field.focus();
  }

  field.addEventListener("input", update);
  field.addEventListener("blur", close);
  field.addEventListener("keydown", (pressed) => {
    if (pick.hidden) return;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: shown.length - 1 };
    if (pressed.key in moves) {
      active = (active + (moves[pressed.key] ?? 0)) % shown.length;
      render();
    } else if (pressed.key === "Enter" || pressed.key === "Tab") insert(active);
    else if (pressed.key === "Escape") close();
    else return;
    pressed.preventDefault();
  });
  return { load: () => loadReplies().catch(() => replies) };
}

/** The managers' editor under the inbox: add, change, delete. */
export function wireCannedEditor(afterChange: () => void) {
  const message = byId("canned-msg");
  const form = byId<HTMLFormElement>("canned-form");
  /** The reply being edited; null: the form adds one. */
  let editingId: string | null = null;
  const shortcut = byId<HTMLInputElement>("canned-shortcut");
  const text = byId<HTMLTextAreaElement>("canned-text");
  const cancel = byId("canned-cancel");

  function editing(reply: CannedReply | null) {
    editingId = reply?.canned_reply_id ?? null;
    shortcut.value = reply?.shortcut ?? "";
    text.value = reply?.text ?? "";
    byId("canned-save").textContent = reply ? "Save reply" : "Add reply";
    cancel.hidden = !reply;
  }

  async function show() {
    const list = await loadReplies();
    fillRows(
      byId("canned-rows"),
      list.map((reply) => [
        h("code", {}, `/${reply.shortcut}`),
        h("span", { class: "pre" }, reply.text),
        h(
          "div",
          { class: "acts" },
          h(
            "button",
            { type: "button", "aria-label": `Edit /${reply.shortcut}`, onclick: () => editing(reply) },
            "Edit",
          ),
          h(
            "button",
            {
              type: "button",
              "aria-label": `Delete /${reply.shortcut}`,
              onclick: (event) => remove(event.currentTarget as HTMLButtonElement, reply),
            },
            "Delete",
          ),
        ),
      ]),
      "No canned replies yet.",
    );
  }

  async function remove(button: HTMLButtonElement, reply: CannedReply) {
    if (!armedForSecondClick(button, "Really delete?", `Really delete /${reply.shortcut}?`)) return;
    await busy(button, async () => {
      try {
        await api("DELETE", `/canned-replies/${encodeURIComponent(reply.canned_reply_id)}`);
        say(message, "ok", `/${reply.shortcut} deleted.`);
        await show();
        afterChange();
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const body = { shortcut: shortcut.value.trim().toLowerCase(), text: text.value };
    void busy(byId<HTMLButtonElement>("canned-save"), async () => {
      try {
        if (editingId) await api("PATCH", `/canned-replies/${encodeURIComponent(editingId)}`, body);
        else await api("POST", "/canned-replies", body);
        say(message, "ok", `/${body.shortcut} saved.`);
        editing(null);
        await show();
        afterChange();
      } catch (error) {
        sayError(message, error);
      }
    });
  });
  cancel.addEventListener("click", () => editing(null));
  return { show };
}
