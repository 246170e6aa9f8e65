import type { Deps } from "../deps.ts";
import { getOrCreateSetting } from "../db/settings.ts";
import { randomBase62 } from "../lib/crypto.ts";
import { createRateLimiter, type RateLimiter } from "./plugins/rate-limit.ts";
import { createTokenService, type TokenService } from "./plugins/tokens.ts";
import { createDeliveryMetrics, type DeliveryMetrics } from "../scheduler/metrics.ts";
import { createVisitorAllowance, type VisitorAllowance } from "../billing/visitor-allowance.ts";

/** Deps plus what only the HTTP layer needs. */
export interface AppDeps extends Deps {
  readonly tokens: TokenService;
  readonly rateLimiter: RateLimiter;
  /** Distinguishes plugin instances when several apps live in one process (tests). */
  readonly instanceId: string;
  /** Shared with the scheduler that records into it; /metrics renders it. */
  readonly metrics: DeliveryMetrics;
  /** Per-address limits on anonymous widget traffic (src/billing/visitor-allowance.ts). */
  readonly visitorAllowance: VisitorAllowance;
}

/**
 * The signing secret: PARLEY_JWT_SECRET when set, else one generated on first start and kept
 * in the settings table, so tokens survive restarts and the CLI and server agree.
 */
export function resolveJwtSecret(deps: Deps): string {
  return deps.config.jwtSecret ?? getOrCreateSetting(deps.sqlite, "jwt_secret", () => randomBase62(64));
}

export function createAppDeps(deps: Deps, metrics: DeliveryMetrics = createDeliveryMetrics()): AppDeps {
  return {
    ...deps,
    metrics,
    tokens: createTokenService(resolveJwtSecret(deps), deps.clock),
    rateLimiter: createRateLimiter(deps.clock, deps.config.rateLimits),
    visitorAllowance: createVisitorAllowance(deps.clock, { hourlyShare: deps.config.visitorHourlyShare, sessionsPerHour: deps.config.visitorSessionsPerHour }),
    instanceId: crypto.randomUUID(),
  };
}
