import type { Store } from "../db/store.ts";

/**
 * Model-call counters for /metrics, one set per database (one server). Aggregates only: no
 * tenant, model name or text ever appears here.
 */

export const CALL_OUTCOMES = ["ok", "timeout", "http_error", "malformed", "unknown_tool", "circuit_open"] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

const LATENCY_BUCKETS_S = [0.25, 0.5, 1, 2, 5, 10, 20, 60] as const;

export interface AssistantMetrics {
  record(outcome: CallOutcome, latencyMs: number | null): void;
  addTokens(prompt: number, completion: number): void;
  render(): string;
}

function createAssistantMetrics(): AssistantMetrics {
  const calls = new Map<CallOutcome, number>(CALL_OUTCOMES.map((outcome) => [outcome, 0]));
  const buckets: number[] = LATENCY_BUCKETS_S.map(() => 0);
  let latencyCount = 0;
  let latencySumS = 0;
  let promptTokens = 0;
  let completionTokens = 0;
  return {
    record(outcome, latencyMs) {
      calls.set(outcome, (calls.get(outcome) ?? 0) + 1);
      if (latencyMs === null) return;
      const seconds = latencyMs / 1000;
      latencyCount += 1;
      latencySumS += seconds;
      LATENCY_BUCKETS_S.forEach((bound, index) => {
        if (seconds <= bound) buckets[index] = (buckets[index] ?? 0) + 1;
      });
    },
    addTokens(prompt, completion) {
      promptTokens += prompt;
      completionTokens += completion;
    },
    render() {
      const lines = [
        "# HELP parley_ai_calls_total Assistant turns by outcome (circuit_open: the provider was skipped).",
        "# TYPE parley_ai_calls_total counter",
        ...CALL_OUTCOMES.map((outcome) => `parley_ai_calls_total{outcome="${outcome}"} ${calls.get(outcome) ?? 0}`),
        "# HELP parley_ai_call_duration_seconds Time spent on model calls per assistant turn.",
        "# TYPE parley_ai_call_duration_seconds histogram",
        ...LATENCY_BUCKETS_S.map(
          (bound, index) => `parley_ai_call_duration_seconds_bucket{le="${bound}"} ${buckets[index] ?? 0}`,
        ),
        `parley_ai_call_duration_seconds_bucket{le="+Inf"} ${latencyCount}`,
        `parley_ai_call_duration_seconds_sum ${latencySumS}`,
        `parley_ai_call_duration_seconds_count ${latencyCount}`,
        "# HELP parley_ai_tokens_total Tokens the providers reported.",
        "# TYPE parley_ai_tokens_total counter",
        `parley_ai_tokens_total{kind="prompt"} ${promptTokens}`,
        `parley_ai_tokens_total{kind="completion"} ${completionTokens}`,
      ];
      return `${lines.join("\n")}\n`;
    },
  };
}

const perStore = new WeakMap<Store, AssistantMetrics>();

/** The counters of one store's server (tests run several in one process). */
export function assistantMetricsFor(store: Store): AssistantMetrics {
  let metrics = perStore.get(store);
  if (!metrics) {
    metrics = createAssistantMetrics();
    perStore.set(store, metrics);
  }
  return metrics;
}
