/** Webhooks › Dead letter queue: the spec's "manual re-trigger by an administrator". */
import { api, query, type Page } from "./api.ts";
import { busy, byId, code, fillRows, h, pager, say, sayError, when } from "./dom.ts";
import { lastResult, showAttemptLog } from "./log.ts";
import { ruleNames } from "./rules.ts";
import type { DeadLetter, Retriggered } from "./types.ts";

const event = () => byId<HTMLSelectElement>("dlq-event").value || undefined;

/** The datetime-local value as an ISO time, read in the browser's time zone. */
function since(): string | undefined {
  const value = byId<HTMLInputElement>("dlq-since").value;
  return value ? new Date(value).toISOString() : undefined;
}

function confirmation(result: Retriggered): string {
  const ids = result.retriggered.map((row) => row.webhook_id);
  if (ids.length === 0) return "Nothing matched: no dead letter was re-triggered.";
  return `Re-triggered ${ids.length} dead letter${ids.length === 1 ? "" : "s"}; sending again now with the same webhook_id, from attempt 1: ${ids.join(", ")}.`;
}

export function wireDeadLetters() {
  const message = byId("dlq-msg");
  const confirmBar = byId("dlq-confirm");

  async function retrigger(button: HTMLButtonElement, path: string, body?: unknown) {
    await busy(button, async () => {
      try {
        const result = await api<Retriggered>("POST", path, body);
        say(message, "ok", confirmation(result));
        await list.reload();
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  const list = pager(byId("dlq-prev"), byId("dlq-next"), byId("dlq-page"), async (cursor) => {
    try {
      const [page, names] = await Promise.all([
        api<Page<DeadLetter>>("GET", `/webhooks/dead-letters${query({ event: event(), since: since(), cursor, limit: "25" })}`),
        ruleNames(),
      ]);
      fillRows(
        byId("dlq-rows"),
        page.data.map((row) => {
          const again: HTMLButtonElement = h("button", { type: "button", "aria-label": `Re-trigger ${row.webhook_id}`, onclick: () => retrigger(again, `/webhooks/dead-letters/${encodeURIComponent(row.dead_letter_id)}/retrigger`) }, "Re-trigger");
          return [
            code(row.dead_letter_id),
            code(row.webhook_id),
            row.event,
            (row.rule_id && names.get(row.rule_id)) || code(row.rule_id),
            String(row.attempts),
            lastResult(row.last_status_code, row.last_error),
            when(row.dead_at),
            when(row.expires_at),
            h("div", { class: "acts" }, again, h("button", { type: "button", "aria-label": `Attempt log of ${row.webhook_id}`, onclick: () => showAttemptLog(row.webhook_id) }, "Attempt log")),
          ];
        }),
        "No dead letters. Everything was delivered, or re-triggered.",
      );
      return page.next_cursor;
    } catch (error) {
      sayError(message, error);
      return null;
    }
  });

  byId("dlq-filter").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    say(message, "", "");
    void list.reset();
  });

  byId("dlq-bulk").addEventListener("click", () => {
    const scope = [event() ? `of event ${event()}` : "of every event", since() ? `that died since ${new Date(since() ?? "").toLocaleString()}` : ""].filter(Boolean).join(" ");
    byId("dlq-confirm-text").textContent = `Re-trigger all dead letters ${scope} (all pages, not only this one)?`;
    confirmBar.hidden = false;
    byId("dlq-confirm-yes").focus();
  });
  byId("dlq-confirm-no").addEventListener("click", () => {
    confirmBar.hidden = true;
    byId("dlq-bulk").focus();
  });
  byId("dlq-confirm-yes").addEventListener("click", () => {
    confirmBar.hidden = true;
    void retrigger(byId("dlq-bulk"), "/webhooks/dead-letters/retrigger", { event: event(), since: since() });
  });

  return { show: () => list.reset() };
}
