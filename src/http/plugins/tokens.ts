import { jwt } from "@elysiajs/jwt";
import type { Clock } from "../../lib/clock.ts";

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const TOKEN_ISSUER = "parley";
export const API_AUDIENCE = "parley-api";
/** Visitor tokens carry another audience, so one can never pass for a member's token. */
export const WIDGET_AUDIENCE = "parley-widget";
export const VISITOR_TOKEN_TTL_S = 24 * 60 * 60;

/** Verified tokens remembered per audience (oldest evicted first); bounded so a flood of tokens cannot grow memory. */
const VERIFIED_CACHE_SIZE = 10_000;

export interface AccessClaims {
  sub: string;
}

/**
 * Signs and checks access tokens with @elysiajs/jwt. The algorithm is pinned to HS256 on
 * both sides: a token whose header says `none` or another algorithm is refused, as is one
 * with another issuer or audience (a visitor token is not a user token), a missing `sub`,
 * or an `exp` in the past by the injected clock.
 */
export function createTokenService(secret: string, clock: Clock) {
  const signer = jwt({ name: "accessJwt", secret, alg: "HS256", iss: TOKEN_ISSUER }).decorator.accessJwt;
  const nowSeconds = () => Math.floor(clock.now() / 1000);
  // One map per audience, keyed by the token itself (no key string built per request).
  const verifiedByAudience = new Map<
    string,
    Map<string, { claims: AccessClaims & Record<string, unknown>; expiresAtMs: number }>
  >();

  return {
    async signAccess(
      claims: AccessClaims & Record<string, string>,
      audience = API_AUDIENCE,
      ttlSeconds = ACCESS_TOKEN_TTL_S,
    ) {
      return signer.sign({ ...claims, aud: audience, exp: nowSeconds() + ttlSeconds, iat: false });
    },
    async verifyAccess(
      token: string,
      audience = API_AUDIENCE,
    ): Promise<(AccessClaims & Record<string, unknown>) | null> {
      // A token verified once verifies the same way until it expires: remember the result so
      // a chat visitor's 60 messages a minute pay for one HMAC check, not 60.
      let verified = verifiedByAudience.get(audience);
      if (!verified) {
        verified = new Map();
        verifiedByAudience.set(audience, verified);
      }
      const remembered = verified.get(token);
      if (remembered) {
        if (remembered.expiresAtMs > clock.now()) return remembered.claims;
        verified.delete(token);
        return null;
      }
      const payload = await signer.verify(token, {
        algorithms: ["HS256"],
        issuer: TOKEN_ISSUER,
        audience,
        currentDate: new Date(clock.now()),
        requiredClaims: ["sub", "exp", "iss", "aud"],
      });
      if (!payload || typeof payload.sub !== "string" || typeof payload.exp !== "number") return null;
      const claims = { ...payload, sub: payload.sub };
      if (verified.size >= VERIFIED_CACHE_SIZE) {
        const oldest = verified.keys().next().value;
        if (oldest !== undefined) verified.delete(oldest);
      }
      verified.set(token, { claims, expiresAtMs: payload.exp * 1000 });
      return claims;
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
