/** Webhooks › Dead letter queue: the spec's "manual re-trigger by an administrator". */
import { api, query, type Page } from "./api.ts";
import {
  armedForSecondClick,
  busy,
  byId,
  code,
  duration,
  fillRows,
  h,
  idCode,
  pager,
  say,
  sayError,
  when,
} from "./dom.ts";
import { lastResult, showAttemptLog } from "./log.ts";
import { describeAttempts, retryPolicy } from "./policy.ts";
import { ruleNames } from "./rules.ts";
import type { ListedDeadLetter, Retriggered } from "./types.ts";

/** Bulk re-trigger counts what it will touch first; past this many it says "more than". */
const COUNT_LIMIT = 1000;

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

  /** First click arms the button, the second discards: a dead letter cannot come back. */
  async function discard(button: HTMLButtonElement, row: ListedDeadLetter) {
    if (!armedForSecondClick(button, "Really discard?", `Really discard ${row.webhook_id}?`)) return;
    await busy(button, async () => {
      try {
        await api("DELETE", `/webhooks/dead-letters/${encodeURIComponent(row.dead_letter_id)}`);
        say(
          message,
          "ok",
          `Discarded ${row.dead_letter_id} (${row.webhook_id}); the delivery stays in the log as dead.`,
        );
        await list.reload();
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  const list = pager(byId("dlq-prev"), byId("dlq-next"), byId("dlq-page"), async (cursor) => {
    try {
      const [page, names] = await Promise.all([
        api<Page<ListedDeadLetter>>(
          "GET",
          `/webhooks/dead-letters${query({ event: event(), since: since(), cursor, limit: "25" })}`,
        ),
        ruleNames(),
      ]);
      fillRows(
        byId("dlq-rows"),
        page.data.map((row) => {
          const again: HTMLButtonElement = h(
            "button",
            {
              type: "button",
              "aria-label": `Re-trigger ${row.webhook_id}`,
              onclick: () =>
                retrigger(again, `/webhooks/dead-letters/${encodeURIComponent(row.dead_letter_id)}/retrigger`),
            },
            "Re-trigger",
          );
          const drop: HTMLButtonElement = h(
            "button",
            { type: "button", "aria-label": `Discard ${row.webhook_id}`, onclick: () => discard(drop, row) },
            "Discard",
          );
          return [
            idCode(row.dead_letter_id),
            idCode(row.webhook_id),
            row.event,
            (row.rule_id && names.get(row.rule_id)) || idCode(row.rule_id),
            code(row.url),
            String(row.total_attempts),
            lastResult(row.last_status_code, row.last_error),
            when(row.dead_at),
            when(row.expires_at),
            h(
              "div",
              { class: "acts" },
              again,
              drop,
              h(
                "button",
                {
                  type: "button",
                  "aria-label": `Attempt log of ${row.webhook_id}`,
                  onclick: () => showAttemptLog(row.webhook_id),
                },
                "Attempt log",
              ),
            ),
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

  /** How many dead letters the filter matches on every page (counted up to COUNT_LIMIT). */
  async function countMatching(): Promise<number> {
    let count = 0;
    let cursor: string | null = null;
    do {
      const page: Page<ListedDeadLetter> = await api(
        "GET",
        `/webhooks/dead-letters${query({ event: event(), since: since(), cursor, limit: "100" })}`,
      );
      count += page.data.length;
      cursor = page.next_cursor;
    } while (cursor && count < COUNT_LIMIT);
    return cursor ? COUNT_LIMIT + 1 : count;
  }

  byId("dlq-bulk").addEventListener("click", (clicked) => {
    void busy(clicked.currentTarget as HTMLButtonElement, async () => {
      try {
        const count = await countMatching();
        const scope = [
          event() ? `of event ${event()}` : "of every event",
          since() ? `that died since ${new Date(since() ?? "").toLocaleString()}` : "",
        ]
          .filter(Boolean)
          .join(" ");
        if (count === 0) return say(message, "ok", `No dead letter ${scope} matches: nothing to re-trigger.`);
        const howMany =
          count > COUNT_LIMIT
            ? `more than ${COUNT_LIMIT} dead letters`
            : `${count} dead letter${count === 1 ? "" : "s"}`;
        byId("dlq-confirm-text").textContent = `Re-trigger ${howMany} ${scope} (all pages, not only this one)?`;
        byId("dlq-confirm-yes").textContent =
          count === 1 ? "Re-trigger it" : `Re-trigger ${count > COUNT_LIMIT ? "them" : `all ${count}`}`;
        confirmBar.hidden = false;
        byId("dlq-confirm-yes").focus();
      } catch (error) {
        sayError(message, error);
      }
    });
  });
  byId("dlq-confirm-no").addEventListener("click", () => {
    confirmBar.hidden = true;
    byId("dlq-bulk").focus();
  });
  byId("dlq-confirm-yes").addEventListener("click", () => {
    confirmBar.hidden = true;
    void retrigger(byId("dlq-bulk"), "/webhooks/dead-letters/retrigger", { event: event(), since: since() });
  });

  async function showPolicy() {
    try {
      const policy = await retryPolicy();
      byId("dlq-policy").textContent = describeAttempts(policy);
      byId("dlq-retention").textContent = ` Dead letters are kept for ${duration(policy.dead_letter_retention_s)}.`;
    } catch {
      // The hint simply stays without numbers; the table below reports real errors.
    }
  }

  return { show: () => Promise.all([showPolicy(), list.reset()]) };
}
