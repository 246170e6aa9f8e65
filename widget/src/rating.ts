/**
 * The question after a person closed the chat: a 1–5 rating (native radio buttons, so arrows,
 * Tab and Space work as everywhere) and an optional comment, sent once. A chat already rated
 * (409, another tab) counts as done.
 */
import { ApiError, type Api } from "./api.ts";
import type { StoredState } from "./store.ts";
import type { Strings } from "./strings.ts";
import { el, type View } from "./view.ts";

/** Each form's radio group needs a name of its own on the page. */
let forms = 0;

/** Asks once per closed chat that a person answered, unless it was rated already. */
export function askRating(api: Api, view: View, s: Strings, state: StoredState, save: () => void): void {
  if (state.status !== "closed" || state.rated || !state.token || !state.log.some((m) => m.role === "operator")) return;
  if (view.log.querySelector(`form.rate[data-session="${CSS.escape(state.sessionId)}"]`)) return;
  const id = `parley-rate-${++forms}`;
  const form = el("form", "rate");
  form.dataset.session = state.sessionId;
  const group = el("fieldset");
  group.append(el("legend", "", s.rateAsk));
  const scores = el("div", "stars");
  for (let n = 1; n <= 5; n++) {
    const input = el("input");
    input.type = "radio";
    input.name = id;
    input.value = String(n);
    input.id = `${id}-${n}`;
    const label = el("label", "", String(n));
    label.htmlFor = input.id;
    label.setAttribute("aria-label", s.rateScore.replace("{n}", String(n)));
    scores.append(input, label);
  }
  const comment = el("textarea");
  comment.rows = 2;
  comment.maxLength = 1000;
  comment.placeholder = s.rateComment;
  comment.setAttribute("aria-label", s.rateComment);
  const send = el("button", "", s.rateSend);
  send.type = "submit";
  send.disabled = true;
  const status = el("p", "rated");
  status.setAttribute("role", "status");
  group.append(scores, comment, send);
  form.append(group, status);
  form.addEventListener("change", () => (send.disabled = !form.querySelector("input:checked")));

  const done = () => {
    state.rated = true;
    save();
    group.remove();
    status.textContent = s.rateThanks;
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const picked = form.querySelector<HTMLInputElement>("input:checked");
    if (!picked) return;
    send.disabled = true;
    api.rate(state.token, state.sessionId, Number(picked.value), comment.value).then(done, (error: unknown) => {
      if (error instanceof ApiError && error.status === 409) return done();
      send.disabled = false;
      status.textContent = s.error;
    });
  });
  view.log.insertBefore(form, view.typing);
  view.log.scrollTop = view.log.scrollHeight;
}
