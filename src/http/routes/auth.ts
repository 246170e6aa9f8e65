import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { strictObject } from "../schema.ts";
import { securityPlugin } from "../plugins/security.ts";
import { clientIp } from "../plugins/client-ip.ts";
import { ACCESS_TOKEN_TTL_S } from "../plugins/tokens.ts";
import { authenticateUser, loginAccountKey } from "../../auth/authenticate-user.ts";
import { AppError } from "../../lib/app-error.ts";
import { issueRefreshToken, rotateRefreshToken, type IssuedRefreshToken } from "../../auth/refresh-tokens.ts";

export const AuthModel = {
  tokenBody: strictObject({
    email: t.String({ minLength: 1, maxLength: 254, examples: ["owner@acme.example"] }),
    password: t.String({ minLength: 1, maxLength: 256, examples: ["correct horse battery"] }),
  }),
  refreshBody: strictObject({ refresh_token: t.String({ minLength: 1, maxLength: 200 }) }),
  tokenResponse: t.Object({
    access_token: t.String({ description: "A JWT (HS256) for the Authorization: Bearer header." }),
    token_type: t.Literal("Bearer"),
    expires_in: t.Number({ description: "Seconds until the access token expires.", examples: [900] }),
    refresh_token: t.String(),
    refresh_expires_in: t.Number({ description: "Seconds until the refresh token expires." }),
  }),
} as const;

const AUTH_PREFIX = "/api/v1/auth";
/** The login and refresh paths: the auth rate group, per client IP. */
const AUTH_PATHS = new Set([`${AUTH_PREFIX}/token`, `${AUTH_PREFIX}/refresh`]);

export function authRoutes(deps: AppDeps) {
  const tokenPair = async (userId: string, refresh: IssuedRefreshToken) => ({
    access_token: await deps.tokens.signAccess({ sub: userId }),
    token_type: "Bearer" as const,
    expires_in: ACCESS_TOKEN_TTL_S,
    refresh_token: refresh.token,
    refresh_expires_in: Math.round((refresh.expiresAt - deps.clock.now()) / 1000),
  });

  return new Elysia({ prefix: AUTH_PREFIX })
    .use(securityPlugin(deps))
    // Counted before the body is parsed: malformed JSON is an attempt like any other, and a
    // flood of it must hit the limit too (the rateLimit macro runs only after parsing).
    // Runs before every request: the URL is parsed only for a POST that may be a login. The
    // route matches with and without a trailing slash, so the count must too.
    .onRequest(async ({ request, server, set }) => {
      if (request.method !== "POST" || !request.url.includes(`${AUTH_PREFIX}/`)) return;
      if (AUTH_PATHS.has(new URL(request.url).pathname.replace(/\/$/, ""))) {
        await deps.rateLimiter.check("auth", clientIp(request, server, deps.config.trustProxy), set.headers as Record<string, string | number>);
      }
    })
    .post(
      "/token",
      async ({ body }) => {
        // Per account, whatever the addresses: guessing one password from many addresses pauses too.
        const account = loginAccountKey(body.email);
        await deps.rateLimiter.refuseIfExhausted("login_failures", account, "Too many wrong passwords for this account");
        try {
          const { userId } = await authenticateUser(deps, body.email, body.password);
          return tokenPair(userId, await issueRefreshToken(deps, userId));
        } catch (error) {
          if (error instanceof AppError && error.code === "invalid_credentials") await deps.rateLimiter.check("login_failures", account, {});
          throw error;
        }
      },
      {
        body: AuthModel.tokenBody,
        response: { 200: AuthModel.tokenResponse },
        detail: {
          summary: "Log in",
          description:
            "E-mail and password for a Bearer access token (15 minutes) and a refresh token. 5 attempts per minute per client address; " +
            "after 20 wrong passwords for one e-mail within 15 minutes (from any addresses), 429 until the oldest leaves the window.",
        },
      },
    )
    .post(
      "/refresh",
      async ({ body }) => {
        const { userId, refresh } = await rotateRefreshToken(deps, body.refresh_token);
        return tokenPair(userId, refresh);
      },
      {
        body: AuthModel.refreshBody,
        response: { 200: AuthModel.tokenResponse },
        detail: { summary: "Refresh a token", description: "Rotates the refresh token: the old one stops working, and reusing a rotated one revokes its whole family." },
      },
    );
}
