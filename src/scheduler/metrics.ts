import type { AttemptOutcome, Store } from "../db/store.ts";
import type { Clock } from "../lib/clock.ts";
import type { FairShareGauges } from "./fair-share.ts";

// Seconds; covers an instant local receiver up to the 10 s timeout.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** In-process counters since start, plus queue gauges read from the database when scraped. */
export function createDeliveryMetrics() {
  const outcomes: Record<AttemptOutcome | "failed_attempts", number> = {
    succeeded: 0,
    retry: 0,
    dead: 0,
    stale: 0,
    failed_attempts: 0,
  };
  // Per bucket (not cumulative): an observation adds to one slot, the scrape sums them.
  const bucketCounts: number[] = DURATION_BUCKETS.map(() => 0);
  let durationSum = 0;
  let durationCount = 0;
  let fairShare: { gauges(): FairShareGauges } | null = null;

  return {
    observe(outcome: AttemptOutcome, durationMs: number) {
      outcomes[outcome]++;
      if (outcome === "retry" || outcome === "dead") outcomes.failed_attempts++;
      const seconds = durationMs / 1000;
      durationSum += seconds;
      durationCount++;
      const index = DURATION_BUCKETS.findIndex((bound) => seconds <= bound);
      if (index !== -1) bucketCounts[index] = (bucketCounts[index] ?? 0) + 1;
    },
    /** The scheduler recording into these metrics shows its fair-share state too. */
    watchFairShare(source: { gauges(): FairShareGauges }) {
      fairShare = source;
    },
    /** Prometheus text exposition format 0.0.4. */
    async render(store: Store, clock: Clock): Promise<string> {
      const gauges = await store.deliveryQueue.queueGauges(clock.now());
      let cumulative = 0;
      const buckets = DURATION_BUCKETS.map((bound, index) => {
        cumulative += bucketCounts[index] ?? 0;
        return `parley_webhook_attempt_duration_seconds_bucket{le="${bound}"} ${cumulative}`;
      });
      const lines = [
        "# HELP parley_webhook_deliveries_total Delivery attempts by outcome since the process started.",
        "# TYPE parley_webhook_deliveries_total counter",
        `parley_webhook_deliveries_total{outcome="succeeded"} ${outcomes.succeeded}`,
        `parley_webhook_deliveries_total{outcome="retry_scheduled"} ${outcomes.retry}`,
        `parley_webhook_deliveries_total{outcome="dead_lettered"} ${outcomes.dead}`,
        "# HELP parley_webhook_failed_attempts_total Attempts that failed (retried or dead-lettered).",
        "# TYPE parley_webhook_failed_attempts_total counter",
        `parley_webhook_failed_attempts_total ${outcomes.failed_attempts}`,
        "# HELP parley_webhook_stale_results_total Results discarded because the row's lease had passed to another sender.",
        "# TYPE parley_webhook_stale_results_total counter",
        `parley_webhook_stale_results_total ${outcomes.stale}`,
        "# HELP parley_webhook_attempt_duration_seconds Duration of webhook delivery attempts.",
        "# TYPE parley_webhook_attempt_duration_seconds histogram",
        ...buckets,
        `parley_webhook_attempt_duration_seconds_bucket{le="+Inf"} ${durationCount}`,
        `parley_webhook_attempt_duration_seconds_sum ${durationSum}`,
        `parley_webhook_attempt_duration_seconds_count ${durationCount}`,
        "# HELP parley_webhook_due_deliveries Deliveries due now and not yet claimed.",
        "# TYPE parley_webhook_due_deliveries gauge",
        `parley_webhook_due_deliveries ${gauges.due}`,
        "# HELP parley_webhook_pending_deliveries Deliveries not yet succeeded or dead (due or waiting for a retry).",
        "# TYPE parley_webhook_pending_deliveries gauge",
        `parley_webhook_pending_deliveries ${gauges.pending}`,
        "# HELP parley_webhook_waiting_deliveries Ordered deliveries held behind an earlier delivery of their stream.",
        "# TYPE parley_webhook_waiting_deliveries gauge",
        `parley_webhook_waiting_deliveries ${gauges.waiting}`,
        "# HELP parley_webhook_dead_letters Dead letters kept for re-trigger.",
        "# TYPE parley_webhook_dead_letters gauge",
        `parley_webhook_dead_letters ${gauges.deadLetters}`,
      ];
      if (fairShare) {
        const fair = fairShare.gauges();
        lines.push(
          "# HELP parley_webhook_sick_endpoints Receiver URLs whose last attempts all failed: at most 4 sends in flight each until one succeeds.",
          "# TYPE parley_webhook_sick_endpoints gauge",
          `parley_webhook_sick_endpoints ${fair.sickEndpoints}`,
          "# HELP parley_webhook_capped_tenants Tenants at PARLEY_TENANT_CONCURRENCY sends in flight: their other due deliveries wait.",
          "# TYPE parley_webhook_capped_tenants gauge",
          `parley_webhook_capped_tenants ${fair.fullTenants}`,
          "# HELP parley_webhook_capped_endpoints Receiver URLs at their cap (PARLEY_ENDPOINT_CONCURRENCY, or 4 when sick): their other due deliveries wait.",
          "# TYPE parley_webhook_capped_endpoints gauge",
          `parley_webhook_capped_endpoints ${fair.fullEndpoints}`,
        );
      }
      return `${lines.join("\n")}\n`;
    },
  };
}

export type DeliveryMetrics = ReturnType<typeof createDeliveryMetrics>;
