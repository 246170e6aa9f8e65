import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, seedTenant, TEST_PASSWORD, type TestContext } from "../helpers.ts";

let context: TestContext;
afterEach(() => context?.close());

const cookieOf = (response: Response) =>
  response.headers.getSetCookie().find((cookie) => cookie.startsWith("parley_refresh=")) ?? "";
const tokenIn = (cookie: string) => /^parley_refresh=([^;]*)/.exec(cookie)?.[1] ?? "";

async function signIn(url = "http://localhost/api/v1/auth/session", headers: Record<string, string> = {}) {
  const { email } = await seedTenant(context.deps, "Browser");
  return context.app.handle(
    new Request(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    }),
  );
}

const refresh = (cookie: string) =>
  context.request("POST", "/api/v1/auth/session/refresh", { headers: { cookie: `parley_refresh=${tokenIn(cookie)}` } });

describe("the browser session (refresh token in a cookie)", () => {
  test("signing in answers the access token only and sets an HttpOnly, SameSite=Strict cookie scoped to the session path", async () => {
    context = buildTestApp({ rateLimits: false });
    const response = await signIn();
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "token_type"]);
    const cookie = cookieOf(response);
    expect(tokenIn(cookie)).toStartWith("rt_");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).toContain("Path=/api/v1/auth/session");
    expect(cookie).not.toContain("Secure");
    const me = await context.request("GET", "/api/v1/me", {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(me.status).toBe(200);
  });

  test("the cookie is Secure when the request came over HTTPS, or through a trusted proxy that says so", async () => {
    context = buildTestApp({ rateLimits: false });
    expect(cookieOf(await signIn("https://desk.example/api/v1/auth/session"))).toContain("; Secure");
    context.close();
    context = buildTestApp({ rateLimits: false, trustProxy: true });
    expect(cookieOf(await signIn(undefined, { "x-forwarded-proto": "https" }))).toContain("; Secure");
    context.close();
    context = buildTestApp({ rateLimits: false });
    expect(cookieOf(await signIn(undefined, { "x-forwarded-proto": "https" }))).not.toContain("Secure");
  });

  test("refresh rotates the cookie; replaying the old one is refused and ends the session", async () => {
    context = buildTestApp({ rateLimits: false });
    const first = cookieOf(await signIn());
    const rotated = await refresh(first);
    expect(rotated.status).toBe(200);
    expect(((await rotated.json()) as { access_token: string }).access_token).toBeString();
    const second = cookieOf(rotated);
    expect(tokenIn(second)).not.toBe(tokenIn(first));
    expect((await refresh(first)).status).toBe(401);
    expect((await refresh(second)).status).toBe(401);
  });

  test("without a cookie refresh is a 401; sign-out revokes the cookie's token and clears it", async () => {
    context = buildTestApp({ rateLimits: false });
    const none = await context.request("POST", "/api/v1/auth/session/refresh");
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: string }).error).toBe("invalid_refresh_token");
    const cookie = cookieOf(await signIn());
    const out = await context.request("DELETE", "/api/v1/auth/session", {
      headers: { cookie: `parley_refresh=${tokenIn(cookie)}` },
    });
    expect(out.status).toBe(200);
    expect(cookieOf(out)).toContain("Max-Age=0");
    expect((await refresh(cookie)).status).toBe(401);
  });
});
