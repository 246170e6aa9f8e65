import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, login, seedTenant, type TestContext } from "../helpers.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { createRule } from "../../src/webhooks/rules.ts";

let context: TestContext;
afterEach(() => context?.close());

const RULES = "/api/v1/webhooks/rules-engine/rules";

/** Someone who owns tenant A and is an agent in tenant B, with one rule in each tenant. */
async function personInTwoTenants() {
  context = buildTestApp({ rateLimits: false, allowPrivateWebhooks: true });
  const a = await seedTenant(context.deps, "Alpha");
  const b = await seedTenant(context.deps, "Beta");
  await createUser(context.deps, { email: a.email, tenantId: b.tenant.id, role: "agent" });
  for (const seeded of [a, b]) {
    await createRule(context.deps, seeded.tenant.id, {
      name: `${seeded.tenant.name} rule`,
      event: "lead.created",
      url: "http://127.0.0.1:9/hook",
      secret: "receiver-secret-0123456789",
      active: true,
    });
  }
  const token = (await login(context, a.email)).access_token;
  const as = (tenantId?: string) => ({
    authorization: `Bearer ${token}`,
    ...(tenantId ? { "x-tenant-id": tenantId } : {}),
  });
  return { a, b, as };
}

describe("X-Tenant-Id: someone in several tenants names the one a request acts on", () => {
  test("without it a route with no tenant_id field says which header to send", async () => {
    const { as } = await personInTwoTenants();
    const response = await context.request("GET", RULES, { headers: as() });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      error: "tenant_required",
      message: expect.stringContaining("X-Tenant-Id"),
    });
  });

  test("with it the request sees that tenant's data only, with the role held there", async () => {
    const { a, b, as } = await personInTwoTenants();
    const rules = (await (await context.request("GET", RULES, { headers: as(a.tenant.id) })).json()) as {
      data: Array<{ name: string }>;
    };
    expect(rules.data.map((rule) => rule.name)).toEqual(["Alpha rule"]);
    // An agent in Beta: the inbox yes, the rules no.
    expect((await context.request("GET", RULES, { headers: as(b.tenant.id) })).status).toBe(403);
    expect((await context.request("GET", "/api/v1/inbox", { headers: as(b.tenant.id) })).status).toBe(200);
    const me = (await (await context.request("GET", "/api/v1/me", { headers: as(b.tenant.id) })).json()) as {
      memberships: Array<{ tenant_id: string; role: string }>;
    };
    expect(me.memberships).toEqual([expect.objectContaining({ tenant_id: b.tenant.id, role: "agent" })]);
  });

  test("a tenant the person is not in is 404, and tenant_id must agree with the header", async () => {
    const { a, b, as } = await personInTwoTenants();
    const stranger = await seedTenant(context.deps, "Gamma");
    expect((await context.request("GET", RULES, { headers: as(stranger.tenant.id) })).status).toBe(404);
    expect(
      (await context.request("GET", `/api/v1/tenant?tenant_id=${b.tenant.id}`, { headers: as(a.tenant.id) })).status,
    ).toBe(404);
    expect(
      (await context.request("GET", `/api/v1/tenant?tenant_id=${a.tenant.id}`, { headers: as(a.tenant.id) })).status,
    ).toBe(200);
  });
});
