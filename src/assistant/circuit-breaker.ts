import type { Clock } from "../lib/clock.ts";

/**
 * Skips a provider for a while after repeated failures, so a dead or overloaded endpoint costs
 * visitors one timeout each only until the breaker opens, not on every message. Closed: calls
 * go through; after FAILURE_THRESHOLD consecutive failures it opens for OPEN_MS; then one call
 * is let through (half-open) — its success closes the breaker, its failure opens it again.
 */

export const FAILURE_THRESHOLD = 5;
export const OPEN_MS = 60_000;

interface BreakerState {
  failures: number;
  openUntil: number;
  /** A half-open trial is in flight: other calls keep skipping until it reports. */
  trialInFlight: boolean;
}

export interface CircuitBreaker {
  /** Whether a call to `key` may go out now. */
  allow(key: string): boolean;
  recordSuccess(key: string): void;
  recordFailure(key: string): void;
}

export function createCircuitBreaker(clock: Clock, threshold = FAILURE_THRESHOLD, openMs = OPEN_MS): CircuitBreaker {
  const states = new Map<string, BreakerState>();
  const stateOf = (key: string): BreakerState => {
    let state = states.get(key);
    if (!state) {
      state = { failures: 0, openUntil: 0, trialInFlight: false };
      states.set(key, state);
    }
    return state;
  };
  return {
    allow(key) {
      const state = states.get(key);
      if (!state || state.failures < threshold) return true;
      if (clock.now() < state.openUntil || state.trialInFlight) return false;
      state.trialInFlight = true;
      return true;
    },
    recordSuccess(key) {
      states.delete(key);
    },
    recordFailure(key) {
      const state = stateOf(key);
      state.failures += 1;
      state.trialInFlight = false;
      if (state.failures >= threshold) state.openUntil = clock.now() + openMs;
    },
  };
}
