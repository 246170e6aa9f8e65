/** The attempt log of one delivery, in a modal dialog (Esc or "Close" returns focus). */
import { api } from "./api.ts";
import { byId, code, fillRows, h, say, sayError, when } from "./dom.ts";
import type { Attempt, Delivery } from "./types.ts";

/** The last failure of a delivery: its error (which names the status code), else the bare code, else a dash. */
export const lastResult = (statusCode: number | null, error: string | null): Node | string =>
  error || statusCode !== null ? h("span", { class: "err-text" }, error || `HTTP ${statusCode}`) : "—";

export async function showAttemptLog(webhookId: string): Promise<void> {
  const dialog = byId<HTMLDialogElement>("log");
  const summary = byId("log-summary");
  const message = byId("log-msg");
  byId("log-title").textContent = `Delivery ${webhookId}`;
  summary.replaceChildren();
  byId<HTMLTableSectionElement>("log-rows").replaceChildren();
  say(message, "ok", "Loading…");
  if (!dialog.open) dialog.showModal();
  try {
    const delivery = await api<Delivery & { attempt_log: Attempt[] }>("GET", `/webhooks/deliveries/${encodeURIComponent(webhookId)}`);
    const facts: Array<[string, Node | string]> = [
      ["Event", delivery.event],
      ["Status", delivery.status],
      ["URL", code(delivery.url)],
      ["Rule", code(delivery.rule_id)],
      ["Cycle / attempts", `${delivery.cycle} / ${delivery.attempts}`],
      ["Created", when(delivery.created_at)],
      ["Next attempt", when(delivery.next_attempt_at)],
    ];
    summary.replaceChildren(...facts.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]));
    say(message, "", "");
    fillRows(
      byId<HTMLTableSectionElement>("log-rows"),
      delivery.attempt_log.map((attempt) => [
        String(attempt.cycle),
        String(attempt.attempt),
        when(attempt.started_at),
        `${attempt.duration_ms} ms`,
        attempt.ok ? "delivered" : h("span", { class: "err-text" }, "failed"),
        attempt.status_code === null ? "—" : String(attempt.status_code),
        attempt.error ?? "—",
        code(attempt.response_excerpt),
      ]),
      "No attempt yet.",
    );
  } catch (error) {
    sayError(message, error);
  }
}

export function wireAttemptLog(): void {
  const dialog = byId<HTMLDialogElement>("log");
  byId("log-close").addEventListener("click", () => dialog.close());
}
