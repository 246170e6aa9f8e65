/** Webhooks › Deliveries: the delivery log, filtered by status. */
import { api, query, type Page } from "./api.ts";
import { byId, code, fillRows, h, idCode, pager, say, sayError, when } from "./dom.ts";
import { lastResult, showAttemptLog } from "./log.ts";
import type { ListedDelivery } from "./types.ts";

export function wireDeliveries() {
  const message = byId("deliveries-msg");
  const list = pager(byId("deliveries-prev"), byId("deliveries-next"), byId("deliveries-page"), async (cursor) => {
    try {
      const status = byId<HTMLSelectElement>("deliveries-status").value;
      const page = await api<Page<ListedDelivery>>(
        "GET",
        `/webhooks/deliveries${query({ status, cursor, limit: "25" })}`,
      );
      fillRows(
        byId("deliveries-rows"),
        page.data.map((row) => [
          idCode(row.webhook_id),
          row.event,
          // A waiting delivery (ordered stream) says which one it is behind and why.
          row.waiting ? `${row.status}: ${row.waiting.reason}` : row.status,
          code(row.url),
          // Every attempt of every cycle; a re-triggered delivery names its cycle.
          row.cycle > 1 ? `${row.total_attempts} (cycle ${row.cycle})` : String(row.total_attempts),
          lastResult(row.last_status_code, row.last_error, row.status === "succeeded"),
          when(row.created_at),
          when(row.next_attempt_at),
          h(
            "button",
            {
              type: "button",
              "aria-label": `Attempt log of ${row.webhook_id}`,
              onclick: () => showAttemptLog(row.webhook_id),
            },
            "Attempt log",
          ),
        ]),
        status ? `No ${status} deliveries.` : "No deliveries yet.",
      );
      return page.next_cursor;
    } catch (error) {
      sayError(message, error);
      return null;
    }
  });
  byId("deliveries-filter").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    say(message, "", "");
    void list.reset();
  });
  return { show: () => list.reset() };
}
