import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { AppError } from "../../lib/app-error.ts";
import { validateApiKey } from "../../auth/api-keys.ts";
import { listMemberships, type Membership } from "../../auth/memberships.ts";
import { clientIp } from "./client-ip.ts";
import type { RateGroup } from "./rate-limit.ts";
import { WIDGET_AUDIENCE } from "./tokens.ts";
import type { MembershipRole } from "../../db/schema.ts";

export interface UserPrincipal {
  kind: "user";
  userId: string;
  memberships: Membership[];
  /** What per-caller rate limits count by. */
  subject: string;
}

export interface ApiKeyPrincipal {
  kind: "api_key";
  keyId: string;
  tenantId: string;
  subject: string;
}

/** A widget visitor: one tenant, one session, nothing else. */
export interface VisitorPrincipal {
  kind: "visitor";
  tenantId: string;
  sessionId: string;
  subject: string;
}

export type Principal = UserPrincipal | ApiKeyPrincipal | VisitorPrincipal;

/** Who may manage a tenant (rules, deliveries, settings, people); agents work the inbox only. */
export const MANAGER_ROLES = ["owner", "admin"] as const satisfies readonly MembershipRole[];

const unauthorized = (message: string) =>
  new AppError("unauthorized", 401, message, undefined, { "www-authenticate": 'Bearer realm="parley"' });

function bearerToken(headers: Headers): string | null {
  const header = headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

async function authenticateBearer(deps: AppDeps, headers: Headers): Promise<UserPrincipal> {
  const token = bearerToken(headers);
  if (!token) throw unauthorized("Send Authorization: Bearer <access_token>.");
  const claims = await deps.tokens.verifyAccess(token);
  if (!claims) throw unauthorized("The access token is invalid or expired.");
  const memberships = await listMemberships(deps, claims.sub);
  // A removed user's memberships go with the user: only then is the user looked up, so the
  // usual request pays nothing, and a removed user's unexpired token stops working at once.
  if (memberships.length === 0 && !(await deps.store.users.findUser(claims.sub)))
    throw unauthorized("The access token's user no longer exists.");
  return { kind: "user", userId: claims.sub, memberships: chosenTenant(memberships, headers), subject: claims.sub };
}

/**
 * Someone in several tenants names the one a request acts on with `X-Tenant-Id`, so every route
 * (including those without a `tenant_id` field) serves them; a tenant they are not in is 404.
 */
function chosenTenant(memberships: Membership[], headers: Headers): Membership[] {
  const chosen = headers.get("x-tenant-id");
  if (!chosen) return memberships;
  const narrowed = memberships.filter((membership) => membership.tenantId === chosen);
  if (narrowed.length === 0) throw new AppError("tenant_not_found", 404, "No such tenant.");
  return narrowed;
}

/** A Bearer token that is either a user's access token or a widget visitor's token. */
async function authenticateBearerOrVisitor(deps: AppDeps, headers: Headers): Promise<UserPrincipal | VisitorPrincipal> {
  const token = bearerToken(headers);
  if (!token) throw unauthorized("Send Authorization: Bearer <access_token>.");
  const visitor = await deps.tokens.verifyAccess(token, WIDGET_AUDIENCE);
  if (visitor) {
    const tenantId = typeof visitor.tid === "string" ? visitor.tid : null;
    if (!tenantId) throw unauthorized("The visitor token is invalid.");
    return { kind: "visitor", tenantId, sessionId: visitor.sub, subject: visitor.sub };
  }
  return authenticateBearer(deps, headers);
}

/** Routes that take either credential name both to a caller who sent neither. */
function authenticateKeyOrBearer<T>(
  headers: Headers,
  withKey: () => Promise<ApiKeyPrincipal>,
  withBearer: () => Promise<T>,
): Promise<ApiKeyPrincipal | T> {
  if (headers.get("x-api-key")) return withKey();
  if (!headers.has("authorization"))
    throw unauthorized("Send X-API-Key: <api_key> or Authorization: Bearer <access_token>.");
  return withBearer();
}

async function authenticateApiKey(deps: AppDeps, headers: Headers): Promise<ApiKeyPrincipal> {
  const presented = headers.get("x-api-key");
  if (!presented) throw unauthorized("Send X-API-Key: <api_key>.");
  const key = await validateApiKey(deps, presented.trim());
  if (!key) throw unauthorized("The API key is invalid or revoked.");
  return { kind: "api_key", keyId: key.keyId, tenantId: key.tenantId, subject: key.keyId };
}

interface CallerContext {
  request: Request;
  server: Parameters<typeof clientIp>[1];
}

/**
 * Runs a credential check with a per-IP limit on failures: an address that sent 20 wrong API
 * keys or bad tokens in a minute gets 429 before its next guess is even looked at. Only
 * failures count, so a busy integration with a valid key is never slowed down.
 */
async function guardCredentials<T>(
  deps: AppDeps,
  context: CallerContext,
  authenticate: () => T | Promise<T>,
): Promise<T> {
  // Limits lifted (PARLEY_RATE_LIMITS=off): nothing counts by address, so it is not asked for.
  if (!deps.config.rateLimits) return authenticate();
  const ip = clientIp(context.request, context.server, deps.config.trustProxy);
  await deps.rateLimiter.refuseIfExhausted("credential_failures", ip);
  try {
    return await authenticate();
  } catch (error) {
    if (error instanceof AppError && error.status === 401) await deps.rateLimiter.check("credential_failures", ip, {});
    throw error;
  }
}

interface RateContext {
  request: Request;
  server: Parameters<typeof clientIp>[1];
  set: { headers: Record<string, string | number> };
  params?: Record<string, string | undefined>;
  principal?: Principal;
}

/** What a group counts by: the client address for logins, the tenant for inbound hooks, else the caller. */
function rateKey(deps: AppDeps, group: RateGroup, context: RateContext): string {
  if (group === "hooks" && context.params?.tenant_id) return context.params.tenant_id;
  if (group !== "auth" && context.principal) return context.principal.subject;
  return clientIp(context.request, context.server, deps.config.trustProxy);
}

/**
 * The named security plugin: `bearer: true`, `apiKey: true` and `tenantAccess: true` resolve a
 * `principal`; `rateLimit: "group"` counts the request after authentication (list it after
 * the auth macro on a route).
 */
export function securityPlugin(deps: AppDeps) {
  return new Elysia({ name: "parley-security", seed: deps.instanceId }).macro({
    bearer: {
      async resolve({ request, server }) {
        return {
          principal: (await guardCredentials(deps, { request, server }, () =>
            authenticateBearer(deps, request.headers),
          )) as Principal,
        };
      },
    },
    apiKey: {
      async resolve({ request, server }) {
        return {
          principal: (await guardCredentials(deps, { request, server }, () =>
            authenticateApiKey(deps, request.headers),
          )) as Principal,
        };
      },
    },
    /** Either credential: X-API-Key when present, else Bearer. */
    tenantAccess: {
      async resolve({ request, server }) {
        const { headers } = request;
        const principal = await guardCredentials<Principal>(deps, { request, server }, () =>
          authenticateKeyOrBearer(
            headers,
            () => authenticateApiKey(deps, headers),
            () => authenticateBearer(deps, headers),
          ),
        );
        return { principal };
      },
    },
    /** Chat routes: a member's token or a visitor's token. */
    chatAccess: {
      async resolve({ request, server }) {
        return {
          principal: (await guardCredentials(deps, { request, server }, () =>
            authenticateBearerOrVisitor(deps, request.headers),
          )) as Principal,
        };
      },
    },
    /** Anything: X-API-Key, a member's token or a visitor's token. */
    anyAccess: {
      async resolve({ request, server }) {
        const { headers } = request;
        const principal = await guardCredentials<Principal>(deps, { request, server }, () =>
          authenticateKeyOrBearer(
            headers,
            () => authenticateApiKey(deps, headers),
            () => authenticateBearerOrVisitor(deps, headers),
          ),
        );
        return { principal };
      },
    },
    rateLimit(group: RateGroup) {
      // Limits lifted (PARLEY_RATE_LIMITS=off): no hook at all, rather than one that returns at
      // once — an async hook the route's compiled handler awaits on every request.
      if (!deps.config.rateLimits) return {};
      return {
        // Destructured, like every hook here: Elysia parses only the parts of a request its
        // hooks name (a hook given the whole context makes it parse cookies and the query too).
        async beforeHandle({ request, server, set, params, principal }: RateContext) {
          await deps.rateLimiter.check(
            group,
            rateKey(deps, group, { request, server, set, params, principal }),
            set.headers,
          );
        },
      };
    },
  });
}

/**
 * The tenant a principal may act on: its API key's or visitor token's tenant, or one of the
 * user's memberships. `roles` limits a user to those roles there (API keys act as the tenant's
 * administrator; visitors never pass a role check).
 */
export function tenantOf(principal: Principal, requestedTenantId?: string, roles?: readonly MembershipRole[]): string {
  if (principal.kind === "visitor") {
    if (roles || (requestedTenantId && requestedTenantId !== principal.tenantId))
      throw new AppError("tenant_not_found", 404, "No such tenant.");
    return principal.tenantId;
  }
  if (principal.kind === "api_key") {
    if (requestedTenantId && requestedTenantId !== principal.tenantId)
      throw new AppError("tenant_not_found", 404, "No such tenant.");
    return principal.tenantId;
  }
  const tenantId =
    requestedTenantId ?? (principal.memberships.length === 1 ? principal.memberships[0]?.tenantId : undefined);
  if (!tenantId)
    throw new AppError(
      "tenant_required",
      422,
      "This account belongs to several tenants: name one with the X-Tenant-Id header (or tenant_id).",
    );
  const membership = principal.memberships.find((candidate) => candidate.tenantId === tenantId);
  if (!membership) throw new AppError("tenant_not_found", 404, "No such tenant.");
  if (roles && !roles.includes(membership.role)) {
    throw new AppError(
      "forbidden",
      403,
      `This needs the ${roles.join(" or ")} role in ${tenantId}; you are ${membership.role}. Ask an owner of the tenant.`,
    );
  }
  return tenantId;
}
