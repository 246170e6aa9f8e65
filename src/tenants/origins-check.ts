import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";

/**
 * Whether a browser origin may use a tenant's widget: an empty list allows any origin; a set
 * list must contain it. A missing Origin (a server, curl) passes only the empty list. The
 * literal "null" (sandboxed iframes, file://) never matches a list entry.
 */
export function isOriginAllowed(allowedOrigins: readonly string[], origin: string | null): boolean {
  if (allowedOrigins.length === 0) return true;
  return origin !== null && origin !== "null" && allowedOrigins.includes(origin);
}

const statements = preparedFor((sqlite) => ({
  anyTenantAllows: sqlite.prepare<{ ok: number }, [string]>(
    "SELECT 1 AS ok FROM tenants WHERE allowed_origins = '[]' OR EXISTS (SELECT 1 FROM json_each(tenants.allowed_origins) WHERE value = ?) LIMIT 1",
  ),
}));

/** For CORS preflights, which name no tenant: is the origin allowed by at least one tenant? */
export function isOriginAllowedAnywhere(deps: Deps, origin: string): boolean {
  return statements(deps.sqlite).anyTenantAllows.get(origin) !== null;
}
