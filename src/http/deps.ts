import type { Deps } from "../deps.ts";
import { createRateLimiter, type RateLimiter } from "./plugins/rate-limit.ts";
import { createTokenService, type TokenService } from "./plugins/tokens.ts";
import { createDeliveryMetrics, type DeliveryMetrics } from "../scheduler/metrics.ts";
import type { TlsStatus } from "./tls/tls-status.ts";
import { createVisitorAllowance, type VisitorAllowance } from "../billing/visitor-allowance.ts";
import { createLiveHub, type LiveHub } from "../frontdesk/live-hub.ts";
import { createSignal } from "../lib/signal.ts";

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
  /** The served certificate while the server itself speaks HTTPS (/readyz, /metrics); null or absent otherwise. */
  readonly tls?: TlsStatus | null;
  /** The front desk's open streams in this process (src/frontdesk/live-hub.ts). */
  readonly liveHub: LiveHub;
}

/** SQLite: how soon a CLI process's change reaches the streams. PostgreSQL: NOTIFY does that; this is the safety net. */
const LIVE_POLL_MS = { sqlite: 500, postgres: 5_000 } as const;
/** SQLite's looks back off to this while no other process commits (the CLI's change is seen within it). */
const LIVE_MAX_POLL_MS = 2_000;

/**
 * The signing secret: PARLEY_JWT_SECRET when set, else the one generated on first start and
 * kept in the settings table — resolved into the config when deps are built (openCliDeps), so
 * tokens survive restarts and the CLI and server agree.
 */
export function resolveJwtSecret(deps: Pick<Deps, "config">): string {
  if (!deps.config.jwtSecret)
    throw new Error("the server secret is resolved when deps are built (src/cli/context.ts openCliDeps)");
  return deps.config.jwtSecret;
}

/** The HTTP layer's deps over `deps` (whatever else the caller's deps carry is kept: tests keep their connection). */
export function createAppDeps<T extends Deps>(
  deps: T,
  metrics: DeliveryMetrics = createDeliveryMetrics(),
): AppDeps & T {
  const liveEventsWritten = deps.liveEventsWritten ?? createSignal();
  return {
    ...deps,
    liveEventsWritten,
    liveHub: createLiveHub(
      { ...deps, liveEventsWritten },
      // On SQLite a look first asks data_version (other connections' commits), which reads no table.
      deps.store.kind === "sqlite"
        ? {
            pollMs: LIVE_POLL_MS.sqlite,
            maxPollMs: LIVE_MAX_POLL_MS,
            changeToken: () => deps.store.tenants.findLookupVersion(),
          }
        : { pollMs: LIVE_POLL_MS.postgres },
    ),
    metrics,
    tokens: createTokenService(resolveJwtSecret(deps), deps.clock),
    rateLimiter: createRateLimiter(deps.clock, deps.config.rateLimits, deps.store.counters, {
      login_failures: { limit: deps.config.loginFailureLimit, windowMs: deps.config.loginFailureWindowMs },
    }),
    visitorAllowance: createVisitorAllowance(
      deps.clock,
      { hourlyShare: deps.config.visitorHourlyShare, sessionsPerHour: deps.config.visitorSessionsPerHour },
      deps.store.counters,
    ),
    instanceId: crypto.randomUUID(),
  };
}
