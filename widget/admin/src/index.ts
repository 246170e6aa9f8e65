/**
 * Parley's admin page (GET /admin). Plain DOM over the static shell in widget/admin/page.ts;
 * every call goes to /api/v1 on this origin with the tenant API key the administrator typed.
 */
import { api, apiKey } from "./api.ts";
import { byId, h, run, say, sayError } from "./dom.ts";
import { wireAttemptLog } from "./log.ts";
import { wireDeadLetters } from "./dlq.ts";
import { wireDeliveries } from "./deliveries.ts";
import { wireRules } from "./rules.ts";
import { wireInbox } from "./inbox.ts";
import { wireKnowledge } from "./knowledge.ts";
import { wireAi } from "./ai.ts";
import { wireOverview } from "./overview.ts";
import { wireTests } from "./tests.ts";
import { wireUnanswered } from "./unanswered.ts";

interface Panel {
  show(): Promise<unknown>;
}

function start() {
  const signin = byId("signin");
  const app = byId("app");
  const signout = byId("signout");
  const tabs = [...document.querySelectorAll<HTMLButtonElement>("[role=tab]")];
  const panels: Record<string, Panel> = { overview: wireOverview(), dlq: wireDeadLetters(), deliveries: wireDeliveries(), rules: wireRules(), inbox: wireInbox(), knowledge: wireKnowledge(), tests: wireTests(), unanswered: wireUnanswered(), ai: wireAi() };
  wireAttemptLog();

  function select(tab: HTMLButtonElement, focus = false) {
    for (const other of tabs) {
      const chosen = other === tab;
      other.setAttribute("aria-selected", String(chosen));
      other.tabIndex = chosen ? 0 : -1;
      byId(other.getAttribute("aria-controls") ?? "").hidden = !chosen;
    }
    if (focus) tab.focus();
    void run(() => panels[tab.id.slice(4)]?.show());
  }

  tabs.forEach((tab, index) => {
    tab.addEventListener("click", () => select(tab));
    // The WAI-ARIA tabs pattern: arrows move between tabs, Home/End jump to the ends.
    tab.addEventListener("keydown", (pressed) => {
      const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1 + tabs.length, Home: 0, End: tabs.length - 1 };
      const target = moves[pressed.key];
      if (target === undefined) return;
      pressed.preventDefault();
      select(tabs[target % tabs.length] ?? tab, true);
    });
  });

  /** Fills the event pickers; doubles as the check that the key works. */
  async function enter() {
    const catalog = await api<{ data: Array<{ event: string; description: string }> }>("GET", "/webhooks/events");
    for (const id of ["dlq-event", "rule-event"]) {
      const select = byId<HTMLSelectElement>(id);
      select.replaceChildren(select.options[0] ?? "", ...catalog.data.map((entry) => h("option", { value: entry.event, title: entry.description }, entry.event)));
    }
    signin.hidden = true;
    app.hidden = false;
    signout.hidden = false;
    byId("who").textContent = `Key ${(apiKey.get() ?? "").slice(0, 10)}…`;
    select(tabs[0] as HTMLButtonElement);
  }

  byId("signin-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const field = byId<HTMLInputElement>("signin-key");
    const key = field.value.trim();
    const message = byId("signin-msg");
    if (!key) return say(message, "error", "Enter an API key.");
    apiKey.set(key);
    void enter().then(
      () => {
        field.value = "";
        say(message, "", "");
      },
      (error: unknown) => {
        apiKey.clear();
        sayError(message, error);
        field.focus();
      },
    );
  });

  signout.addEventListener("click", () => {
    apiKey.clear();
    // A reload drops every table the key fetched, not only the visible ones.
    location.reload();
  });

  if (apiKey.get()) void enter().catch((error: unknown) => sayError(byId("signin-msg"), error));
  else byId("signin-key").focus();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
else start();
