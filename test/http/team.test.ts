import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, login, seedTenant, testSql, TEST_PASSWORD, type TestContext } from "../helpers.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { createUser } from "../../src/auth/create-user.ts";

let context: TestContext;
afterEach(() => context?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function ownerAndAgent() {
  context = buildTestApp({ rateLimits: false });
  const seeded = await seedTenant(context.deps, "Desk");
  const owner = (await login(context, seeded.email)).access_token;
  const added = await context.request("POST", "/api/v1/users", {
    headers: bearer(owner),
    body: { email: "Sam@Desk.test", password: "sam-password-1", display_name: "Sam" },
  });
  expect(added.status).toBe(201);
  const agent = (await added.json()) as { user_id: string; role: string; email: string; display_name: string };
  return { ...seeded, owner, agent };
}

describe("the team", () => {
  test("an owner adds an agent who signs in with e-mail and password and is listed with the role", async () => {
    const { owner, agent } = await ownerAndAgent();
    expect(agent).toMatchObject({ email: "sam@desk.test", role: "agent", display_name: "Sam" });
    const tokens = await login(context, "sam@desk.test", "sam-password-1");
    const me = (await (
      await context.request("GET", "/api/v1/me", { headers: bearer(tokens.access_token) })
    ).json()) as { memberships: Array<{ role: string }> };
    expect(me.memberships.map((membership) => membership.role)).toEqual(["agent"]);
    const team = (await (await context.request("GET", "/api/v1/users", { headers: bearer(owner) })).json()) as {
      data: Array<{ email: string; role: string }>;
    };
    expect(team.data.map((member) => `${member.email} ${member.role}`)).toEqual([
      "owner@desk.test owner",
      "sam@desk.test agent",
    ]);
  });

  test("an agent can neither add nor remove people", async () => {
    const { agent } = await ownerAndAgent();
    const token = (await login(context, "sam@desk.test", "sam-password-1")).access_token;
    const add = await context.request("POST", "/api/v1/users", {
      headers: bearer(token),
      body: { email: "eve@desk.test", password: "eve-password-1" },
    });
    expect(add.status).toBe(403);
    expect((await context.request("DELETE", `/api/v1/users/${agent.user_id}`, { headers: bearer(token) })).status).toBe(
      403,
    );
  });

  test("a removed agent's access and refresh tokens stop working at once, and its rows go with it", async () => {
    const { owner, agent } = await ownerAndAgent();
    const tokens = await login(context, "sam@desk.test", "sam-password-1");
    expect((await context.request("GET", "/api/v1/inbox", { headers: bearer(tokens.access_token) })).status).toBe(200);

    const removed = await context.request("DELETE", `/api/v1/users/${agent.user_id}`, { headers: bearer(owner) });
    expect(await removed.json()).toEqual({ ok: true, user_id: agent.user_id, deleted: true, account_deleted: true });

    expect((await context.request("GET", "/api/v1/inbox", { headers: bearer(tokens.access_token) })).status).toBe(401);
    expect((await context.request("GET", "/api/v1/me", { headers: bearer(tokens.access_token) })).status).toBe(401);
    expect(
      (await context.request("POST", "/api/v1/auth/refresh", { body: { refresh_token: tokens.refresh_token } })).status,
    ).toBe(401);
    const sql = await testSql(context.deps);
    for (const table of ["users", "memberships", "refresh_tokens"]) {
      const column = table === "users" ? "id" : "user_id";
      expect([table, (await sql.all(`SELECT 1 FROM ${table} WHERE ${column} = ?`, agent.user_id)).length]).toEqual([
        table,
        0,
      ]);
    }
  });

  test("someone who also works for another tenant loses only this one", async () => {
    const { owner, agent } = await ownerAndAgent();
    const other = await createTenant(context.deps, { name: "Other" });
    await createUser(context.deps, { email: "sam@desk.test", tenantId: other.id, role: "agent" });
    const token = (await login(context, "sam@desk.test", "sam-password-1")).access_token;
    const removed = (await (
      await context.request("DELETE", `/api/v1/users/${agent.user_id}`, { headers: bearer(owner) })
    ).json()) as { account_deleted: boolean };
    expect(removed.account_deleted).toBe(false);
    const me = (await (await context.request("GET", "/api/v1/me", { headers: bearer(token) })).json()) as {
      memberships: Array<{ tenant_id: string }>;
    };
    expect(me.memberships.map((membership) => membership.tenant_id)).toEqual([other.id]);
  });

  test("the only owner cannot be removed; a second owner can be", async () => {
    const { owner, user } = await ownerAndAgent();
    const last = await context.request("DELETE", `/api/v1/users/${user.userId}`, { headers: bearer(owner) });
    expect(last.status).toBe(409);
    expect(((await last.json()) as { error: string }).error).toBe("last_owner");
    await context.request("POST", "/api/v1/users", {
      headers: bearer(owner),
      body: { email: "co@desk.test", password: TEST_PASSWORD, role: "owner" },
    });
    expect((await context.request("DELETE", `/api/v1/users/${user.userId}`, { headers: bearer(owner) })).status).toBe(
      200,
    );
  });

  test("a user changes their own password with the current one; a wrong current one is a 422", async () => {
    await ownerAndAgent();
    const tokens = await login(context, "sam@desk.test", "sam-password-1");
    const wrong = await context.request("POST", "/api/v1/me/password", {
      headers: bearer(tokens.access_token),
      body: { current_password: "nope", new_password: "a-new-password" },
    });
    expect(wrong.status).toBe(422);
    const changed = await context.request("POST", "/api/v1/me/password", {
      headers: bearer(tokens.access_token),
      body: { current_password: "sam-password-1", new_password: "a-new-password" },
    });
    expect(changed.status).toBe(200);
    expect(
      (await context.request("POST", "/api/v1/auth/refresh", { body: { refresh_token: tokens.refresh_token } })).status,
    ).toBe(401);
    expect((await login(context, "sam@desk.test", "a-new-password")).access_token).toBeString();
  });
});
