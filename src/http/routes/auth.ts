import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { strictObject } from "../schema.ts";
import { securityPlugin } from "../plugins/security.ts";
import { clientIp } from "../plugins/client-ip.ts";
import { ACCESS_TOKEN_TTL_S } from "../plugins/tokens.ts";
import { authenticateUser, loginAccountKey } from "../../auth/authenticate-user.ts";
import { AppError } from "../../lib/app-error.ts";
import {
  issueRefreshToken,
  revokeRefreshToken,
  rotateRefreshToken,
  type IssuedRefreshToken,
} from "../../auth/refresh-tokens.ts";
import { cameOverHttps, readRefreshCookie, refreshCookie } from "../refresh-cookie.ts";

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
  sessionResponse: t.Object({
    access_token: t.String({ description: "A JWT (HS256) for the Authorization: Bearer header; keep it in memory." }),
    token_type: t.Literal("Bearer"),
    expires_in: t.Number({ description: "Seconds until the access token expires.", examples: [900] }),
  }),
  signedOut: t.Object({ ok: t.Literal(true) }),
} as const;

const AUTH_PREFIX = "/api/v1/auth";
/** The login and refresh paths: the auth rate group, per client IP. */
const AUTH_PATHS = new Set([
  `${AUTH_PREFIX}/token`,
  `${AUTH_PREFIX}/refresh`,
  `${AUTH_PREFIX}/session`,
  `${AUTH_PREFIX}/session/refresh`,
]);

const noRefreshCookie = () => new AppError("invalid_refresh_token", 401, "No session: sign in again.");

export function authRoutes(deps: AppDeps) {
  const tokenPair = async (userId: string, refresh: IssuedRefreshToken) => ({
    access_token: await deps.tokens.signAccess({ sub: userId }),
    token_type: "Bearer" as const,
    expires_in: ACCESS_TOKEN_TTL_S,
    refresh_token: refresh.token,
    refresh_expires_in: Math.round((refresh.expiresAt - deps.clock.now()) / 1000),
  });

  // Per account, whatever the addresses: guessing one password from many addresses pauses too.
  const logIn = async (email: string, password: string) => {
    const account = loginAccountKey(email);
    await deps.rateLimiter.refuseIfExhausted("login_failures", account, "Too many wrong passwords for this account");
    try {
      const { userId } = await authenticateUser(deps, email, password);
      return { userId, refresh: await issueRefreshToken(deps, userId) };
    } catch (error) {
      if (error instanceof AppError && error.code === "invalid_credentials")
        await deps.rateLimiter.check("login_failures", account, {});
      throw error;
    }
  };
  // The cookie form answers the access token only; the refresh token goes where script cannot read it.
  const cookieSession = async (
    request: Request,
    set: { headers: Record<string, string | number> },
    userId: string,
    refresh: IssuedRefreshToken,
  ) => {
    const { access_token, token_type, expires_in, refresh_expires_in } = await tokenPair(userId, refresh);
    set.headers["set-cookie"] = refreshCookie(
      refresh.token,
      refresh_expires_in,
      cameOverHttps(request, deps.config.trustProxy),
    );
    set.headers["cache-control"] = "no-store";
    return { access_token, token_type, expires_in };
  };

  return (
    new Elysia({ prefix: AUTH_PREFIX })
      .use(securityPlugin(deps))
      // Counted before the body is parsed: malformed JSON is an attempt like any other, and a
      // flood of it must hit the limit too (the rateLimit macro runs only after parsing).
      // Runs before every request: the URL is parsed only for a POST that may be a login. The
      // route matches with and without a trailing slash, so the count must too.
      .onRequest(async ({ request, server, set }) => {
        if (request.method !== "POST" || !request.url.includes(`${AUTH_PREFIX}/`)) return;
        if (AUTH_PATHS.has(new URL(request.url).pathname.replace(/\/$/, ""))) {
          await deps.rateLimiter.check(
            "auth",
            clientIp(request, server, deps.config.trustProxy),
            set.headers as Record<string, string | number>,
          );
        }
      })
      .post(
        "/token",
        async ({ body }) => {
          const { userId, refresh } = await logIn(body.email, body.password);
          return tokenPair(userId, refresh);
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
          detail: {
            summary: "Refresh a token",
            description:
              "Rotates the refresh token: the old one stops working, and reusing a rotated one revokes its whole family.",
          },
        },
      )
      .post(
        "/session",
        async ({ body, request, set }) => {
          const { userId, refresh } = await logIn(body.email, body.password);
          return cookieSession(request, set, userId, refresh);
        },
        {
          body: AuthModel.tokenBody,
          response: { 200: AuthModel.sessionResponse },
          detail: {
            summary: "Sign in (browser)",
            description:
              "Like POST /auth/token, but the refresh token is set as an HttpOnly, SameSite=Strict cookie (Secure over HTTPS) scoped to /api/v1/auth/session, " +
              "and only the access token is answered: the admin page keeps it in memory. Same limits as /auth/token.",
          },
        },
      )
      .post(
        "/session/refresh",
        async ({ request, set }) => {
          const token = readRefreshCookie(request.headers);
          if (!token) throw noRefreshCookie();
          const { userId, refresh } = await rotateRefreshToken(deps, token);
          return cookieSession(request, set, userId, refresh);
        },
        {
          response: { 200: AuthModel.sessionResponse },
          detail: {
            summary: "Refresh a browser session",
            description:
              "Rotates the refresh cookie (reuse of a rotated one revokes its family, as /auth/refresh) and answers a new access token. 401 without a valid cookie.",
          },
        },
      )
      .delete(
        "/session",
        async ({ request, set }) => {
          const token = readRefreshCookie(request.headers);
          if (token) await revokeRefreshToken(deps, token);
          set.headers["set-cookie"] = refreshCookie(null, 0, cameOverHttps(request, deps.config.trustProxy));
          return { ok: true as const };
        },
        {
          response: { 200: AuthModel.signedOut },
          detail: {
            summary: "Sign out (browser)",
            description:
              "Revokes the refresh cookie's token family and clears the cookie. Access tokens already issued expire on their own (15 minutes).",
          },
        },
      )
  );
}
