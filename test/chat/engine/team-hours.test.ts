import { describe, expect, test } from "bun:test";
import { configForSector } from "../../../src/chat/engine/sector-templates.ts";
import { teamAvailability } from "../../../src/chat/engine/team-hours.ts";
import type { BotConfig } from "../../../src/chat/engine/bot-config.ts";
import { createFakeClock } from "../../../src/lib/clock.ts";

/** Monday to Friday 09:00–17:00 in the given zone; closed at the weekend. */
function officeHours(timezone: string): BotConfig {
  const config = configForSector("general");
  const weekday = { open: "09:00", close: "17:00" };
  return {
    ...config,
    appointments: {
      ...config.appointments,
      timezone,
      business_hours: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: null, sun: null },
    },
  };
}

// 2026-11-27 is a Friday; São Paulo is UTC−3 all year, Los Angeles UTC−8 in November.
const SAO_PAULO = officeHours("America/Sao_Paulo");
const MONDAY_9_SAO_PAULO = Date.UTC(2026, 10, 30, 12, 0);

describe("when the team is in (business hours in the tenant's time zone)", () => {
  test("inside the hours: a person may answer now", () => {
    const clock = createFakeClock(Date.UTC(2026, 10, 27, 13, 0)); // Friday 10:00 in São Paulo
    expect(teamAvailability(SAO_PAULO, clock.now())).toEqual({ withinBusinessHours: true, backAt: null });
  });

  test("the closing minute is outside, the minute before inside; after Friday's close the team is back on Monday at opening", () => {
    const clock = createFakeClock(Date.UTC(2026, 10, 27, 19, 59)); // Friday 16:59
    expect(teamAvailability(SAO_PAULO, clock.now()).withinBusinessHours).toBe(true);
    clock.advance(60_000); // 17:00
    expect(teamAvailability(SAO_PAULO, clock.now())).toEqual({
      withinBusinessHours: false,
      backAt: MONDAY_9_SAO_PAULO,
    });
  });

  test("the weekend waits for Monday; the opening minute is inside, the one before waits for it", () => {
    const clock = createFakeClock(Date.UTC(2026, 10, 29, 15, 0)); // Sunday noon
    expect(teamAvailability(SAO_PAULO, clock.now()).backAt).toBe(MONDAY_9_SAO_PAULO);
    clock.set(MONDAY_9_SAO_PAULO - 60_000); // Monday 08:59
    expect(teamAvailability(SAO_PAULO, clock.now())).toEqual({
      withinBusinessHours: false,
      backAt: MONDAY_9_SAO_PAULO,
    });
    clock.set(MONDAY_9_SAO_PAULO);
    expect(teamAvailability(SAO_PAULO, clock.now()).withinBusinessHours).toBe(true);
  });

  test("the same instant is after hours in São Paulo and office hours in Los Angeles", () => {
    const instant = Date.UTC(2026, 10, 27, 21, 0); // 18:00 in São Paulo, 13:00 in Los Angeles
    expect(teamAvailability(SAO_PAULO, instant).withinBusinessHours).toBe(false);
    expect(teamAvailability(officeHours("America/Los_Angeles"), instant)).toEqual({
      withinBusinessHours: true,
      backAt: null,
    });
  });

  test("a business with no hours on any day is never in, and promises no return", () => {
    const config = officeHours("UTC");
    const closed = {
      ...config,
      appointments: {
        ...config.appointments,
        business_hours: { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null },
      },
    };
    expect(teamAvailability(closed, Date.UTC(2026, 10, 27, 12, 0))).toEqual({
      withinBusinessHours: false,
      backAt: null,
    });
  });
});
