/** Webhooks › Rules: list, switch on and off, send a test, edit, rotate, delete, create. */
import { api, query, type Page } from "./api.ts";
import { armedForSecondClick, busy, byId, code, fillRows, h, pager, say, sayError, when } from "./dom.ts";
import type { Rule, WebhookStats } from "./types.ts";
import { openRuleEditor, rotateRuleSecret } from "./rule-edit.ts";

type RuleStats = WebhookStats["rules"][number];

/** "83 % (5 of 6)": succeeded of finished deliveries; pending ones do not count yet. */
function successCell(stats: RuleStats | undefined): Node | string {
  if (!stats || stats.success_rate === null) return stats ? `— (${stats.deliveries} pending)` : "—";
  const finished = stats.succeeded + stats.dead;
  return h(
    "span",
    { class: stats.dead === 0 ? "ok-text" : "err-text" },
    `${Math.round(stats.success_rate * 100)} % (${stats.succeeded} of ${finished})`,
  );
}

function lastCell(stats: RuleStats | undefined): Node | string {
  if (!stats) return "—";
  const kind =
    stats.last_status === "succeeded" ? "ok-text" : stats.last_status === "dead" ? "err-text" : "pending-text";
  const httpStatus = stats.last_status_code === null ? "" : ` · HTTP ${stats.last_status_code}`;
  return h("span", {}, h("span", { class: kind }, `${stats.last_status}${httpStatus}`), " · ", when(stats.last_at));
}

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
      const [page, stats] = await Promise.all([
        api<Page<Rule>>("GET", `/webhooks/rules-engine/rules${query({ cursor, limit: "25" })}`),
        api<WebhookStats>("GET", "/webhooks/stats"),
      ]);
      const byRule = new Map(stats.rules.map((row) => [row.rule_id, row]));
      fillRows(
        byId("rules-rows"),
        page.data.map((rule) => {
          const toggle: HTMLButtonElement = h(
            "button",
            {
              type: "button",
              "aria-label": `${rule.active ? "Deactivate" : "Activate"} ${rule.name}`,
              onclick: () => setActive(toggle, rule, !rule.active),
            },
            rule.active ? "Deactivate" : "Activate",
          );
          const test: HTMLButtonElement = h(
            "button",
            { type: "button", "aria-label": `Send a test of ${rule.name}`, onclick: () => sendTest(test, rule) },
            "Send test",
          );
          const edit = h(
            "button",
            {
              type: "button",
              "aria-label": `Edit ${rule.name}`,
              onclick: () => openRuleEditor(byId("rule-edit"), rule, list.reload),
            },
            "Edit",
          );
          const rotate: HTMLButtonElement = h(
            "button",
            {
              type: "button",
              "aria-label": `Rotate the secret of ${rule.name}`,
              onclick: () => rotateRuleSecret(rotate, rule, message),
            },
            "Rotate secret",
          );
          const remove: HTMLButtonElement = h(
            "button",
            { type: "button", "aria-label": `Delete ${rule.name}`, onclick: () => deleteRule(remove, rule) },
            "Delete",
          );
          return [
            rule.name,
            rule.event,
            code(rule.url),
            rule.conditions.min_confidence === undefined ? "—" : String(rule.conditions.min_confidence),
            rule.active ? "active" : "inactive",
            successCell(byRule.get(rule.rule_id)),
            lastCell(byRule.get(rule.rule_id)),
            h("div", { class: "acts" }, toggle, test, edit, rotate, remove),
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

  /** First click arms the button, the second deletes: a deleted rule cannot come back. */
  async function deleteRule(button: HTMLButtonElement, rule: Rule) {
    if (!armedForSecondClick(button, "Really delete?", `Really delete ${rule.name}?`)) return;
    await busy(button, async () => {
      try {
        await api("DELETE", `/webhooks/rules-engine/rules/${encodeURIComponent(rule.rule_id)}`);
        names = null;
        byId("rule-edit").replaceChildren();
        say(message, "ok", `Deleted ${rule.name}; its unsent deliveries are cancelled, the log stays.`);
        await list.reload();
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  async function sendTest(button: HTMLButtonElement, rule: Rule) {
    await busy(button, async () => {
      try {
        const sent = await api<{ webhook_id: string; event: string }>(
          "POST",
          `/webhooks/rules-engine/rules/${encodeURIComponent(rule.rule_id)}/test`,
        );
        say(
          message,
          "ok",
          `Test delivery ${sent.webhook_id} (${sent.event}) queued for ${rule.name}; see it under Deliveries.`,
        );
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
