/** Unanswered: the questions the bot could not answer, grouped, each fixed in one step. */
import { api } from "./api.ts";
import { busy, byId, fillRows, h, idCode, say, sayError, when } from "./dom.ts";
import type { UnansweredGroup } from "../../../src/test-set/unanswered.ts";

export function wireUnanswered() {
  const message = byId("unanswered-msg");

  async function show() {
    try {
      const groups = await api<{ data: UnansweredGroup[] }>("GET", "/chatbot/unanswered");
      fillRows(
        byId<HTMLTableSectionElement>("unanswered-rows"),
        groups.data.map((group) => [
          group.question,
          String(group.count),
          group.languages.join(", ") || "—",
          when(group.first_seen),
          when(group.last_seen),
          h(
            "span",
            {},
            ...group.examples.map((example) =>
              h("span", { class: "preview" }, idCode(example.session_id), ` “${example.question}”`),
            ),
          ),
          fixes(group),
        ]),
        "Nothing unanswered: every question the bot was asked, it could answer.",
      );
    } catch (error) {
      sayError(message, error);
    }
  }

  function fixes(group: UnansweredGroup): HTMLElement {
    const answer: HTMLInputElement = h("input", {
      maxlength: 2000,
      size: 28,
      "aria-label": `Answer to “${group.question}”`,
      placeholder: "The answer",
    });
    const act = (label: string, path: string, body: () => unknown, done: string) => {
      const button: HTMLButtonElement = h(
        "button",
        {
          type: "button",
          "aria-label": `${label}: ${group.question}`,
          onclick: () =>
            busy(button, async () => {
              const payload = body();
              if (payload === null) return say(message, "error", "Type the answer first.");
              try {
                await api("POST", `/chatbot/unanswered/${encodeURIComponent(group.group_id)}/${path}`, payload);
                say(message, "ok", done);
                await show();
              } catch (error) {
                sayError(message, error);
              }
            }),
        },
        label,
      );
      return button;
    };
    const typed = () => answer.value.trim();
    return h(
      "div",
      { class: "acts" },
      answer,
      act(
        "Add FAQ answer",
        "faq",
        () => (typed() ? { answer: typed() } : null),
        `The FAQ now answers “${group.question}”.`,
      ),
      act(
        "Add as test case",
        "test-case",
        () => (typed() ? { expect: { contains: [typed()] } } : null),
        `“${group.question}” is now a test case.`,
      ),
      act("Dismiss", "dismiss", () => undefined, `Dismissed “${group.question}”.`),
    );
  }

  return { show };
}
