import type { Clock } from "../../lib/clock.ts";
import { AppError } from "../../lib/app-error.ts";
import type { SharedCounters } from "../../db/store.ts";
import { createWindowLimiter } from "../../lib/shared-window.ts";
import type { WindowDecision } from "../../lib/sliding-window.ts";

/** The rate groups of DESIGN §3; what a group is counted by is decided at the route. */
export const RATE_GROUPS = Object.freeze({
  /** Logins and refreshes, per client IP, counted before the body is parsed. */
  auth: { limit: 5, windowMs: 60_000 },
  chat: { limit: 60, windowMs: 60_000 },
  /** Signed provider events, per tenant: counted only once the signature is verified. */
  hooks: { limit: 500, windowMs: 60_000 },
  /** Hook requests that fail the signature or name no configured tenant, per client IP. */
  hook_rejects: { limit: 60, windowMs: 60_000 },
  /**
   * Wrong passwords per account (a hash of the e-mail, account or not), whatever the addresses:
   * limit and window come from PARLEY_LOGIN_FAILURES and PARLEY_LOGIN_FAILURE_WINDOW.
   */
  login_failures: { limit: 20, windowMs: 15 * 60_000 },
  /** Wrong API keys and invalid Bearer tokens, per client IP. */
  credential_failures: { limit: 20, windowMs: 60_000 },
  analytics: { limit: 120, windowMs: 60_000 },
  management: { limit: 120, windowMs: 60_000 },
});

export type RateGroup = keyof typeof RATE_GROUPS;

interface GroupLimit {
  limit: number;
  windowMs: number;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function rateHeaders(decision: WindowDecision): Record<string, string> {
  return {
    "ratelimit-limit": String(decision.limit),
    "ratelimit-remaining": String(decision.remaining),
    "ratelimit-reset": String(seconds(decision.resetMs)),
  };
}

/**
 * One sliding window per group and key. `check` counts a request against `group` for `key`, writes
 * the RateLimit-* headers, and throws 429 with Retry-After = seconds until a slot frees.
 * With `shared` counters (PostgreSQL: several instances) the windows are counted in the
 * database (src/lib/shared-window.ts), so a limit holds for the cluster, not per instance;
 * without (SQLite: one server per file) they are kept in memory.
 */
export function createRateLimiter(
  clock: Clock,
  enabled: boolean,
  shared: SharedCounters | null = null,
  overrides: Partial<Record<RateGroup, GroupLimit>> = {},
) {
  const windows = createWindowLimiter(clock, shared);
  const groups: Record<RateGroup, GroupLimit> = { ...RATE_GROUPS, ...overrides };
  const refuse = (
    decision: WindowDecision,
    limitHeaders: Record<string, string>,
    what = "Too many requests",
  ): AppError => {
    const retryAfter = String(seconds(decision.retryAfterMs));
    return new AppError("rate_limited", 429, `${what}; try again in ${retryAfter} s.`, undefined, {
      ...limitHeaders,
      "retry-after": retryAfter,
    });
  };
  return {
    async check(group: RateGroup, key: string, headers: Record<string, string | number>): Promise<void> {
      if (!enabled) return;
      const { limit, windowMs } = groups[group];
      const decision = await windows.take(`rate:${group}:${key}`, limit, windowMs);
      const limitHeaders = rateHeaders(decision);
      Object.assign(headers, limitHeaders);
      if (!decision.allowed) throw refuse(decision, limitHeaders);
    },
    /**
     * For limits on failures (wrong keys, unsigned hooks): refuses with 429 while `key` has
     * used up `group`, without counting this request. Failures are counted with `check`.
     */
    async refuseIfExhausted(group: RateGroup, key: string, what?: string): Promise<void> {
      if (!enabled) return;
      const { limit, windowMs } = groups[group];
      const full = await windows.peek(`rate:${group}:${key}`, limit, windowMs);
      if (full) throw refuse(full, rateHeaders(full), what);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
