import type { AppDeps } from "../deps.ts";
import { jsonResponse } from "../errors.ts";
import { isOriginAllowed, isOriginAllowedAnywhere } from "../../tenants/origins-check.ts";
import type { TenantRecord } from "../../tenants/create-tenant.ts";
import { AppError, notFound } from "../../lib/app-error.ts";
import type { Principal } from "./security.ts";

const ORIGIN_PATTERN = /^https?:\/\/[^/\s]+$/;
/** Headers the widget may read on answers from a visitor route. */
const EXPOSED_HEADERS = "retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, x-request-id";

/** A real http(s) origin; never "null", which many unrelated contexts share. */
export const isReflectableOrigin = (origin: string | null): origin is string =>
  origin !== null && ORIGIN_PATTERN.test(origin);

/** Lets the browser read this response from `origin` (only ever a concrete, allowed origin). */
export function allowOrigin(headers: Record<string, string | number>, origin: string | null): void {
  headers.vary = "Origin";
  if (isReflectableOrigin(origin)) headers["access-control-allow-origin"] = origin;
}

/**
 * The answer to a CORS preflight on a visitor route. A preflight names no tenant, so it passes
 * when some tenant allows the origin; the request itself is then checked against its tenant.
 */
export async function preflightResponse(deps: AppDeps, request: Request): Promise<Response> {
  const origin = request.headers.get("origin");
  if (!isReflectableOrigin(origin) || !(await isOriginAllowedAnywhere(deps, origin))) {
    return jsonResponse(
      403,
      { error: "origin_not_allowed", message: "This origin may not use the chat widget." },
      { vary: "Origin" },
    );
  }
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": "authorization, content-type",
      "access-control-expose-headers": EXPOSED_HEADERS,
      "access-control-max-age": "600",
      vary: "Origin",
    },
  });
}

/**
 * A visitor may only use its own session, and only from an origin its tenant allows; the
 * browser may read the answer only from such an origin.
 */
export function checkVisitorAccess(
  tenant: TenantRecord,
  principal: Principal,
  request: Request,
  headers: Record<string, string | number>,
  sessionId: string | undefined,
): void {
  if (principal.kind !== "visitor") return;
  if (sessionId !== undefined && sessionId !== principal.sessionId) throw notFound("session");
  const origin = request.headers.get("origin");
  if (!isOriginAllowed(tenant.allowedOrigins, origin))
    throw new AppError("origin_not_allowed", 403, "This site is not in the tenant's allowed origins.");
  allowOrigin(headers, origin);
}

/**
 * The widget must be able to read why a visitor route refused it (an expired token, a refused
 * origin, a rate limit), or it only sees a network error. Errors carry no tenant data, so they
 * are readable from any concrete origin; "null" is still never reflected.
 */
const VISITOR_ROUTE = /^\/api\/v1\/(?:widget\/|chatbot\/message|chatbot\/sessions\/|analytics\/events)/;

export function exposeVisitorError(request: Request, headers: Headers): void {
  const origin = request.headers.get("origin");
  if (!isReflectableOrigin(origin) || !VISITOR_ROUTE.test(new URL(request.url).pathname)) return;
  headers.set("access-control-allow-origin", origin);
  headers.set("access-control-expose-headers", EXPOSED_HEADERS);
  headers.append("vary", "Origin");
}
