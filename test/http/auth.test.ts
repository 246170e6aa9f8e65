import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { revokeApiKey } from "../../src/auth/api-keys.ts";
import {
  buildTestApp,
  login,
  seedTenant,
  TEST_JWT_SECRET,
  TEST_PASSWORD,
  testSql,
  type TestContext,
} from "../helpers.ts";

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** Builds a JWT by hand, so the tests do not trust the library they are checking. */
function craftToken(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  secret = TEST_JWT_SECRET,
): string {
  const unsigned = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  if (header.alg === "none") return `${unsigned}.`;
  return `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
}

let context: TestContext;
let seeded: Awaited<ReturnType<typeof seedTenant>>;

beforeEach(async () => {
  context = buildTestApp();
  seeded = await seedTenant(context.deps);
});
afterEach(() => context.close());

const me = (token: string) => context.request("GET", "/api/v1/me", { headers: { authorization: `Bearer ${token}` } });
const validClaims = () => ({
  sub: seeded.user.userId,
  iss: "parley",
  aud: "parley-api",
  exp: Math.floor(context.clock.now() / 1000) + 600,
});

describe("POST /api/v1/auth/token", () => {
  test("a good login returns an access token, a refresh token and their lifetimes", async () => {
    const response = await context.request("POST", "/api/v1/auth/token", {
      body: { email: seeded.email, password: TEST_PASSWORD },
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.token_type).toBe("Bearer");
    expect(body.expires_in).toBe(900);
    expect(body.refresh_expires_in).toBe(30 * 86_400);
    expect(body.refresh_token).toMatch(/^rt_/);
    const whoami = await me(body.access_token);
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toEqual({
      user_id: seeded.user.userId,
      email: seeded.email,
      display_name: null,
      memberships: [{ tenant_id: seeded.tenant.id, role: "owner" }],
    });
  });

  test("the e-mail is matched case-insensitively", async () => {
    const response = await context.request("POST", "/api/v1/auth/token", {
      body: { email: seeded.email.toUpperCase(), password: TEST_PASSWORD },
    });
    expect(response.status).toBe(200);
  });

  test("a wrong password and an unknown e-mail get the same 401", async () => {
    const wrong = await context.request("POST", "/api/v1/auth/token", {
      body: { email: seeded.email, password: "nope-nope-nope" },
    });
    const unknown = await context.request("POST", "/api/v1/auth/token", {
      body: { email: "ghost@nowhere.test", password: TEST_PASSWORD },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  test("an unknown e-mail still runs a password verification, like a wrong password", async () => {
    const verify = Bun.password.verify;
    let calls = 0;
    Bun.password.verify = (async (...args: Parameters<typeof verify>) => {
      calls++;
      return verify(...args);
    }) as typeof verify;
    try {
      await context.request("POST", "/api/v1/auth/token", {
        body: { email: "ghost@nowhere.test", password: TEST_PASSWORD },
      });
      expect(calls).toBe(1);
    } finally {
      Bun.password.verify = verify;
    }
  });
});

describe("Bearer tokens", () => {
  test("no token answers 401 with a JSON error", async () => {
    const response = await context.request("GET", "/api/v1/me");
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe("unauthorized");
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });

  test("a token crafted by hand with the right secret and claims is accepted (the control case)", async () => {
    expect((await me(craftToken({ alg: "HS256", typ: "JWT" }, validClaims()))).status).toBe(200);
  });

  test("an expired token is refused", async () => {
    const { access_token } = await login(context, seeded.email);
    expect((await me(access_token)).status).toBe(200);
    context.clock.advance(15 * 60_000 + 1_000);
    expect((await me(access_token)).status).toBe(401);
  });

  test("a token with alg none is refused", async () => {
    expect((await me(craftToken({ alg: "none", typ: "JWT" }, validClaims()))).status).toBe(401);
  });

  test("a token signed with another secret is refused", async () => {
    expect(
      await me(craftToken({ alg: "HS256" }, validClaims(), "another-secret-another-secret-0123456789")),
    ).toMatchObject({ status: 401 });
  });

  test("a token with another audience is refused", async () => {
    expect((await me(craftToken({ alg: "HS256" }, { ...validClaims(), aud: "parley-widget" }))).status).toBe(401);
  });

  test("a token with another issuer or without exp or sub is refused", async () => {
    const { exp: _exp, ...noExp } = validClaims();
    const { sub: _sub, ...noSub } = validClaims();
    expect((await me(craftToken({ alg: "HS256" }, { ...validClaims(), iss: "evil" }))).status).toBe(401);
    expect((await me(craftToken({ alg: "HS256" }, noExp))).status).toBe(401);
    expect((await me(craftToken({ alg: "HS256" }, noSub))).status).toBe(401);
  });

  test("a token signed with HS512 is refused: the algorithm is pinned", async () => {
    const header = b64url(JSON.stringify({ alg: "HS512" }));
    const payload = b64url(JSON.stringify(validClaims()));
    const signature = createHmac("sha512", TEST_JWT_SECRET).update(`${header}.${payload}`).digest("base64url");
    expect((await me(`${header}.${payload}.${signature}`)).status).toBe(401);
  });
});

describe("POST /api/v1/auth/refresh", () => {
  test("a refresh token is rotated: the new one works and the old one is spent", async () => {
    const first = await login(context, seeded.email);
    const rotated = await context.request("POST", "/api/v1/auth/refresh", {
      body: { refresh_token: first.refresh_token },
    });
    expect(rotated.status).toBe(200);
    const second = await rotated.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await me(second.access_token)).status).toBe(200);
    const third = await context.request("POST", "/api/v1/auth/refresh", {
      body: { refresh_token: second.refresh_token },
    });
    expect(third.status).toBe(200);
  });

  test("reusing a rotated refresh token revokes its whole family", async () => {
    const first = await login(context, seeded.email);
    const second = await (
      await context.request("POST", "/api/v1/auth/refresh", { body: { refresh_token: first.refresh_token } })
    ).json();
    const replay = await context.request("POST", "/api/v1/auth/refresh", {
      body: { refresh_token: first.refresh_token },
    });
    expect(replay.status).toBe(401);
    expect((await replay.json()).error).toBe("invalid_refresh_token");
    // The newest token of the family, held by whoever rotated last, is dead too.
    const afterReuse = await context.request("POST", "/api/v1/auth/refresh", {
      body: { refresh_token: second.refresh_token },
    });
    expect(afterReuse.status).toBe(401);
  });

  test("another login's family is not touched by a reuse", async () => {
    const first = await login(context, seeded.email);
    const other = await login(context, seeded.email);
    await context.request("POST", "/api/v1/auth/refresh", { body: { refresh_token: first.refresh_token } });
    await context.request("POST", "/api/v1/auth/refresh", { body: { refresh_token: first.refresh_token } });
    expect(
      (await context.request("POST", "/api/v1/auth/refresh", { body: { refresh_token: other.refresh_token } })).status,
    ).toBe(200);
  });

  test("an expired or unknown refresh token is refused", async () => {
    const first = await login(context, seeded.email);
    context.clock.advance(30 * 86_400_000 + 1);
    expect(
      (await context.request("POST", "/api/v1/auth/refresh", { body: { refresh_token: first.refresh_token } })).status,
    ).toBe(401);
    expect(
      (await context.request("POST", "/api/v1/auth/refresh", { body: { refresh_token: "rt_unknown" } })).status,
    ).toBe(401);
  });
});

describe("X-API-Key", () => {
  const tenantWithKey = (key: string) => context.request("GET", "/api/v1/tenant", { headers: { "x-api-key": key } });

  test("a valid key reaches its own tenant", async () => {
    const response = await tenantWithKey(seeded.apiKey);
    expect(response.status).toBe(200);
    expect((await response.json()).tenant_id).toBe(seeded.tenant.id);
  });

  test("a revoked key answers 401", async () => {
    await revokeApiKey(context.deps, seeded.apiKeyId);
    const response = await tenantWithKey(seeded.apiKey);
    expect(response.status).toBe(401);
    expect((await response.json()).message).toContain("invalid or revoked");
  });

  test("a key with one character changed answers 401", async () => {
    const last = seeded.apiKey.at(-1) === "a" ? "b" : "a";
    expect((await tenantWithKey(seeded.apiKey.slice(0, -1) + last)).status).toBe(401);
    expect((await tenantWithKey("pk_short")).status).toBe(401);
  });

  test("a key cannot name another tenant: 404, as if it did not exist", async () => {
    const other = await seedTenant(context.deps, "Other");
    const response = await context.request("GET", `/api/v1/tenant?tenant_id=${other.tenant.id}`, {
      headers: { "x-api-key": seeded.apiKey },
    });
    expect(response.status).toBe(404);
  });

  test("only the key's hash is stored", async () => {
    const rows = await (await testSql(context.deps)).all<{ key_hash: string; prefix: string }>(
      "SELECT key_hash, prefix FROM api_keys",
    );
    expect(rows.some((row) => row.key_hash === seeded.apiKey || row.key_hash.includes(seeded.apiKey.slice(11)))).toBe(
      false,
    );
    expect(rows[0]?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(seeded.apiKey.startsWith(rows[0]?.prefix ?? "?")).toBe(true);
  });
});
