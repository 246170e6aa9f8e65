import type { AppDeps } from "../deps.ts";
import { jsonResponse } from "../errors.ts";
import { isOriginAllowedAnywhere } from "../../tenants/origins-check.ts";

const ORIGIN_PATTERN = /^https?:\/\/[^/\s]+$/;

/** A real http(s) origin; never "null", which many unrelated contexts share. */
export const isReflectableOrigin = (origin: string | null): origin is string => origin !== null && ORIGIN_PATTERN.test(origin);

/** Lets the browser read this response from `origin` (only ever a concrete, allowed origin). */
export function allowOrigin(headers: Record<string, string | number>, origin: string | null): void {
  headers.vary = "Origin";
  if (isReflectableOrigin(origin)) headers["access-control-allow-origin"] = origin;
}

/**
 * The answer to a CORS preflight on a visitor route. A preflight names no tenant, so it passes
 * when some tenant allows the origin; the request itself is then checked against its tenant.
 */
export function preflightResponse(deps: AppDeps, request: Request): Response {
  const origin = request.headers.get("origin");
  if (!isReflectableOrigin(origin) || !isOriginAllowedAnywhere(deps, origin)) {
    return jsonResponse(403, { error: "origin_not_allowed", message: "This origin may not use the chat widget." }, { vary: "Origin" });
  }
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": "authorization, content-type",
      "access-control-expose-headers": "retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, x-request-id",
      "access-control-max-age": "600",
      vary: "Origin",
    },
  });
}
