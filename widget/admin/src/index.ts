/**
 * Parley's admin page (GET /admin). Plain DOM over the static shell in widget/admin/page.ts;
 * every call goes to /api/v1 on this origin, as a signed-in person or with a tenant API key.
 */
import { api, apiKey, person, query, tenant } from "./api.ts";
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
import { wireTeam } from "./team.ts";
import { wireProfile } from "./profile.ts";

interface Panel {
  show(): Promise<unknown>;
}

interface Me {
  user_id: string;
  email: string | null;
  display_name: string | null;
  memberships: Array<{ tenant_id: string; role: string }>;
}

/** The tabs an agent sees; owners, admins and API keys see every tab (an API key has no profile). */
const AGENT_TABS = new Set(["inbox", "knowledge", "profile"]);

function start() {
  const signin = byId("signin");
  const app = byId("app");
  const signout = byId("signout");
  const allTabs = [...document.querySelectorAll<HTMLButtonElement>("[role=tab]")];
  let tabs = allTabs;
  let role: string | null = null;
  let userId: string | null = null;
  const inbox = wireInbox(() => userId);
  const panels: Record<string, Panel> = {
    overview: wireOverview(),
    dlq: wireDeadLetters(),
    deliveries: wireDeliveries(),
    rules: wireRules(),
    inbox,
    knowledge: wireKnowledge(),
    tests: wireTests(),
    unanswered: wireUnanswered(),
    ai: wireAi(),
    team: wireTeam(() => role),
    profile: wireProfile(),
  };
  wireAttemptLog();

  function select(tab: HTMLButtonElement, focus = false) {
    for (const other of allTabs) {
      const chosen = other === tab;
      other.setAttribute("aria-selected", String(chosen));
      other.tabIndex = chosen ? 0 : -1;
      byId(other.getAttribute("aria-controls") ?? "").hidden = !chosen;
    }
    if (focus) tab.focus();
    void run(() => panels[tab.id.slice(4)]?.show());
  }

  allTabs.forEach((tab) => {
    tab.addEventListener("click", () => select(tab));
    // The WAI-ARIA tabs pattern: arrows move between the visible tabs, Home/End jump to the ends.
    tab.addEventListener("keydown", (pressed) => {
      const index = tabs.indexOf(tab);
      const moves: Record<string, number> = {
        ArrowRight: index + 1,
        ArrowLeft: index - 1 + tabs.length,
        Home: 0,
        End: tabs.length - 1,
      };
      const target = moves[pressed.key];
      if (target === undefined) return;
      pressed.preventDefault();
      select(tabs[target % tabs.length] ?? tab, true);
    });
  });

  /** Fills the event pickers (managers only). */
  async function loadEventCatalog() {
    const catalog = await api<{ data: Array<{ event: string; description: string }> }>("GET", "/webhooks/events");
    for (const id of ["dlq-event", "rule-event"]) {
      const select = byId<HTMLSelectElement>(id);
      select.replaceChildren(
        select.options[0] ?? "",
        ...catalog.data.map((entry) => h("option", { value: entry.event, title: entry.description }, entry.event)),
      );
    }
  }

  /** A person in several tenants picks one; switching reloads, so no table or stream of the other stays. */
  async function fillTenantPicker(memberships: Me["memberships"], chosenId: string) {
    const picker = byId<HTMLSelectElement>("tenant-pick");
    const named = await Promise.all(
      memberships.map(async (membership) => {
        const found = await api<{ name: string }>("GET", `/tenant${query({ tenant_id: membership.tenant_id })}`).catch(
          () => null,
        );
        return h(
          "option",
          { value: membership.tenant_id },
          `${found?.name ?? membership.tenant_id} (${membership.role})`,
        );
      }),
    );
    picker.replaceChildren(...named);
    picker.value = chosenId;
    picker.onchange = () => {
      tenant.set(picker.value);
      location.reload();
    };
    byId("tenant-pick-label").hidden = false;
  }

  /** Shows the tabs this credential may use; doubles as the check that it works. */
  async function enter() {
    if (person.signedIn()) {
      // Asked without a tenant header, /me lists every membership.
      const kept = tenant.get();
      tenant.set(null);
      const me = await api<Me>("GET", "/me");
      const chosen = me.memberships.find((membership) => membership.tenant_id === kept) ?? me.memberships[0];
      if (me.memberships.length > 1 && chosen) {
        await fillTenantPicker(me.memberships, chosen.tenant_id);
        tenant.set(chosen.tenant_id);
      }
      role = chosen?.role ?? "agent";
      userId = me.user_id;
      byId("who").textContent = `${me.display_name ?? me.email ?? ""} (${role})`;
    } else {
      role = null;
      userId = null;
      byId("who").textContent = `Key ${(apiKey.get() ?? "").slice(0, 10)}…`;
    }
    document.body.dataset.role = role ?? "key";
    const visible = (tab: HTMLButtonElement) => {
      const id = tab.id.slice(4);
      if (role === "agent") return AGENT_TABS.has(id);
      return role !== null || id !== "profile";
    };
    tabs = allTabs.filter(visible);
    for (const tab of allTabs) tab.hidden = !tabs.includes(tab);
    if (role !== "agent") await loadEventCatalog();
    signin.hidden = true;
    app.hidden = false;
    signout.hidden = false;
    inbox.goLive();
    select(tabs[0] as HTMLButtonElement);
  }

  byId("signin-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const keyField = byId<HTMLInputElement>("signin-key");
    const emailField = byId<HTMLInputElement>("signin-email");
    const passwordField = byId<HTMLInputElement>("signin-password");
    const key = keyField.value.trim();
    const message = byId("signin-msg");
    let signing: Promise<void>;
    if (key) {
      apiKey.set(key);
      signing = Promise.resolve();
    } else if (emailField.value.trim() && passwordField.value) {
      signing = person.signIn(emailField.value.trim(), passwordField.value);
    } else return say(message, "error", "Enter your e-mail and password, or an API key.");
    void signing.then(enter).then(
      () => {
        keyField.value = "";
        passwordField.value = "";
        say(message, "", "");
      },
      (error: unknown) => {
        apiKey.clear();
        sayError(message, error);
        (key ? keyField : passwordField).focus();
      },
    );
  });

  signout.addEventListener("click", () => {
    apiKey.clear();
    tenant.set(null);
    // A reload drops every table the page fetched and the live stream, not only the visible ones.
    void person.signOut().finally(() => location.reload());
  });

  if (apiKey.get()) void enter().catch((error: unknown) => sayError(byId("signin-msg"), error));
  else if (!person.mayResume()) byId("signin-email").focus();
  else
    void person.resume().then((resumed) => {
      if (resumed) return enter().catch((error: unknown) => sayError(byId("signin-msg"), error));
      byId("signin-email").focus();
    });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
else start();
