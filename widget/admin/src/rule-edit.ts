/** Webhooks › Rules: one rule's edit form, secret rotation and recovery, built when asked for. */
import { api } from "./api.ts";
import { busy, byId, code, h, say, sayError, when } from "./dom.ts";
import type { Rule } from "./types.ts";

type Rotated = { secret: string; previous_secret_expires_at: string | null };
type Recovered = { recovered: number; since: string };

const field = (label: string, input: HTMLElement) => h("label", {}, label, input);

/**
 * The edit form for `rule`, in place of whatever `host` showed: every editable field
 * (name, event, URL, min confidence, active, rate limit, ordering), then "recover since". `saved` runs
 * after a change so the table shows it.
 */
export function openRuleEditor(host: HTMLElement, rule: Rule, saved: () => Promise<void>): void {
  const message = h("div", { class: "notice", hidden: true });
  const name = h("input", { value: rule.name, autocomplete: "off" });
  const event = h(
    "select",
    {},
    ...[...byId<HTMLSelectElement>("rule-event").options]
      .filter((o) => o.value)
      .map((o) => h("option", { value: o.value }, o.text)),
  );
  event.value = rule.event;
  const url = h("input", { type: "url", value: rule.url, size: 34 });
  const confidence = h("input", {
    type: "number",
    min: 0,
    max: 1,
    step: 0.01,
    size: 6,
    value: rule.conditions.min_confidence ?? "",
  });
  const rate = h("input", { type: "number", min: 1, max: 1000, step: 1, size: 6, value: rule.rate_limit_per_s ?? "" });
  const ordering = h(
    "select",
    {},
    h("option", { value: "none" }, "none"),
    h("option", { value: "per_session" }, "per session (in order, one at a time)"),
  );
  ordering.value = rule.ordering;
  const active = h("input", { type: "checkbox", checked: rule.active });
  const since = h("input", { type: "datetime-local", step: 1 });
  const close = () => host.replaceChildren();

  const form: HTMLFormElement = h(
    "form",
    { novalidate: true, "aria-label": `Edit ${rule.name}` },
    h(
      "fieldset",
      {},
      h("legend", {}, "Edit rule ", code(rule.rule_id)),
      h(
        "div",
        { class: "bar" },
        field("Rule name", name),
        field("Rule event", event),
        field("Rule URL", url),
        field("Minimum confidence (empty: none)", confidence),
        field("Rate limit per second (empty: none)", rate),
        field("Ordering", ordering),
        h("label", { class: "check" }, active, " Rule active"),
        h("button", { type: "submit", class: "primary" }, "Save changes"),
        h("button", { type: "button", onclick: close }, "Close"),
      ),
      h(
        "div",
        { class: "bar" },
        field("Recover failed deliveries created since", since),
        h(
          "button",
          { type: "button", onclick: (e: Event) => recover(e.currentTarget as HTMLButtonElement) },
          "Recover",
        ),
      ),
      message,
    ),
  );
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    if (!button) return;
    const body = {
      name: name.value.trim(),
      event: event.value,
      url: url.value.trim(),
      conditions: confidence.value ? { min_confidence: Number(confidence.value) } : {},
      active: active.checked,
      rate_limit_per_s: rate.value ? Number(rate.value) : null,
      ordering: ordering.value,
    };
    void busy(button, async () => {
      try {
        await api("PATCH", `/webhooks/rules-engine/rules/${encodeURIComponent(rule.rule_id)}`, body);
        say(message, "ok", `Saved ${body.name}.`);
        await saved();
      } catch (error) {
        sayError(message, error);
      }
    });
  });

  async function recover(button: HTMLButtonElement) {
    await busy(button, async () => {
      try {
        // datetime-local is the browser's local time; the API wants an absolute instant.
        const at = since.value ? new Date(since.value) : null;
        const result = await api<Recovered>(
          "POST",
          `/webhooks/rules-engine/rules/${encodeURIComponent(rule.rule_id)}/recover`,
          { since: at && !Number.isNaN(at.getTime()) ? at.toISOString() : since.value },
        );
        say(
          message,
          "ok",
          `${result.recovered} failed or dead deliver${result.recovered === 1 ? "y" : "ies"} since ${new Date(result.since).toLocaleString()} sent again (same webhook_id, a fresh cycle).`,
        );
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  host.replaceChildren(form);
  name.focus();
}

/** Rotates the secret (24 h overlap) and shows the new one this once, with when the old one stops. */
export async function rotateRuleSecret(button: HTMLButtonElement, rule: Rule, message: HTMLElement): Promise<void> {
  await busy(button, async () => {
    try {
      const rotated = await api<Rotated>(
        "POST",
        `/webhooks/rules-engine/rules/${encodeURIComponent(rule.rule_id)}/rotate-secret`,
        {},
      );
      const until = rotated.previous_secret_expires_at;
      say(
        message,
        "ok",
        `New secret for ${rule.name}, shown only now — copy it to your receiver: `,
        h(
          "span",
          {},
          h("code", { id: "rotated-secret" }, rotated.secret),
          until ? h("span", {}, " · the old secret keeps signing until ", when(until)) : "",
        ),
      );
    } catch (error) {
      sayError(message, error);
    }
  });
}
