import { afterEach, expect, test } from "bun:test";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildTestApp, type TestContext } from "../helpers.ts";
import { deliverAll, openWidgetSession, say, subscribeToEverything } from "../http/chat-helpers.ts";

let context: TestContext;
afterEach(() => context.close());

test("a phone corrected after the lead was captured updates the lead row, with no second lead and no new event", async () => {
  context = buildTestApp({ allowPrivateWebhooks: true });
  const tenant = await createTenant(context.deps, { name: "Clinic", sector: "dental-clinic", plan: "pro" });
  const other = await createTenant(context.deps, { name: "Other", sector: "dental-clinic", plan: "pro" });
  await subscribeToEverything(context, tenant.id);
  const visitor = await openWidgetSession(context, tenant.id);
  const otherVisitor = await openWidgetSession(context, other.id);
  await say(
    context,
    otherVisitor.access_token,
    other.id,
    "I'm interested in veneers. my name is Ana Lopez, 415 555 0132, ana@example.com",
  );

  const first = await say(
    context,
    visitor.access_token,
    tenant.id,
    "I'm interested in veneers. my name is Sara Lind, 917 555 0120, sara.lind@outlook.com",
  );
  expect(first.status).toBe(200);
  const correction = await say(context, visitor.access_token, tenant.id, "sorry, my number is 917 555 0199");
  expect(correction.status).toBe(200);
  expect(((await correction.json()) as { reply: { text: string } }).reply.text).toContain(
    "updated your phone number to +1 917 555 0199",
  );

  const headers = { "x-api-key": (await createApiKey(context.deps, { tenantId: tenant.id })).key };
  const leads = (await (await context.request("GET", "/api/v1/leads", { headers })).json()) as {
    data: Array<{ name: string; phone: string; email: string }>;
  };
  expect(leads.data).toHaveLength(1);
  expect(leads.data[0]).toMatchObject({ name: "Sara Lind", phone: "+19175550199", email: "sara.lind@outlook.com" });

  // The other tenant's lead, captured in another session, is untouched.
  const otherHeaders = { "x-api-key": (await createApiKey(context.deps, { tenantId: other.id })).key };
  const otherLeads = (await (await context.request("GET", "/api/v1/leads", { headers: otherHeaders })).json()) as {
    data: Array<{ phone: string }>;
  };
  expect(otherLeads.data.map((lead) => lead.phone)).toEqual(["+14155550132"]);

  const events = (await deliverAll(context)).map((body) => body.event).sort();
  expect(events).toEqual(["lead.created", "session.started"]);
});
