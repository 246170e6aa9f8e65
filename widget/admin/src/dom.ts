/** A few DOM helpers. Data only ever becomes text nodes or attribute values, never markup. */
import { ApiError } from "./api.ts";

type Child = Node | string | number | null | undefined | false;
type Prop = string | number | boolean | null | undefined | ((event: Event) => unknown);

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, Prop> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === "function") element.addEventListener(name.slice(2), (event) => void run(() => value(event)));
    else if (typeof value === "boolean") element.toggleAttribute(name, value);
    else if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  for (const child of children)
    if (child !== null && child !== undefined && child !== false)
      element.append(typeof child === "number" ? String(child) : child);
  return element;
}

export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

/** A status line: `ok` is announced politely, `error` as an alert. Empty text hides it. */
export function say(target: HTMLElement, kind: "ok" | "error" | "", text: string, extra?: Node): void {
  target.replaceChildren(text, ...(extra ? [extra] : []));
  target.className = `notice ${kind}`;
  target.setAttribute("role", kind === "error" ? "alert" : "status");
  target.hidden = !text;
}

/** Shows what went wrong in `target`: the API's own message, and each field it named. */
export function sayError(target: HTMLElement, error: unknown): void {
  const details =
    error instanceof ApiError && error.details.length > 0
      ? h("ul", {}, ...error.details.map((d) => h("li", {}, `${d.field}: ${d.message}`)))
      : undefined;
  say(target, "error", error instanceof Error ? error.message : String(error), details);
}

/** Runs an async handler; what escapes is logged rather than lost. */
export async function run(fn: () => unknown): Promise<void> {
  try {
    await fn();
  } catch (error) {
    console.error("[parley admin]", error);
  }
}

export const when = (iso: string | null): Node | string =>
  iso
    ? h(
        "time",
        { datetime: iso, title: iso },
        new Date(iso).toLocaleString(undefined, { dateStyle: "short", timeStyle: "medium" }),
      )
    : "—";

export const code = (text: string | null): Node | string => (text ? h("code", {}, text) : "—");

/** An id: never broken mid-string (the table scrolls sideways instead). */
export const idCode = (text: string | null): Node | string => (text ? h("code", { class: "id" }, text) : "—");

/** "30 s", "5 min", "2 h", "7 days": a configured duration in words. */
export function duration(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} day${seconds === 86_400 ? "" : "s"}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** Replaces a table body; an empty list becomes one row that says so. */
export function fillRows(body: HTMLTableSectionElement, rows: Array<Array<Node | string>>, emptyText: string): void {
  const columns = body.closest("table")?.querySelectorAll("thead th").length ?? 1;
  body.replaceChildren(
    ...(rows.length > 0
      ? rows.map((cells) => h("tr", {}, ...cells.map((cell) => h("td", {}, cell))))
      : [h("tr", {}, h("td", { colspan: columns, class: "empty" }, emptyText))]),
  );
}

/** Runs `load` while `button` shows it is busy, so a double click cannot send twice. */
export async function busy(button: HTMLButtonElement, load: () => Promise<unknown>): Promise<void> {
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    await load();
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

/**
 * A form whose submit runs `work` with its submit button busy: the text `work` answers is said
 * as a success (and the form is cleared, unless it holds a setting), a failure is said as an
 * error, both in `target`.
 */
export function onSubmit(
  form: HTMLFormElement,
  target: HTMLElement,
  work: () => Promise<string>,
  options: { keepValues?: boolean } = {},
): void {
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    if (!button) return;
    void busy(button, async () => {
      try {
        const done = await work();
        if (!options.keepValues) form.reset();
        say(target, "ok", done);
      } catch (error) {
        sayError(target, error);
      }
    });
  });
}

/**
 * Cursor paging over a list endpoint: the cursors of the pages seen so far make "Previous"
 * possible although the API only hands out the next cursor.
 */
export function pager(
  prev: HTMLButtonElement,
  next: HTMLButtonElement,
  label: HTMLElement,
  load: (cursor: string | null) => Promise<string | null>,
) {
  const cursors: Array<string | null> = [null];
  let nextCursor: string | null = null;
  const show = async () => {
    nextCursor = await load(cursors.at(-1) ?? null);
    prev.disabled = cursors.length < 2;
    next.disabled = !nextCursor;
    label.textContent = `Page ${cursors.length}`;
  };
  prev.addEventListener(
    "click",
    () =>
      void run(async () => {
        cursors.pop();
        await show();
      }),
  );
  next.addEventListener(
    "click",
    () =>
      void run(async () => {
        if (nextCursor) {
          cursors.push(nextCursor);
          await show();
        }
      }),
  );
  return {
    /** Back to the first page (new filter, or after a change). */
    reset: async () => {
      cursors.length = 1;
      await show();
    },
    reload: show,
  };
}

/**
 * Two steps instead of a blocking confirm(): the first click arms the button ("Really delete?")
 * and answers false; the click on an armed button answers true.
 */
export function armedForSecondClick(button: HTMLButtonElement, question: string, label: string): boolean {
  if (button.dataset.armed === "true") return true;
  button.dataset.armed = "true";
  button.textContent = question;
  button.setAttribute("aria-label", label);
  return false;
}
