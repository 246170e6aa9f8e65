/** The server's configured retry schedule and retention (GET /webhooks/retry-policy), read once per sign-in. */
import { api } from "./api.ts";
import { duration } from "./dom.ts";
import type { RetryPolicy } from "./types.ts";

let policy: Promise<RetryPolicy> | null = null;

export function retryPolicy(): Promise<RetryPolicy> {
  policy ??= api<RetryPolicy>("GET", "/webhooks/retry-policy").catch((error: unknown) => {
    policy = null;
    throw error;
  });
  return policy;
}

/** " (4 attempts: at once, then after 30 s, 5 min and 30 min)" */
export function describeAttempts(p: RetryPolicy): string {
  const delays = p.retry_delays_s.map(duration);
  const after = delays.length > 1 ? `${delays.slice(0, -1).join(", ")} and ${delays.at(-1)}` : (delays[0] ?? "");
  return ` (${p.attempts_per_cycle} attempt${p.attempts_per_cycle === 1 ? "" : "s"}: at once${after ? `, then after ${after}` : ""})`;
}
