import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, login, seedTenant, testSql, type TestContext } from "../helpers.ts";

let context: TestContext;
afterEach(() => context?.close());

describe("a user who no longer exists", () => {
  test("loses access at once: the unexpired access token gets 401 on every kind of route, the refresh token too", async () => {
    context = buildTestApp({ rateLimits: false });
    const { email, user, tenant } = await seedTenant(context.deps, "Gone");
    const tokens = await login(context, email);
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    expect((await context.request("GET", "/api/v1/me", { headers: bearer })).status).toBe(200);

    await (await testSql(context.deps)).run("DELETE FROM users WHERE id = ?", user.userId);

    const me = await context.request("GET", "/api/v1/me", { headers: bearer });
    expect(me.status).toBe(401);
    expect(((await me.json()) as { error: string }).error).toBe("unauthorized");
    expect((await context.request("GET", `/api/v1/leads?tenant_id=${tenant.id}`, { headers: bearer })).status).toBe(
      401,
    );
    expect(
      (
        await context.request("POST", "/api/v1/chatbot/message", {
          headers: bearer,
          body: { tenant_id: tenant.id, message: "hi" },
        })
      ).status,
    ).toBe(401);
    expect(
      (await context.request("POST", "/api/v1/auth/refresh", { body: { refresh_token: tokens.refresh_token } })).status,
    ).toBe(401);
  });

  test("a user without memberships who still exists keeps access to their own account", async () => {
    context = buildTestApp({ rateLimits: false });
    const { email, user } = await seedTenant(context.deps, "Alone");
    const tokens = await login(context, email);
    await (await testSql(context.deps)).run("DELETE FROM memberships WHERE user_id = ?", user.userId);
    const me = await context.request("GET", "/api/v1/me", {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { memberships: unknown[] }).memberships).toEqual([]);
  });
});
