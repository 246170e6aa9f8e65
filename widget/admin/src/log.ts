/** The attempt log of one delivery, in a modal dialog (Esc or "Close" returns focus). */
import { api } from "./api.ts";
import { byId, code, fillRows, h, say, sayError, when } from "./dom.ts";
import type { Attempt, Delivery } from "./types.ts";

/**
 * The last result of a delivery: a success in the success colour, a failure (its error, which
 * names the status code, else the bare code) in the error colour, nothing yet as a dash.
 */
export function lastResult(statusCode: number | null, error: string | null, succeeded = false): Node | string {
  if (succeeded) return h("span", { class: "ok-text" }, statusCode === null ? "delivered" : `HTTP ${statusCode}`);
  return error || statusCode !== null ? h("span", { class: "err-text" }, error || `HTTP ${statusCode}`) : "—";
}

/** The request an attempt sent, headers then body, folded away: it is long. */
function requestSent(request: Attempt["request"]): Node | string {
  if (!request) return "—";
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
  return h(
    "details",
    {},
    h("summary", {}, "POST, headers and body"),
    h("pre", { class: "pre" }, h("code", {}, `${headers}\n\n${request.body}`)),
  );
}

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
    const delivery = await api<Delivery & { attempt_log: Attempt[] }>(
      "GET",
      `/webhooks/deliveries/${encodeURIComponent(webhookId)}`,
    );
    const facts: Array<[string, Node | string]> = [
      ["Event", delivery.event],
      ["Status", delivery.waiting ? `${delivery.status}: ${delivery.waiting.reason}` : delivery.status],
      ["Ordering", delivery.ordered ? "in its session's ordered stream" : "none"],
      ["URL", code(delivery.url)],
      ["Rule", code(delivery.rule_id)],
      [
        "Cycle / attempts in it / attempts in all",
        `${delivery.cycle} / ${delivery.attempts} / ${delivery.attempt_log.length}`,
      ],
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
        requestSent(attempt.request),
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
