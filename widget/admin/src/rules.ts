/** Webhooks › Rules: list, switch on and off, send a test, create. */
import { api, query, type Page } from "./api.ts";
import { busy, byId, code, fillRows, h, pager, say, sayError } from "./dom.ts";
import type { Rule } from "./types.ts";

let names: Promise<Map<string, string>> | null = null;

/** rule_id → name, for the dead-letter table (first 100 rules; others show their id). */
export function ruleNames(): Promise<Map<string, string>> {
  names ??= api<Page<Rule>>("GET", "/webhooks/rules-engine/rules?limit=100")
    .then((page) => new Map(page.data.map((rule) => [rule.rule_id, rule.name])))
    .catch(() => ((names = null), new Map<string, string>()));
  return names;
}

const value = (id: string) => byId<HTMLInputElement>(id).value.trim();

export function wireRules() {
  const message = byId("rules-msg");
  const formMessage = byId("rule-form-msg");

  const list = pager(byId("rules-prev"), byId("rules-next"), byId("rules-page"), async (cursor) => {
    try {
      const page = await api<Page<Rule>>("GET", `/webhooks/rules-engine/rules${query({ cursor, limit: "25" })}`);
      fillRows(
        byId("rules-rows"),
        page.data.map((rule) => {
          const toggle: HTMLButtonElement = h(
            "button",
            { type: "button", "aria-label": `${rule.active ? "Deactivate" : "Activate"} ${rule.name}`, onclick: () => setActive(toggle, rule, !rule.active) },
            rule.active ? "Deactivate" : "Activate",
          );
          const test: HTMLButtonElement = h("button", { type: "button", "aria-label": `Send a test of ${rule.name}`, onclick: () => sendTest(test, rule) }, "Send test");
          return [
            rule.name,
            rule.event,
            code(rule.url),
            rule.conditions.min_confidence === undefined ? "—" : String(rule.conditions.min_confidence),
            rule.active ? "active" : "inactive",
            h("div", { class: "acts" }, toggle, test),
          ];
        }),
        "No rules yet: create one below.",
      );
      return page.next_cursor;
    } catch (error) {
      sayError(message, error);
      return null;
    }
  });

  async function setActive(button: HTMLButtonElement, rule: Rule, active: boolean) {
    await busy(button, async () => {
      try {
        await api("PATCH", `/webhooks/rules-engine/rules/${encodeURIComponent(rule.rule_id)}`, { active });
        say(message, "ok", `${rule.name} is now ${active ? "active" : "inactive"}.`);
        await list.reload();
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  async function sendTest(button: HTMLButtonElement, rule: Rule) {
    await busy(button, async () => {
      try {
        const sent = await api<{ webhook_id: string; event: string }>("POST", `/webhooks/rules-engine/rules/${encodeURIComponent(rule.rule_id)}/test`);
        say(message, "ok", `Test delivery ${sent.webhook_id} (${sent.event}) queued for ${rule.name}; see it under Deliveries.`);
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  byId("rule-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const button = (submitted.target as HTMLFormElement).querySelector<HTMLButtonElement>("button[type=submit]");
    if (!button) return;
    const confidence = value("rule-confidence");
    const body = {
      name: value("rule-name"),
      event: byId<HTMLSelectElement>("rule-event").value,
      url: value("rule-url"),
      secret: byId<HTMLInputElement>("rule-secret").value,
      // A number the API can judge (0–1); text the browser could not parse still goes as a number.
      ...(confidence ? { conditions: { min_confidence: Number(confidence) } } : {}),
      active: byId<HTMLInputElement>("rule-active").checked,
    };
    void busy(button, async () => {
      try {
        const created = await api<{ rule_id: string; event: string }>("POST", "/webhooks/rules-engine/rules", body);
        (submitted.target as HTMLFormElement).reset();
        names = null;
        say(formMessage, "ok", `Rule ${created.rule_id} created for ${created.event}.`);
        await list.reset();
      } catch (error) {
        sayError(formMessage, error);
      }
    });
  });

  return { show: () => list.reset() };
}
