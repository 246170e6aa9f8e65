import { expect } from "bun:test";
import { login, seedTenant, type TestContext } from "../helpers.ts";
import { openWidgetSession, say } from "../http/chat-helpers.ts";
import { updateBotConfig } from "../../src/chat/bot-settings.ts";

const weekday = { open: "09:00", close: "17:00" };
// 2026-11-27 is a Friday; São Paulo is UTC−3.
export const FRIDAY_10_SAO_PAULO = Date.UTC(2026, 10, 27, 13, 0);
export const FRIDAY_18_SAO_PAULO = Date.UTC(2026, 10, 27, 21, 0);
export const WAIT_MS = 120_000;

/** A tenant open 09:00–17:00 in São Paulo, on a Friday at 10:00 there, with ways to chat, reply and read the hand-off. */
export async function hoursDesk(context: TestContext) {
  context.clock.set(FRIDAY_10_SAO_PAULO);
  const seeded = await seedTenant(context.deps, "Paths");
  await updateBotConfig(context.deps, seeded.tenant.id, {
    appointments: {
      timezone: "America/Sao_Paulo",
      business_hours: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: null, sun: null },
    },
  });
  const apiKey = { "x-api-key": seeded.apiKey };
  const owner = { authorization: `Bearer ${(await login(context, seeded.email)).access_token}` };
  const tenantId = seeded.tenant.id;
  /** A widget chat: its session and a way to say more in it. */
  const visitor = async () => {
    const session = await openWidgetSession(context, tenantId);
    const sayAs = async (message: string) =>
      (await (
        await say(context, session.access_token, tenantId, message, { session_id: session.session_id })
      ).json()) as {
        status: string;
      };
    return { sessionId: session.session_id, say: sayAs };
  };
  const reply = (sessionId: string, headers: Record<string, string>) =>
    context.request("POST", `/api/v1/sessions/${sessionId}/operator-messages`, { headers, body: { text: "Hi!" } });
  const inboxChat = async (sessionId: string) =>
    (await (await context.request("GET", `/api/v1/inbox/chats/${sessionId}`, { headers: apiKey })).json()) as {
      status: string;
      handoff_at: string | null;
      within_business_hours: boolean | null;
      waiting_since: string | null;
    };
  const waits = () => context.deps.store.desk.listReplyWaits(tenantId, 0, 500);
  return { context, tenantId, apiKey, owner, visitor, reply, inboxChat, waits };
}

export type HoursDesk = Awaited<ReturnType<typeof hoursDesk>>;

/** The hand-off's time as the inbox shows it, the handoffs row, and the reply waits agree. */
export async function expectOneHandoff(d: HoursDesk, sessionId: string, handedOffAt: number, waitMs: number) {
  expect(await d.inboxChat(sessionId)).toMatchObject({
    status: "handoff",
    handoff_at: new Date(handedOffAt).toISOString(),
    within_business_hours: true,
  });
  expect(await d.context.deps.store.desk.findHandoff(sessionId)).toMatchObject({
    handoffAt: handedOffAt,
    firstReplyAt: handedOffAt + waitMs,
  });
  expect(await d.waits()).toEqual([waitMs]);
}
