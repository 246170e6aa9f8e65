import { afterEach, expect, test } from "bun:test";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";
import { updateBotConfig } from "../../src/chat/bot-settings.ts";

let context: TestContext;
afterEach(() => context?.close());

const weekday = { open: "09:00", close: "17:00" };

test("the widget's settings say when the team is back while it is out, and null while it is in (the tenant's hours and zone, the injected clock)", async () => {
  context = buildTestApp({ rateLimits: false });
  const { tenant } = await seedTenant(context.deps, "Hours");
  await updateBotConfig(context.deps, tenant.id, {
    appointments: {
      timezone: "America/Sao_Paulo",
      business_hours: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: null, sun: null },
    },
  });
  const backAt = async () =>
    (
      (await (await context.request("GET", `/api/v1/widget/config?tenant_id=${tenant.id}`)).json()) as {
        back_at: string | null;
      }
    ).back_at;

  context.clock.set(Date.UTC(2026, 10, 27, 16, 0)); // Friday 13:00 in São Paulo
  expect(await backAt()).toBeNull();
  context.clock.set(Date.UTC(2026, 10, 27, 21, 0)); // Friday 18:00
  expect(await backAt()).toBe("2026-11-30T12:00:00.000Z"); // Monday 09:00 in São Paulo
});
