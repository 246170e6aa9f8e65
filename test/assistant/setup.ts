import type { Config } from "../../src/config.ts";
import { updateBotConfig } from "../../src/chat/bot-settings.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildTestApp, type TestContext } from "../helpers.ts";
import { openWidgetSession, say, subscribeToEverything } from "../http/chat-helpers.ts";
import type { FakeProvider } from "./fake-provider.ts";

export const WHITENING_ANSWER = "Teeth whitening at Smile Dental costs 249 dollars per session and takes one hour.";
export const OTHER_TENANT_SECRET = "Zebra plan costs 777 dollars for competitors only";

/** No real DNS in tests: the webhook receiver is public, any other name a private address. */
const fakeDns = async (host: string): Promise<string[]> =>
  host === "receiver.example" ? ["93.184.216.34"] : ["10.0.0.7"];

export interface AssistantFixture {
  context: TestContext;
  tenantId: string;
  otherTenantId: string;
  token: string;
  sessionId: string;
  send(message: string, headers?: Record<string, string>): Promise<Response>;
}

/**
 * An app whose server-wide provider is the fake one, a dental tenant whose FAQ (part of its
 * knowledge) holds a distinctive answer, another tenant with a secret of its own, webhooks for
 * every event and an open widget session.
 */
export async function assistantFixture(
  provider: FakeProvider,
  overrides: Partial<Config> = {},
): Promise<AssistantFixture> {
  const context = buildTestApp(
    {
      allowPrivateWebhooks: true,
      aiBaseUrl: provider.url,
      aiModel: "test-model",
      aiApiKey: "server-key-123",
      aiTimeoutMs: 400,
      ...overrides,
    },
    {},
    { resolveHost: fakeDns },
  );
  const tenant = await createTenant(context.deps, { name: "Smile Dental", sector: "dental-clinic", plan: "pro" });
  const other = await createTenant(context.deps, { name: "Other Co", sector: "dental-clinic", plan: "pro" });
  await updateBotConfig(context.deps, tenant.id, {
    faq: [{ id: "whitening", question: "How much does teeth whitening cost?", answer: WHITENING_ANSWER }],
  });
  await updateBotConfig(context.deps, other.id, {
    faq: [{ id: "zebra", question: "How much does teeth whitening cost?", answer: OTHER_TENANT_SECRET }],
  });
  await subscribeToEverything(context, tenant.id);
  const visitor = await openWidgetSession(context, tenant.id);
  return {
    context,
    tenantId: tenant.id,
    otherTenantId: other.id,
    token: visitor.access_token,
    sessionId: visitor.session_id,
    send: (message, headers = {}) => say(context, visitor.access_token, tenant.id, message, {}, headers),
  };
}

export interface ReplyBody {
  session_id: string;
  message_id: string;
  reply: {
    message_id: string;
    text: string;
    quick_replies?: string[];
    sources?: Array<{ document_id: string; title: string; url?: string }>;
  } | null;
  status: string;
}
