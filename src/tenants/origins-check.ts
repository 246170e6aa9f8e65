import type { Deps } from "../deps.ts";

/**
 * Whether a browser origin may use a tenant's widget: an empty list allows any origin; a set
 * list must contain it. A missing Origin (a server, curl) passes only the empty list. The
 * literal "null" (sandboxed iframes, file://) never matches a list entry.
 */
export function isOriginAllowed(allowedOrigins: readonly string[], origin: string | null): boolean {
  if (allowedOrigins.length === 0) return true;
  return origin !== null && origin !== "null" && allowedOrigins.includes(origin);
}

/** For CORS preflights, which name no tenant: is the origin allowed by at least one tenant? */
export function isOriginAllowedAnywhere(deps: Pick<Deps, "store">, origin: string): Promise<boolean> {
  return deps.store.tenants.anyTenantAllowsOrigin(origin);
}
