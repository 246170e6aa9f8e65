import { DeliveryScheduler } from "../../src/scheduler/scheduler.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { EVENT_NAMES } from "../../src/webhooks/events.ts";
import type { TestContext } from "../helpers.ts";

export interface Delivered {
  event: string;
  webhook_id: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** Subscribes a tenant to every event, to one fake receiver URL. */
export async function subscribeToEverything(context: TestContext, tenantId: string): Promise<void> {
  for (const event of EVENT_NAMES) {
    await createRule(context.deps, tenantId, {
      name: event,
      event,
      url: `https://receiver.example/${tenantId}`,
      secret: "receiver-secret-123",
      active: true,
    });
  }
}

/** Runs the scheduler once with a capturing sender and returns what would have been POSTed. */
export async function deliverAll(context: TestContext): Promise<Delivered[]> {
  const delivered: Delivered[] = [];
  await new DeliveryScheduler(context.deps, {
    send: async (input) => {
      delivered.push(JSON.parse(input.body) as Delivered);
      return { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "" };
    },
  }).runOnce();
  return delivered;
}

export async function openWidgetSession(context: TestContext, tenantId: string, origin?: string) {
  const response = await context.request("POST", "/api/v1/widget/session", {
    body: { tenant_id: tenantId },
    headers: origin ? { origin } : {},
  });
  if (response.status !== 201) throw new Error(`widget session failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as {
    access_token: string;
    session_id: string;
    greeting: string;
    bot_name: string;
    expires_in: number;
  };
}

export async function say(
  context: TestContext,
  token: string,
  tenantId: string,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return context.request("POST", "/api/v1/chatbot/message", {
    body: { tenant_id: tenantId, message, ...extra },
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
}
