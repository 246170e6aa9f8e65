import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { assistantMetricsFor } from "../../assistant/metrics.ts";
import { droppedOutputLines } from "../../lib/std-output.ts";
import { walMetrics } from "../../db/sqlite/checkpoint-thread.ts";
import { sendThreadMetrics } from "../../scheduler/send-thread.ts";
import { renderTlsMetrics } from "../tls/tls-status.ts";

/** Counters of the process itself, beside the delivery metrics. */
function processMetrics(): string {
  return [
    "# HELP parley_log_lines_dropped_total Log and output lines dropped because stdout or stderr could not be written (full disk, closed pipe).",
    "# TYPE parley_log_lines_dropped_total counter",
    `parley_log_lines_dropped_total ${droppedOutputLines()}`,
    "",
  ].join("\n");
}

/** Prometheus scrape target: aggregate counts only, no tenant data. */
export function metricsRoutes(deps: AppDeps) {
  return new Elysia().get(
    "/metrics",
    async () =>
      new Response(
        (await deps.metrics.render(deps.store, deps.clock)) +
          assistantMetricsFor(deps.store).render() +
          processMetrics() +
          walMetrics() +
          sendThreadMetrics() +
          (deps.tls ? renderTlsMetrics(deps.tls, deps.clock.now()) : ""),
        { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } },
      ),
  );
}
