/**
 * The admin page's refresh token lives in an HttpOnly cookie: script on the page (injected or
 * not) cannot read it, SameSite=Strict keeps other sites from sending it, its path limits it to
 * the session endpoints, and it is Secure whenever the request came over HTTPS (directly, or
 * through a trusted proxy that says so).
 */
export const REFRESH_COOKIE = "parley_refresh";
const COOKIE_PATH = "/api/v1/auth/session";
const COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${REFRESH_COOKIE}=([^;]*)`);

export function readRefreshCookie(headers: Headers): string | null {
  const value = COOKIE_PATTERN.exec(headers.get("cookie") ?? "")?.[1];
  return value ? decodeURIComponent(value) : null;
}

export function cameOverHttps(request: Request, trustProxy: boolean): boolean {
  if (request.url.startsWith("https:")) return true;
  return trustProxy && request.headers.get("x-forwarded-proto")?.split(",").at(-1)?.trim() === "https";
}

/** A Set-Cookie value carrying the token, or (token null) clearing it. */
export function refreshCookie(token: string | null, maxAgeSeconds: number, secure: boolean): string {
  const parts = [
    `${REFRESH_COOKIE}=${token ? encodeURIComponent(token) : ""}`,
    `Path=${COOKIE_PATH}`,
    `Max-Age=${token ? maxAgeSeconds : 0}`,
    "HttpOnly",
    "SameSite=Strict",
  ];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}
