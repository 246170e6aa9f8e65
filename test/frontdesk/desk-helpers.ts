import { buildTestApp, login, seedTenant, TEST_PASSWORD, type TestContext } from "../helpers.ts";
import { openWidgetSession, say } from "../http/chat-helpers.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { setDisplayName } from "../../src/auth/display-name.ts";

/** A tenant with an owner, two agents (Sam, Kim) signed in, and helpers to start chats handed to a person. */
export async function frontDesk(context: TestContext, name = "Desk") {
  const seeded = await seedTenant(context.deps, name);
  const slug = name.toLowerCase();
  const person = async (email: string, role: "agent" | "admin", displayName: string) => {
    const user = await createUser(context.deps, { email, tenantId: seeded.tenant.id, role, password: TEST_PASSWORD });
    await setDisplayName(context.deps, user.userId, displayName);
    return { userId: user.userId, headers: { authorization: `Bearer ${(await login(context, email)).access_token}` } };
  };
  const sam = await person(`sam@${slug}.test`, "agent", "Sam");
  const kim = await person(`kim@${slug}.test`, "agent", "Kim");
  const owner = {
    userId: seeded.user.userId,
    headers: { authorization: `Bearer ${(await login(context, seeded.email)).access_token}` },
  };
  const apiKey = { "x-api-key": seeded.apiKey };
  /** A widget chat whose visitor asked for a person. */
  const handedOff = async (body: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const response = await context.request("POST", "/api/v1/widget/session", {
      body: { tenant_id: seeded.tenant.id, ...body },
      headers,
    });
    const visitor = (await response.json()) as { access_token: string; session_id: string };
    await say(context, visitor.access_token, seeded.tenant.id, "Can I talk to a human please?", {
      session_id: visitor.session_id,
    });
    return visitor;
  };
  return { tenant: seeded.tenant, sam, kim, owner, apiKey, handedOff };
}

export const newDeskApp = () => buildTestApp({ rateLimits: false });
export { openWidgetSession, say };
