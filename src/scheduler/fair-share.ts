/**
 * Who may have how many sends in flight: the scheduler's fairness rules, in memory (per process).
 *
 * - a tenant: at most PARLEY_TENANT_CONCURRENCY, so one tenant's backlog (thousands of
 *   deliveries to a receiver that never answers) can never take every slot of the shared pool;
 * - an endpoint (a rule URL): at most PARLEY_ENDPOINT_CONCURRENCY, so a burst reaches a small
 *   receiver spread out instead of overflowing its accept queue and being dead-lettered;
 * - a sick endpoint (its last SICK_AFTER_FAILURES attempts all failed): at most
 *   SICK_ENDPOINT_CONCURRENCY until an attempt succeeds again, so a black hole holds few slots.
 *
 * Among the due rows that fit, tenants take turns (round robin, each tenant's rows in due
 * order), so a tenant with one due delivery is not queued behind another's thousand.
 * Rows that do not fit stay due and untouched: the caps delay a send, they never drop one.
 */
import type { ClaimCandidate } from "../db/store-webhooks.ts";

export const SICK_AFTER_FAILURES = 3;
export const SICK_ENDPOINT_CONCURRENCY = 4;
/** Health of endpoints with nothing in flight is forgotten past this many (memory stays bounded). */
const MAX_REMEMBERED_ENDPOINTS = 10_000;

export interface FairShareLimits {
  tenantConcurrency: number;
  endpointConcurrency: number;
}

export type { ClaimCandidate };

export interface FairShareGauges {
  sickEndpoints: number;
  fullTenants: number;
  fullEndpoints: number;
}

interface EndpointState {
  inFlight: number;
  consecutiveFailures: number;
}

export function createFairShare(limits: FairShareLimits) {
  const tenants = new Map<string, number>();
  const endpoints = new Map<string, EndpointState>();

  const endpointOf = (url: string): EndpointState => {
    let state = endpoints.get(url);
    if (!state) {
      state = { inFlight: 0, consecutiveFailures: 0 };
      endpoints.set(url, state);
    }
    return state;
  };
  const endpointCap = (state: EndpointState | undefined): number =>
    state !== undefined && state.consecutiveFailures >= SICK_AFTER_FAILURES
      ? Math.min(SICK_ENDPOINT_CONCURRENCY, limits.endpointConcurrency)
      : limits.endpointConcurrency;
  const tenantRoom = (tenantId: string): number => limits.tenantConcurrency - (tenants.get(tenantId) ?? 0);
  const endpointRoom = (url: string): number => {
    const state = endpoints.get(url);
    return endpointCap(state) - (state?.inFlight ?? 0);
  };

  function forgetHealthyIdleEndpoints(): void {
    if (endpoints.size <= MAX_REMEMBERED_ENDPOINTS) return;
    for (const [url, state] of endpoints) {
      if (state.inFlight === 0) endpoints.delete(url);
      if (endpoints.size <= MAX_REMEMBERED_ENDPOINTS / 2) return;
    }
  }

  return {
    /** Tenants with no room left: the claim skips their rows in SQL instead of reading them. */
    fullTenants(): string[] {
      return [...tenants].filter(([id]) => tenantRoom(id) <= 0).map(([id]) => id);
    },
    /** Endpoints with no room left (at their cap, or at the sick cap). */
    fullEndpoints(): string[] {
      return [...endpoints].filter(([url]) => endpointRoom(url) <= 0).map(([url]) => url);
    },

    /**
     * Picks up to `wanted` candidates (given in due order) that fit the caps, tenants taking
     * turns. Rows without a URL (rule deleted) are always picked and cost no slot. Picked rows
     * are not yet counted in flight: `start` does that once they are leased.
     */
    pick<T extends ClaimCandidate>(candidates: readonly T[], wanted: number): T[] {
      const picked: T[] = [];
      const queues = new Map<string, T[]>();
      for (const candidate of candidates) {
        if (candidate.url === null) {
          picked.push(candidate);
          continue;
        }
        const queue = queues.get(candidate.tenantId);
        if (queue) queue.push(candidate);
        else queues.set(candidate.tenantId, [candidate]);
      }
      const takenByTenant = new Map<string, number>();
      const takenByUrl = new Map<string, number>();
      let slots = 0;
      // Round robin: one row per tenant per round, tenants in the order of their oldest due row.
      while (slots < wanted && queues.size > 0) {
        for (const [tenantId, queue] of queues) {
          if (slots >= wanted) break;
          const taken = takenByTenant.get(tenantId) ?? 0;
          const index =
            taken < tenantRoom(tenantId)
              ? queue.findIndex((row) => row.url !== null && (takenByUrl.get(row.url) ?? 0) < endpointRoom(row.url))
              : -1;
          if (index === -1) {
            queues.delete(tenantId);
            continue;
          }
          const [row] = queue.splice(index, 1);
          if (!row || row.url === null) continue;
          picked.push(row);
          slots++;
          takenByTenant.set(tenantId, taken + 1);
          takenByUrl.set(row.url, (takenByUrl.get(row.url) ?? 0) + 1);
          if (queue.length === 0) queues.delete(tenantId);
        }
      }
      return picked;
    },

    /** A leased delivery's send begins. */
    start(tenantId: string, url: string): void {
      tenants.set(tenantId, (tenants.get(tenantId) ?? 0) + 1);
      endpointOf(url).inFlight++;
    },

    /**
     * A send ended. A success heals the endpoint at once; failures (timeouts, refused
     * connections, non-2xx) in a row make it sick.
     */
    finish(tenantId: string, url: string, ok: boolean): void {
      const left = (tenants.get(tenantId) ?? 1) - 1;
      if (left <= 0) tenants.delete(tenantId);
      else tenants.set(tenantId, left);
      const state = endpointOf(url);
      state.inFlight = Math.max(0, state.inFlight - 1);
      state.consecutiveFailures = ok ? 0 : state.consecutiveFailures + 1;
      if (state.inFlight === 0 && state.consecutiveFailures === 0) endpoints.delete(url);
      forgetHealthyIdleEndpoints();
    },

    /** Whether the tenant or the endpoint has no room left (its rows are being held back). */
    isFull(tenantId: string, url: string): boolean {
      return tenantRoom(tenantId) <= 0 || endpointRoom(url) <= 0;
    },
    /** For /metrics: how many endpoints are sick, and how many tenants and endpoints are at their cap. */
    gauges(): FairShareGauges {
      let sickEndpoints = 0;
      for (const state of endpoints.values()) if (state.consecutiveFailures >= SICK_AFTER_FAILURES) sickEndpoints++;
      return { sickEndpoints, fullTenants: this.fullTenants().length, fullEndpoints: this.fullEndpoints().length };
    },
    isSick(url: string): boolean {
      return (endpoints.get(url)?.consecutiveFailures ?? 0) >= SICK_AFTER_FAILURES;
    },
    inFlightForTenant(tenantId: string): number {
      return tenants.get(tenantId) ?? 0;
    },
    inFlightForEndpoint(url: string): number {
      return endpoints.get(url)?.inFlight ?? 0;
    },
  };
}

export type FairShare = ReturnType<typeof createFairShare>;
